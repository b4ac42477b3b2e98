"""The source panes in Chromium (static/js/source-pane.js): at the lost marker's fail the lines each version ran
are lit in order with their values (v1.28.1: previousEvent.Next() returns nil and the loop does not run; v1.28.2:
the walk from B's entry to PvAdd); `c` shows and hides them, Shift+C aligns v1.28.1 and v1.28.2 in diff mode; one
to four panes; folded on a phone. Two servers of this module's own: one whose user cache is empty (the paraphrase,
with permalinks), one whose cache holds the releases' text (put there from the mirror of kubernetes/autoscaler,
where this machine has it: the project carries no upstream text)."""


import pytest
import requests
from playwright.sync_api import expect

from tests.e2e.conftest import ROOT, open_page, reuse_page, sealed_page
from tests.sources import build
from tests.web.liveserver import LiveServer
from webapp.sources.maps import MAPS, tags
from webapp.upstream.cache import cache_path

LOGS = ROOT / "test-artifacts" / "server-logs"
AT_FAIL = "/?scenario=lost-marker&position=6"
HAS_MIRROR = (build.MIRROR / "HEAD").exists()


@pytest.fixture(scope="module")
def plain(tmp_path_factory):
    with LiveServer("threading", LOGS, env={"XDG_CACHE_HOME": str(tmp_path_factory.mktemp("empty-cache"))}) as s:
        yield s


@pytest.fixture(scope="module")
def cached(tmp_path_factory):
    if not HAS_MIRROR:
        pytest.skip("no mirror of kubernetes/autoscaler to fill the cache from")
    home = tmp_path_factory.mktemp("cache")
    for tag, m in tags().items():
        for file in m.files:
            path = cache_path(m, home / "inflight-scope" / "sources", file)  # where XDG_CACHE_HOME=home puts it
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(build.blob_at(build.VENDORED[tag][0], file))
    with LiveServer("threading", LOGS, env={"XDG_CACHE_HOME": str(home)}) as s:
        yield s


@pytest.fixture(scope="module")
def kept(browser):
    """One page per server for the module, handed out again test after test (a new context costs Chromium a new
    renderer), and one sealed page for the offline files."""
    pages = {}
    with sealed_page(browser, 1280, 720) as sealed:
        pages["sealed"] = sealed
        yield pages
        for key, page in pages.items():
            if key != "sealed":
                page.context.close()


@pytest.fixture
def page_on(browser, kept):
    """``page_on(server, width, height, color_scheme)``: the module's page on ``server``, as good as new
    (conftest.reuse_page); the test fails on any problem it reported."""
    used = []

    def make(server, width=1280, height=720, color_scheme="light"):
        if server.url in kept:
            page = reuse_page(kept[server.url], server, width, height, color_scheme, "reduce")
        else:
            page = kept[server.url] = open_page(browser, server, width, height, color_scheme)[1]
        used.append((server, page))
        return page

    yield make
    problems = [p for _, page in used for p in page.problems]
    for server, page in used:
        page.goto(server.url + "/healthz")  # the app stops here (sockets, timers), not during the next test
    assert not problems, problems


def view(page, version):
    return page.locator(f"[data-testid=source][data-version='{version}']")


def lit(page, version, anchor):
    return view(page, version).locator(f"[data-anchor='{anchor}'][data-lit=true], [data-line='{line(version, anchor)}']"
                                       "[data-lit=true]").first


def line(version, anchor):
    return MAPS[version].anchors[anchor].lines[0]


def open_sources(page, url=AT_FAIL):
    page.goto(url)
    expect(page.locator("[data-testid=diagram]").first).to_be_visible()
    page.keyboard.press("c")
    expect(page.locator("[data-testid=source] [data-current=true]").first).to_be_attached()


IN_VIEW_JS = """(el) => { const box = el.closest('.src-body').getBoundingClientRect();
  const at = el.getBoundingClientRect(); return at.top >= box.top && at.bottom <= box.bottom; }"""


