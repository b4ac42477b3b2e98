"""The pages' one stylesheet and one module file (webapp/web/bundles.py): the committed build is what esbuild makes
from the files today, the viewer's pages name it alone, and a build older than its files is not used."""

import gzip
import json
import re
import shutil

import pytest

from tools import bundle
from webapp import ROOT
from webapp.web.assets import KEPT_SECONDS
from webapp.web.bundles import CONNECTION_OUTPUT, CSS_OUTPUT, MANIFEST, SCRIPTS, STYLESHEETS, Build, stale_inputs

STATIC = ROOT / "static"
BUNDLED_PAGES = {"/?scenario=lost-marker": "bundle/viewer.js", "/embed?scenario=lost-marker": "bundle/app.js",
                 "/present?scenario=lost-marker": "bundle/app.js", "/r/ABCD": "bundle/viewer.js"}
REBUILD = "static/bundle is older than the files it is made from: run `make bundle` and commit it"


def named(client, page: str) -> list[str]:
    """The files ``page`` names: linked, or inline (a page with its first frame carries its stylesheet, naming it,
    webapp/web/inline_style.py)."""
    return re.findall(r'(?:href|src|data-stylesheet)="(/static/[^"]+)"', client.get(page).get_data(as_text=True))


def test_the_committed_build_is_made_from_todays_files():
    fresh = Build(STATIC).check()
    assert fresh.css and fresh.scripts == set(SCRIPTS.values()), REBUILD


def test_a_fresh_build_makes_exactly_the_committed_files(tmp_path):
    if not bundle.ESBUILD.exists():
        pytest.fail(f"{bundle.ESBUILD} is missing: `npm ci --ignore-scripts` (make test does it)", pytrace=False)
    manifest = bundle.build(tmp_path)
    committed = json.loads((STATIC / MANIFEST).read_text())
    assert manifest == committed, REBUILD
    for output in manifest["outputs"]:
        assert (tmp_path / output.split("/", 1)[1]).read_bytes() == (STATIC / output).read_bytes(), REBUILD


@pytest.mark.parametrize("page", BUNDLED_PAGES)
def test_a_viewer_page_names_one_stylesheet_and_two_modules_kept_for_good(client, page):
    files = named(client, page)
    assert [re.sub(r"^/static/v/\w+/", "", url) for url in files] == [CSS_OUTPUT, CONNECTION_OUTPUT,
                                                                      BUNDLED_PAGES[page]]
    assert 'rel="modulepreload"' not in client.get(page).get_data(as_text=True)
    for url in files:
        answer = client.get(url, headers={"Accept-Encoding": "gzip"})
        assert answer.status_code == 200 and answer.headers["Content-Encoding"] == "gzip", url
        assert answer.cache_control.immutable and answer.cache_control.max_age == KEPT_SECONDS, url
        assert gzip.decompress(answer.data) == client.get(url).data


def test_the_stylesheet_bundle_holds_the_tokens_first_and_every_listed_stylesheet():
    css = (STATIC / CSS_OUTPUT).read_text()
    assert css.startswith(":root{--") and "light-dark(" in css  # tokens.css, made from static/js/tokens.js
    assert STYLESHEETS[0] == "css/tokens.css"
    assert ".challenges" in css and ".catalogue-dialog" in css  # the last listed stylesheets are in


def test_the_connection_is_one_module_the_page_bundles_import():
    """Named first so its socket opens early, and imported by the page's bundle as the same module."""
    for output in SCRIPTS.values():
        code = (STATIC / output).read_text()
        assert re.search(r'from\s*"\./connection\.js"', code), output
        assert "Socket.IO" not in code, output  # the client library is in the connection's module alone
    assert "Socket.IO v4" in (STATIC / CONNECTION_OUTPUT).read_text()  # its licence comment kept


def test_a_module_changed_since_the_build_is_served_one_by_one(app, client, tmp_path):
    """A build older than its inputs is not used: the page names each module and preloads its imports."""
    static = tmp_path / "static"
    shutil.copytree(STATIC, static)
    (static / "js" / "throttle.js").write_text((static / "js" / "throttle.js").read_text() + "\n// changed\n")
    app.extensions["asset_build"] = Build(static)
    files = [re.sub(r"^/static/v/\w+/", "", url) for url in named(client, "/?scenario=lost-marker")]
    assert files[0] == CSS_OUTPUT  # the stylesheets did not change: still one
    assert "js/throttle.js" in files and "js/app.js" in files and "js/catalogue-view.js" in files
    assert not any(path.startswith("bundle/") and path.endswith(".js") for path in files)
    assert "js/connection.js" in files
    assert stale_inputs(static, json.loads((static / MANIFEST).read_text()), "bundle/app.js") == ["js/throttle.js"]


def test_a_stylesheet_added_to_the_list_makes_the_css_build_stale():
    manifest = json.loads((STATIC / MANIFEST).read_text())
    assert stale_inputs(STATIC, manifest, CSS_OUTPUT, list(STYLESHEETS)) == []
    assert stale_inputs(STATIC, manifest, CSS_OUTPUT, [*STYLESHEETS, "css/new.css"]) == [CSS_OUTPUT]


def test_no_build_at_all_serves_every_file(app, client, tmp_path):
    (tmp_path / "js").mkdir()
    app.extensions["asset_build"] = Build(tmp_path)  # no manifest
    files = [re.sub(r"^/static/v/\w+/", "", url) for url in named(client, "/embed?scenario=lost-marker")]
    assert files[:len(STYLESHEETS)] == list(STYLESHEETS) and files[-1] == "js/app.js"


def test_the_audience_link_is_the_rooms_page_and_a_bad_code_goes_to_the_viewer(client):
    page = client.get("/r/abcd")
    assert page.status_code == 200 and 'data-room="ABCD"' in page.get_data(as_text=True)
    bad = client.get("/r/a!")
    assert bad.status_code == 302 and bad.headers["Location"].endswith("/?room=a!")
