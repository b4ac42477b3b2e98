"""The fields a message or request body may hold: any other is refused by name, with the one it may have meant
(a misspelt optional field would otherwise be ignored without a word)."""

from __future__ import annotations

from difflib import get_close_matches

from ..errors import Invalid
from .bodies import shown

SHOWN = 60  # characters of an unknown field's name quoted back


def check_fields(what: str, payload: dict[str, object], fields: tuple[str, ...]) -> None:
    """Invalid naming the first field of ``payload`` that is not one of ``fields``."""
    for name in payload:
        if name not in fields:
            meant = get_close_matches(name[:SHOWN], fields, n=1)
            hint = f" (did you mean {meant[0]!r}?)" if meant else ""
            raise Invalid(f"{what} takes no field {shown(name, SHOWN)}{hint}; it takes {', '.join(fields)}")
