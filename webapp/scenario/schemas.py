"""The scenario format's versions: each reads a field the document leaves out as its own documented default.

Schema 2 runs time as the scheduler does (``periodic_flushes`` true unless stated); schema 1 reads a missing
``periodic_flushes`` as false, the default it was written against, so its files mean what they meant.
"""

from __future__ import annotations

from typing import TypedDict


class Defaults(TypedDict):
    periodic_flushes: bool


SCHEMAS: dict[int, Defaults] = {1: {"periodic_flushes": False}, 2: {"periodic_flushes": True}}
CURRENT = max(SCHEMAS)  # what the project writes


def defaults(schema: int) -> Defaults:
    """The defaults of a validated document's ``schema``."""
    return SCHEMAS[schema]


def expected() -> str:
    """The schemas a document may name, in words."""
    return " or ".join(map(str, SCHEMAS))
