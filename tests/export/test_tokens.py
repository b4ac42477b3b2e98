"""The design tokens (static/js/tokens.js) are the one owner of the colours, the lanes' shares and the arrows'
numbers: the page's modules and Python read the same values, the stylesheets name no colour of their own and use
only custom properties someone defines, the pages load the tokens' stylesheet and the offline file embeds it, and
the SVG export paints with the tokens' colours alone."""

import re
import xml.etree.ElementTree as ET

import pytest

from tests.export.node import run_module
from webapp import ROOT
from webapp.export import offline, tokens
from webapp.export.svg import export_svg
from webapp.web.bundles import STYLESHEETS

CSS = sorted((ROOT / "static" / "css").glob("*.css"))
TOKENS_JS = (ROOT / "static" / "js" / "tokens.js").as_uri()
COLOUR = re.compile(r"#[0-9a-fA-F]{3,8}\b|\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch)\(")


def test_node_and_python_read_the_same_tokens():
    harness = f'import {{ TOKENS }} from "{TOKENS_JS}"; console.log(JSON.stringify(TOKENS));'
    assert run_module(harness, [], "static/js/tokens.js") == tokens.TOKENS


def test_every_colour_has_both_themes():
    assert all(len(pair) == 2 and all(isinstance(c, str) for c in pair) for pair in tokens.TOKENS["colours"].values())
    assert set(tokens.THEMES) == {"light", "dark"} and tokens.THEMES["light"].keys() == tokens.THEMES["dark"].keys()


@pytest.mark.parametrize("sheet", CSS, ids=lambda p: p.name)
def test_stylesheets_name_no_colour_of_their_own(sheet):
    """Colours are tokens: a stylesheet uses var(--name), never a literal (transparent and currentColor aside)."""
    assert COLOUR.findall(sheet.read_text(encoding="utf-8")) == []


def test_every_custom_property_used_is_defined():
    """What the stylesheets read with var(--name) is a token (css/tokens.css), set by a stylesheet or set by a
    module (``setProperty("--name"``)."""
    text = tokens.css() + "".join(sheet.read_text(encoding="utf-8") for sheet in CSS)
    scripts = "".join(module.read_text(encoding="utf-8") for module in (ROOT / "static" / "js").glob("*.js"))
    used = set(re.findall(r"var\(\s*--([\w-]+)", text))
    defined = set(re.findall(r"--([\w-]+)\s*:", text)) | set(re.findall(r"setProperty\(\s*\"--([\w-]+)", scripts))
    assert used - defined == set()


def test_the_lanes_share_the_row_as_the_tokens_say():
    css = (ROOT / "static" / "css" / "app.css").read_text(encoding="utf-8")
    columns = re.findall(r"^\.lanes \{[^}]*grid-template-columns:([^;]*);", css, re.M)[0]
    assert re.findall(r"var\(--lane-(\w+)\)", columns) == list(tokens.LANE_SHARES)
    assert all(f"--lane-{queue}: {share:g}fr;" in tokens.css() for queue, share in tokens.LANE_SHARES.items())


def test_the_pages_load_the_tokens_stylesheet(client):
    page = client.get("/?scenario=lost-marker").get_data(as_text=True)
    # a fresh build's stylesheet is inside the page that draws its first frame, naming its address (inline_style.py)
    sheets = re.findall(r'<(?:link rel="stylesheet" href|style data-stylesheet)="([^"]+)"', page)
    if sheets[0].endswith("/bundle/pages.css"):  # the stylesheets in one, made from the tokens' first (bundles.py)
        assert STYLESHEETS[0] == "css/tokens.css"
        sheets[0] = sheets[0].replace("/bundle/pages.css", "/css/tokens.css")
    assert sheets[0].endswith("/css/tokens.css")  # before app.css, which composes from them
    answer = client.get(sheets[0])
    assert answer.status_code == 200 and answer.mimetype == "text/css"
    assert answer.get_data(as_text=True) == tokens.css()
    for name, (light, dark) in tokens.TOKENS["colours"].items():
        assert f"--{name}: light-dark({light}, {dark});" in answer.get_data(as_text=True)


def test_the_offline_file_embeds_the_tokens(lost_marker):
    html = offline.export_html(lost_marker, "lost-marker")
    [style] = re.findall(r"<style>(.*?)</style>", html, re.S)
    assert style.startswith(tokens.css())


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_svg_export_paints_with_the_tokens_colours_alone(lost_marker, theme):
    root = ET.fromstring(export_svg(lost_marker, 6, theme=theme).encode("utf-8"))
    painted = {el.get(attr) for el in root.iter() for attr in ("fill", "stroke") if el.get(attr)} - {"none"}
    assert painted <= set(tokens.THEMES[theme].values())
    assert {tokens.THEMES[theme][name] for name in ("bg", "panel", "marker", "bug")} <= painted


def test_each_lanes_chips_take_their_corners_from_the_tokens():
    css = (ROOT / "static" / "css" / "app.css").read_text(encoding="utf-8")
    for queue, corners in tokens.CHIP_CORNERS.items():
        assert re.search(rf"^\.chip-{queue} \{{[^}}]*border-radius: var\(--chip-{queue}\);", css, re.M), queue
        assert f"--chip-{queue}: {' '.join(f'{r:g}px' for r in corners)};" in tokens.css()
