"""What the page's notice says of a link's versions it cannot show (webapp/web/routes.py _versions_problem): the
reason versions_in refused them, read as it reads them (names stripped, repeats dropped)."""

import html

import pytest

from webapp.engine.simulation import MAX_PANES, VERSIONS_TEXT_MOST


@pytest.mark.parametrize("versions, says", [
    ("v1.27.0", "This link asks for an unknown version “v1.27.0”"),
    (",".join(["v1.28.1"] * 5 + ["bogus"]), "an unknown version “bogus”"),  # it said "2 versions side by side"
    ("v1.28.1, nope ,v1.99", "unknown versions “nope”, “v1.99”"),
    ("v1.28.1,v1.28.2,v1.28.4,v1.28.5,v1.29.9", f"5 versions side by side, and at most {MAX_PANES} fit"),
    ("v1.28.1," * (VERSIONS_TEXT_MOST // 8 + 1),  # "1 versions"
     f"more versions than fit side by side (at most {MAX_PANES})"),
])
def test_the_notice_says_why_the_links_versions_cannot_be_shown(client, versions, says):
    page = html.unescape(client.get("/", query_string={"versions": versions}).get_data(as_text=True))
    assert says in page and "Showing the scenario's own versions instead." in page


def test_the_page_carries_the_servers_sentences_for_a_link_it_cannot_open(client):
    page = html.unescape(client.get("/").get_data(as_text=True))
    assert 'data-instead-of-link="Showing The lost marker instead."' in page
    assert 'data-damaged-link="This link\'s scenario is incomplete or damaged' in page