def opened_on_the_last_line_run(page):
    """Opened at the fail, each pane was scrolled to done(), the last line run; v1.28.2's ended on the `break` of
    a pod's entry, which does not run once Done(B) has emptied the list (upstream's loop ends at `if e == nil`)."""
    for version in ("v1.28.1", "v1.28.2"):
        current = view(page, version).locator("[data-current=true]")
        expect(current).to_have_attribute("data-order", "1")
        expect(current).to_have_attribute("data-line", str(line(version, "aup.defer_done")))
        assert current.evaluate(IN_VIEW_JS), version
    ends = view(page, "v1.28.2").locator("[data-lit=true]").evaluate_all(
        "els => els.map(e => [e.dataset.anchor, Math.max(...e.dataset.order.split(',').map(Number))])")
    assert max(ends, key=lambda x: x[1])[0] == "done.prune_empty"


def test_at_the_lost_marker_fail_each_version_lights_the_lines_it_ran(plain, page_on):
    """v1.28.1 sees previousEvent.Next() return nil and the loop not run; v1.28.2 walks from B's entry to PvAdd."""
    page = page_on(plain)
    open_sources(page)
    v1 = view(page, "v1.28.1")
    expect(v1).to_have_attribute("data-text", "paraphrase")
    nxt = lit(page, "v1.28.1", "dh.marker_next")
    expect(nxt).to_contain_text("previousEvent.Next()")
    expect(nxt.locator("[data-testid=source-value]")).to_contain_text("e1.Next() = nil")
    expect(lit(page, "v1.28.1", "dh.loop").locator("[data-testid=source-value]")).to_contain_text("does not run")
    expect(v1.locator("[data-anchor='dh.worth'][data-lit=true]")).to_have_count(0)  # isPodWorthRequeuing not asked
    orders = [int(o.split(",")[0])
              for o in v1.locator("[data-lit=true]").evaluate_all("els => els.map(e => e.dataset.order)")]
    nxt_order = int(nxt.get_attribute("data-order"))
    loop_order = int(lit(page, "v1.28.1", "dh.loop").get_attribute("data-order"))
    assert nxt_order < loop_order and nxt_order in orders
    expect(v1.locator("[data-current=true]")).to_have_count(1)
    # the permalink names the exact upstream lines
    href = v1.locator("[data-function='determineSchedulingHintForInFlightPod'] a").get_attribute("href")
    f = MAPS["v1.28.1"].functions["determineSchedulingHintForInFlightPod"]
    assert href == f"https://github.com/kubernetes/kubernetes/blob/v1.28.0/pkg/scheduler/internal/queue/" \
                   f"scheduling_queue.go#L{f.first}-L{f.last}"
    # v1.28.2: the walk from B's entry to PvAdd
    v2 = view(page, "v1.28.2")
    expect(v2.locator("[data-anchor='dh.marker_next']")).to_have_count(0)
    expect(lit(page, "v1.28.2", "dh.loop").locator("[data-testid=source-value]")).to_contain_text("B@2.Next() = e2")
    expect(lit(page, "v1.28.2", "dh.worth").locator("[data-testid=source-value]")).to_contain_text(
        "e2 PvAdd → QueueAfterBackoff (P)")
    expect(lit(page, "v1.28.2", "rq.backoff").locator("[data-testid=source-value]")).to_have_text("backoffQ")
    expect(v2.locator("[data-current=true]")).to_have_count(1)
    opened_on_the_last_line_run(page)


