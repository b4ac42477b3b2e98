"""The front end under the server's limits: a dragged scrubber stays under the per-connection rate limit (its
seeks are throttled, the last one always sent), and the editor does not hand the viewer a scenario larger than
one Socket.IO message may be."""

from playwright.sync_api import expect

from tests.e2e.conftest import heard
from tests.e2e.test_browser import at, open_lost_marker


def test_a_dragged_scrubber_stays_under_the_rate_limit_and_lands_where_it_stopped(page, traffic):
    frames = traffic(page)
    sent, received = frames.sent, frames.received
    open_lost_marker(page)
    at(page, 0)
    before, heard_before = len(sent), len(received)
    page.evaluate("""() => {
        const s = document.getElementById('scrubber');
        for (let i = 0; i < 300; i++) {  // far more than the burst of 60 a connection may send at once
            s.value = String(i % 7);
            s.dispatchEvent(new Event('input'));
        }
        s.value = '5';
        s.dispatchEvent(new Event('input'));
    }""")
    at(page, 5)

    def answered():  # every seek sent has had its answer (a whole state) or a refusal: none can come later
        seeks = [name for name in sent[before:] if name == "seek"]
        answers = [name for name, _payload in received[heard_before:] if name in ("state", "error")]
        return seeks if len(answers) >= len(seeks) else None

    seeks = heard(page, answered, lambda: f"{len(sent) - before} frames sent, not every seek answered")
    at(page, 5)
    assert 1 <= len(seeks) <= 3, seeks  # the first at once, then the latest value after 50 ms
    assert not [payload for _name, payload in received if "rate limit" in str(payload)]
    expect(page.locator("#error")).to_be_hidden()


def test_the_editor_does_not_run_a_scenario_over_the_message_limit(page):
    page.goto("/editor?scenario=lost-marker")
    expect(page.locator("#summary")).to_contain_text("Valid")
    assert int(page.locator("#editor").get_attribute("data-max-message-bytes")) == 1024 * 1024
    page.locator("#editor").evaluate("(el) => { el.dataset.maxMessageBytes = '3000'; }")  # lost-marker is ~3.5 kB
    page.get_by_role("button", name="Run ▶").click()
    expect(page.locator("#notice")).to_contain_text("Too large to run in the viewer")
    assert page.url.endswith("/editor?scenario=lost-marker")
    page.locator("#editor").evaluate("(el) => { el.dataset.maxMessageBytes = String(1024 * 1024); }")
    page.get_by_role("button", name="Run ▶").click()
    page.wait_for_url("**/?scenario=__inline__")
    expect(page.locator("#scenario-name")).to_have_text("The lost marker")
