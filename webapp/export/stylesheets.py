"""The viewer's stylesheets, listed once: which files of static/css each place loads, in cascade order.

The served pages (web/bundles.py: bundled into one, or one by one) load PAGES after the tokens' stylesheet; the
offline file (offline.py) inlines OFFLINE after the same tokens (tokens.py ``css``). A stylesheet is added here
only: a line in SHEETS that says where it goes. The list lives below web/ so that both layers read it
(tests/test_layers.py).
"""

from __future__ import annotations

PLACES = frozenset({"pages", "offline"})  # every served page (base.html, bundles.page_files); the offline file

# (path under static/, the places that load it), in cascade order.
SHEETS: tuple[tuple[str, str], ...] = (
    ("css/app.css", "pages offline"),
    ("css/flow.css", "pages offline"),
    ("css/explore.css", "pages"),
    ("css/challenges.css", "pages"),  # the viewer's challenges box; unbundled, challenges.js adds it beside app.css
    ("css/catalogue.css", "pages"),  # the plugin catalogue's dialog (catalogue-view.js, editor.html)
    ("css/vote.css", "pages"),  # a room's vote on what happens next (vote.js): the presenter's panel, a phone's sheet
    ("css/phone.css", "pages offline"),  # the stacked panes' strip and the docked poll sheet (glance.js, dock.js)
    ("css/report.css", "offline"),  # the incident report below the offline viewer (report.html links it itself)
    ("css/story.css", "pages offline"),  # the embed's story mode: an article beside the pinned diagram (scrolly.js)
    ("css/sources.css", "pages offline"),  # the source panes under the diagrams (source-pane.js)
    ("css/remote.css", "pages"),  # the phone remote (remote.html) and the presenter's panel of its link
    ("css/firstframe.css", "pages"),  # the panes drawn on the server into the page (web/firstframe.py)
)


def loaded_by(place: str) -> tuple[str, ...]:
    """The paths ``place`` loads, in cascade order."""
    if place not in PLACES:
        raise ValueError(f"no such place {place!r}; expected one of {', '.join(sorted(PLACES))}")
    return tuple(path for path, places in SHEETS if place in places.split())


PAGES = loaded_by("pages")
OFFLINE = loaded_by("offline")