def test_the_keys_show_hide_and_diff(plain, page_on):
    page = page_on(plain, color_scheme="dark")  # the panes open in view in the dark theme as in the light
    page.goto(AT_FAIL)
    expect(page.locator("[data-testid=diagram]").first).to_be_visible()
    sources = page.locator("#sources")
    expect(sources).to_be_hidden()
    page.keyboard.press("c")
    expect(sources).to_be_visible()
    expect(page.locator("#btn-sources")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("[data-testid=source] [data-current=true]").first).to_be_attached()
    opened_on_the_last_line_run(page)
    page.keyboard.press("c")
    expect(sources).to_be_hidden()
    page.keyboard.press("Shift+C")  # diff mode opens the panes too
    diff = page.locator("[data-testid=source-diff]")
    expect(diff).to_be_visible()
    cells = diff.locator(":scope > .src-view")
    pairs = cells.evaluate_all("els => els.map(e => [e.dataset.function, e.dataset.version || '', "
                               "Math.round(e.getBoundingClientRect().top)])")
    assert len(pairs) >= 6 and len(pairs) % 2 == 0
    for left, right in zip(pairs[::2], pairs[1::2]):
        assert left[0] == right[0] and left[2] == right[2], (left, right)  # a function's two sides, one row
        assert (left[1], right[1]) in (("v1.28.1", "v1.28.2"), ("v1.28.1", ""), ("", "v1.28.2"))
    for version in ("v1.28.1", "v1.28.2"):  # one current line per version, in whichever function it is
        expect(diff.locator(f"[data-version='{version}'] [data-current=true]")).to_have_count(1)
    hint = diff.locator(":scope > .src-view[data-function='determineSchedulingHintForInFlightPod']")
    expect(hint.first.locator("[data-lit=true]").first).to_be_attached()
    expect(hint.nth(0).locator("[data-testid=source-value]", has_text="Next() = nil")).to_have_count(1)
    expect(hint.nth(1).locator("[data-testid=source-value]", has_text="PvAdd")).to_have_count(1)
    page.keyboard.press("Shift+C")
    expect(diff).to_have_count(0)
    expect(page.locator("[data-testid=source]")).to_have_count(2)
    page.keyboard.press("?")
    expect(page.locator("#help-keys tr[data-action=toggleSource]")).to_contain_text("c")
    expect(page.locator("#help-keys tr[data-action=toggleSourceDiff]")).to_contain_text("Shift+C")


@pytest.mark.parametrize("versions", ["v1.28.1", "v1.28.1,v1.28.2,v1.29.9", "v1.28.1,v1.28.2,v1.30.14,v1.31.13"])
def test_one_to_four_panes(plain, page_on, versions):
    page = page_on(plain, 1920, 1080)
    open_sources(page, f"{AT_FAIL}&versions={versions}")
    names = versions.split(",")
    expect(page.locator("[data-testid=source]")).to_have_count(len(names))
    expect(page.locator("#sources")).to_have_attribute("data-count", str(len(names)))
    for v in names:
        expect(view(page, v).locator("[data-lit=true]").first).to_be_attached()


def test_a_phone_folds_the_panes(plain, page_on):
    page = page_on(plain, 390, 844)
    open_sources(page)
    pane = page.locator(".src-pane").first
    assert pane.evaluate("d => d.open") is False
    pane.locator("summary").click()
    assert pane.evaluate("d => d.open") is True
    expect(pane.locator("[data-lit=true]").first).to_be_visible()


def test_with_the_text_cached_the_real_lines_are_lit_and_the_licence_shown(cached, page_on):
    page = page_on(cached)
    open_sources(page)
    v1 = view(page, "v1.28.1")
    expect(v1).to_have_attribute("data-text", "upstream")
    real = build.text_at(build.VENDORED["v1.28.0"][0], MAPS["v1.28.1"].path).split("\n")
    n = line("v1.28.1", "dh.marker_next")
    row = v1.locator(f"[data-line='{n}']")
    expect(row).to_have_attribute("data-lit", "true")
    assert row.locator(".src-code").text_content() == real[n - 1]
    expect(row.locator("[data-testid=source-value]")).to_contain_text("Next() = nil")
    expect(v1.locator(".src-licence")).to_contain_text("Apache License")
    v2 = view(page, "v1.28.2")  # reconstructed from v1.28.4's text: #120334's lines in Pop struck through
    expect(v2.locator("[data-line='847']")).to_have_count(0)  # Pop is not run at this step
    page.goto("/?scenario=lost-marker&position=3")
    page.keyboard.press("c")
    omitted = view(page, "v1.28.2").locator("[data-omitted=true]")
    expect(omitted).to_have_count(len(MAPS["v1.28.2"].omitted))


