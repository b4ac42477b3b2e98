"""Pages in a room as the browser tests open them: an audience phone on a room's link."""

from __future__ import annotations

from tests.e2e.test_browser import at


def phone_in_room(make_page, room: str, position: int = 0):
    """A phone (390x844) that opened room ``room``'s audience link and drew the room's step ``position``."""
    page = make_page(width=390, height=844)
    page.goto(f"/r/{room}")
    at(page, position)
    return page
