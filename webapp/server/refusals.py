"""The TooLarge refusals of the last KEPT large uploads, remembered so that the same upload sent again is refused at
once, without being simulated up to the bound again (the work a client repeating it would cost)."""

from __future__ import annotations

import json
from typing import Any

from ..errors import TooLarge
from .codec import JsonText


class Refusals:
    """The TooLarge refusals of the last KEPT large uploads: the same upload sent again is refused at once, without
    being simulated up to the bound again."""

    KEPT = 32

    def __init__(self) -> None:
        self._said: dict[tuple[Any, ...], str] = {}  # upload -> its refusal's message

    @staticmethod
    def _upload(source: object, payload: dict[str, Any]) -> tuple[Any, ...] | None:
        """What a large upload's refusal depends on (its text, hashed where the packet kept it, and how it is to be
        loaded), or None for anything else."""
        if not isinstance(source, JsonText):
            return None
        return (hash(source.text), len(source.text),
                *(json.dumps(payload.get(name)) for name in ("variants", "range", "position")))

    def check(self, source: object, payload: dict[str, Any]) -> None:
        """Refuse an upload that was refused already."""
        upload = self._upload(source, payload)
        if upload is not None and upload in self._said:
            raise TooLarge(self._said[upload])

    def remember(self, source: object, payload: dict[str, Any], refusal: TooLarge) -> None:
        upload = self._upload(source, payload)
        if upload is None:
            return
        self._said[upload] = str(refusal)
        while len(self._said) > self.KEPT:
            del self._said[next(iter(self._said))]

    def __len__(self) -> int:
        return len(self._said)
