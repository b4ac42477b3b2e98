"""The viewer's stylesheets are listed once (webapp/export/stylesheets.py): the served pages and the offline file
read that list, each the files it marks for them, in its order, after the tokens' stylesheet."""

import pytest

from webapp import ROOT
from webapp.export import offline, stylesheets
from webapp.web import bundles


def test_every_listed_stylesheet_is_a_file_and_goes_somewhere_known():
    for path, places in stylesheets.SHEETS:
        assert (ROOT / "static" / path).is_file(), path
        assert places.split() and set(places.split()) <= stylesheets.PLACES, (path, places)
    paths = [path for path, _ in stylesheets.SHEETS]
    assert len(paths) == len(set(paths))


def test_the_pages_and_the_offline_file_read_the_one_list_in_its_order():
    served, inlined = bundles.STYLESHEETS, offline.STYLESHEETS
    assert served == ("css/tokens.css", *stylesheets.PAGES)
    assert inlined == tuple(ROOT / "static" / path for path in stylesheets.OFFLINE)
    order = [path for path, _ in stylesheets.SHEETS]
    for place in (stylesheets.PAGES, stylesheets.OFFLINE):
        assert [order.index(path) for path in place] == sorted(order.index(path) for path in place)
    assert stylesheets.PAGES[0] == stylesheets.OFFLINE[0] == "css/app.css"  # the others compose on it


def test_an_unknown_place_is_refused_by_name():
    with pytest.raises(ValueError, match="no such place 'print'; expected one of offline, pages"):
        stylesheets.loaded_by("print")