@pytest.mark.parametrize("which", ["plain", "cached"])
def test_an_offline_file_carries_the_panes_and_the_cached_text(request, kept, tmp_path, which):
    server = request.getfixturevalue(which)
    response = requests.get(f"{server.url}/export/lost-marker.html", timeout=60)
    assert response.status_code == 200
    path = tmp_path / "lost-marker.html"
    path.write_bytes(response.content)
    page, attempted, problems = kept["sealed"]
    attempted.clear()
    problems.clear()
    page.goto(path.as_uri())
    expect(page.locator("#panes > [data-variant]")).to_have_count(2)
    page.keyboard.press("End")
    expect(page.locator("#panes [data-variant='v1.28.1']")).to_contain_text("its marker e1 was removed")
    page.keyboard.press("c")
    v1 = view(page, "v1.28.1")
    expect(v1).to_have_attribute("data-text", "upstream" if which == "cached" else "paraphrase")
    expect(lit(page, "v1.28.1", "dh.marker_next").locator("[data-testid=source-value]")).to_contain_text(
        "Next() = nil")
    page.goto("about:blank")  # the app stops before the next file
    assert not attempted and not problems, (attempted, problems)


def test_the_api_gives_the_map_and_the_cached_text_only_where_cached(plain, cached):
    bare = requests.get(f"{plain.url}/api/sources/v1.28.2", timeout=30)
    assert bare.status_code == 200 and bare.json()["text"] is None
    j = bare.json()
    assert (j["version"], j["ref"], j["omitted"]) == ("v1.28.2", "v1.28.4", list(MAPS["v1.28.2"].omitted))
    assert j["paraphrase"]["determineSchedulingHintForInFlightPod"][0][0] == "dh.lookup"
    full = requests.get(f"{cached.url}/api/sources/v1.28.2", timeout=30).json()["text"]
    f = MAPS["v1.28.2"].functions["Pop"]
    assert len(full["functions"]["Pop"]) == f.last - f.first + 1 and full["functions"]["Pop"][0].startswith("func ")
    assert any("Apache License" in line for line in full["licence"])
    missing = requests.get(f"{plain.url}/api/sources/v0.0.1", timeout=30)
    assert missing.status_code == 404 and missing.json()["kind"] == "NotFound"


AT_POP = "/?scenario=in-flight-basics&position=1&versions=v1.32.0,v1.36.2"


@pytest.mark.parametrize("which", ["plain", "cached"])
def test_from_1_32_a_pop_lights_pop_then_activeqs_pop_in_active_queue_go(request, page_on, which):
    page = page_on(request.getfixturevalue(which), 1920, 1080)
    open_sources(page, AT_POP)
    for version in ("v1.32.0", "v1.36.2"):
        m = MAPS[version]
        pane = view(page, version)
        expect(pane).to_have_attribute("data-text", "upstream" if which == "cached" else "paraphrase")
        functions = pane.locator(".src-fn").evaluate_all("els => els.map(e => e.dataset.function)")
        assert functions[:2] == ["Pop", "activeQueue.unlockedPop"], functions
        unlocked = pane.locator("[data-function='activeQueue.unlockedPop']")
        expect(unlocked.locator(".src-file")).to_have_text("active_queue.go")
        expect(pane.locator("[data-function='Pop'] .src-file")).to_have_text("scheduling_queue.go")
        take = m.anchors["pop.take"].lines[0]
        expect(unlocked.locator(f"[data-line='{take}']")).to_have_attribute("data-lit", "true")
        expect(unlocked.locator(f"[data-line='{take}'] [data-testid=source-value]")).to_contain_text("pInfo = ")
        entry = m.functions[m.anchors["pop.entry"].function]
        expect(pane.locator(f"[data-function='{entry.name}'] [data-line='{m.anchors['pop.entry'].lines[0]}']")
               ).to_have_attribute("data-lit", "true")
        if which == "cached":
            real = build.text_at(build.VENDORED[m.ref][0], entry.path).split("\n")
            row = pane.locator(f"[data-function='{entry.name}'] [data-line='{m.anchors['pop.entry'].lines[0]}']")
            assert row.locator(".src-code").text_content() == real[m.anchors["pop.entry"].lines[0] - 1]
        else:
            f = m.functions["activeQueue.unlockedPop"]
            assert unlocked.locator("a").get_attribute("href") == f"https://github.com/kubernetes/kubernetes/blob/" \
                f"{m.ref}/pkg/scheduler/backend/queue/active_queue.go#L{f.first}-L{f.last}"
