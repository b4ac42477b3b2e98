"""What a session's commands accept, said once for both languages: autoplay's speed bounds and the sentences a
refused command is answered with. The offline page's transport (static/js/local.js) answers as the server does;
it reads them from static/js/rules.js, which is made from this module (``python -m tools.clientgen``).

A sentence names its blanks in braces (``{got}``: the refused value, as each language shows it). Pure: the
standard library only.
"""

from __future__ import annotations

MIN_SPEED, MAX_SPEED = 0.25, 20.0  # steps per second

SENTENCES = {
    "speed": f"speed must be a number of steps per second in {MIN_SPEED}..{MAX_SPEED}, got {{got}}",
    "position": "position must be an integer in {lo}..{hi}, got {got}",
    "range": "range must be [from, to] with 0 <= from <= to <= {total}, got {got}",
    "notLoaded": "no scenario loaded: send 'load' first",
    "payload": "'{event}' expects an object payload",
}


def said(name: str, **blanks: object) -> str:
    """The sentence ``name`` with its blanks filled: ``said("position", lo=0, hi=6, got="null")``."""
    return SENTENCES[name].format(**blanks)
