"""The Present dialog in a real Chromium: on a server listening on every address (a subprocess, `serve --host
0.0.0.0`) the presenter's page, opened on 127.0.0.1, shows an audience URL on another address and a QR code that
zbarimg reads back as exactly that URL; on a server listening on loopback only, the dialog says so and how to
serve for a room. The browser only ever connects to 127.0.0.1 (open_page fails a test on any other request)."""

import ipaddress
import re
import shutil
import subprocess
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import open_page
from tests.web.liveserver import ROOT, LiveServer
from webapp.server.addresses import SERVE_FOR_A_ROOM, interface_addresses

LOGS = ROOT / "test-artifacts" / "server-logs"
ZBARIMG = shutil.which("zbarimg")


@pytest.fixture(scope="module")
def room_server(tmp_path_factory):
    secret = tmp_path_factory.mktemp("state") / "room-secret"
    env = {"INFLIGHT_SCOPE_SECRET_FILE": str(secret), "INFLIGHT_SCOPE_MAX_ROOMS_PER_ADDRESS": "0"}
    with LiveServer("threading", LOGS, extra_args=("--host", "0.0.0.0"), env=env) as live:
        yield live
    assert "Traceback" not in live.log(), live.log()


@pytest.fixture
def room_page(browser, room_server):
    context, page = open_page(browser, room_server)
    yield page
    context.close()
    assert not page.problems, "the page reported problems:\n" + "\n".join(page.problems)


def decoded(png: bytes, tmp_path) -> str:
    """What zbarimg reads in a PNG: the one QR code's text."""
    if ZBARIMG is None:
        pytest.fail("zbarimg is missing: `make test` installs zbar-tools (make system-deps)", pytrace=False)
    path = tmp_path / "qr.png"
    path.write_bytes(png)
    done = subprocess.run([ZBARIMG, "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", str(path)],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_on_every_address_the_dialog_shows_a_url_the_room_can_open_and_its_qr_code(room_page, room_server, tmp_path):
    if not interface_addresses():
        pytest.skip("this machine has no network address but loopback: no URL a room could open")
    page = room_page
    page.goto("/present?scenario=lost-marker")
    link = page.locator("#audience-link a")
    expect(link).to_be_visible()
    shown = link.inner_text()
    parts = urlsplit(shown)
    assert parts.port == room_server.port and parts.path.startswith("/r/"), shown
    assert not ipaddress.ip_address(parts.hostname).is_loopback, shown
    room = parts.path.removeprefix("/r/")
    expect(page.locator("#audience-link")).to_have_text(f"Audience: {shown} code {room}▦ QR code")
    assert page.locator("#present-dialog").is_hidden()

    page.locator("#present-open").click()
    dialog = page.locator("#present-dialog")
    expect(dialog).to_be_visible()
    expect(page.locator("#present-close")).to_be_focused()
    expect(page.locator("#present-url")).to_have_text(shown)
    expect(page.locator("#present-code")).to_have_text(room)
    expect(page.locator("#present-warning")).to_be_hidden()
    qr = page.locator("#present-qr")
    expect(qr).to_be_visible()
    page.wait_for_function("() => document.getElementById('present-qr').complete "
                           "&& document.getElementById('present-qr').naturalWidth > 0")
    box = qr.bounding_box()
    assert box["width"] >= 0.6 * 720 and box["height"] == pytest.approx(box["width"], abs=1)  # scanned from afar
    assert decoded(qr.screenshot(), tmp_path) == shown

    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(page.locator("#present-open")).to_be_focused()
    expect(page.locator("[data-testid=position]")).to_have_text(re.compile(r"^0 / "))
    page.keyboard.press("ArrowRight")  # the keys step again once it is closed
    expect(page.locator("[data-testid=position]")).to_have_text(re.compile(r"^1 / "))


def test_while_it_is_open_the_dialog_keeps_the_keys_and_a_click_beside_it_closes_it(room_page):
    page = room_page
    page.goto("/present?scenario=lost-marker")
    page.locator("#present-open").click()
    expect(page.locator("#present-dialog")).to_be_visible()
    before = page.locator("[data-testid=position]").inner_text()
    page.keyboard.press("ArrowRight")
    assert page.locator("[data-testid=position]").inner_text() == before
    page.mouse.click(4, 4)  # the scrim, beside the card
    expect(page.locator("#present-dialog")).to_be_hidden()


def test_on_loopback_the_dialog_says_no_phone_can_open_it_and_how_to_serve_for_a_room(make_page, live_server):
    page = make_page()
    page.goto("/present?scenario=lost-marker")
    expect(page.locator("#audience-link a")).to_have_text(f"{live_server.url}/r/{current_room(page)}")
    expect(page.locator("#audience-link .present-local")).to_have_text("only this computer can open it")
    page.locator("#present-open").click()
    warning = page.locator("#present-warning")
    expect(warning).to_be_visible()
    words = SERVE_FOR_A_ROOM.replace("`", "")
    expect(warning).to_have_text("The server listens on 127.0.0.1 only, which only this computer can reach: no phone "
                                 f"in the room can open it. {words}")
    expect(warning.locator("code")).to_have_text(["make present", "inflight-scope serve --host 0.0.0.0"])
    expect(page.locator("#present-title")).to_have_text("Phones cannot open this room")
    expect(page.locator("#present-qr")).to_be_hidden()
    page.locator("#present-close").click()
    expect(page.locator("#present-dialog")).to_be_hidden()


def current_room(page) -> str:
    page.wait_for_function("() => location.hash.includes('room=')")
    return page.evaluate("() => new URLSearchParams(location.hash.slice(1)).get('room')")


def test_present_opens_the_presenters_page_on_the_dialog_once(make_page, live_server):
    page = make_page()
    page.goto("/?scenario=lost-marker")
    expect(page.locator("#scenario-name")).to_have_text("The lost marker")
    page.locator("#btn-present").click()
    page.wait_for_url(re.compile(r"/present"))
    expect(page.locator("#present-dialog")).to_be_visible()
    expect(page.locator("#present-warning")).to_be_visible()  # this server listens on loopback only
    page.keyboard.press("Escape")
    expect(page.locator("#present-dialog")).to_be_hidden()
    page.reload()
    expect(page.locator("#audience-link a")).to_be_visible()
    expect(page.locator("#present-dialog")).to_be_hidden()  # asked once: a reload mid-talk keeps the stage
