"""The page's GIF and APNG buttons: the steps up to the position on screen, in the page's theme, decoded."""

from PIL import Image
from playwright.sync_api import expect

from tests.e2e.test_browser import at, open_lost_marker
from webapp.export.animation import frames
from webapp.export.request import DEFAULT_WIDTH
from webapp.export.tokens import THEMES
from webapp.scenario import builtin
from webapp.scenario.load import load_scenario


def test_gif_and_apng_of_the_steps_up_to_the_position(page, tmp_path):
    lost_marker = load_scenario(builtin.get("lost-marker"))
    open_lost_marker(page, "&position=6")
    at(page, 6)
    with page.expect_download(timeout=120_000) as download:
        page.click("#btn-export-gif")
    assert download.value.suggested_filename == "lost-marker-0-6.gif"
    with Image.open(download.value.path()) as gif:
        assert gif.format == "GIF"
        assert gif.n_frames == len(frames(lost_marker, 0, 6))
        assert gif.width == DEFAULT_WIDTH
    expect(page.locator("#btn-export-gif")).to_be_enabled()  # busy only while the server drew it
    page.click("#theme-toggle")  # the page's theme is the picture's
    page.keyboard.press("ArrowLeft")
    at(page, 5)
    with page.expect_download(timeout=120_000) as download:
        page.click("#btn-export-apng")
    assert download.value.suggested_filename == "lost-marker-0-5.png"
    with Image.open(download.value.path()) as apng:
        assert apng.format == "PNG" and apng.n_frames == len(frames(lost_marker, 0, 5, "dark"))
        dark = Image.new("RGB", (1, 1), THEMES["dark"]["bg"]).getpixel((0, 0))
        assert apng.convert("RGB").getpixel((2, 2)) == dark
