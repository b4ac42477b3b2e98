"""The fields a message or request body may hold: any other is refused by name, with the one it may have meant
(a misspelt optional field would otherwise be ignored without a word)."""

from __future__ import annotations

from difflib import get_close_matches

from .. import phrases
from ..engine.rules import said
from ..errors import Invalid
from .bodies import shown

SHOWN = 60  # characters of an unknown field's name quoted back

Fields = dict[str, object]  # a payload object's fields, as a message's handler reads them


def check_fields(what: str, payload: dict[str, object], fields: tuple[str, ...]) -> None:
    """Invalid naming the first field of ``payload`` that is not one of ``fields``."""
    for name in payload:
        if name not in fields:
            meant = get_close_matches(name[:SHOWN], fields, n=1)
            hint = f" (did you mean {meant[0]!r}?)" if meant else ""
            raise Invalid(f"{what} takes no field {shown(name, SHOWN)}{hint}; it takes {', '.join(fields)}")


def fields(payload: object, event: str) -> Fields:
    """The fields of Socket.IO ``event``'s payload, an object; Invalid for any other value (the namespace's
    ``checked`` refuses it before a handler runs, and each handler reads its payload through this)."""
    if not isinstance(payload, dict):
        raise Invalid(said("payload", event=event))
    return payload


def boolean(payload: Fields, name: str, default: bool | None = None) -> bool:
    """The field ``name``, true or false (``default`` when absent, if it has one); any other value is refused."""
    value = payload.get(name, default)
    if not isinstance(value, bool):
        raise Invalid(f"{name} must be true or false, got {phrases.shown(value)}")
    return value
