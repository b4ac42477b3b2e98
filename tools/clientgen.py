"""static/js's generated files, each made from the Python module that owns its facts:

    python -m tools.clientgen          # writes them all
    python -m tools.clientgen --check  # lists the stale ones (exit 1), writes nothing

rules.js (a session's bounds and refusal sentences: webapp/engine/rules.py), kinds.js (the error kinds the page
tells apart: webapp/errors.py's CLIENT_KINDS) and types.d.ts (the wire shapes: the presenter's TypedDicts,
tools/wiretypes.py). tests/test_rules.py, tests/test_error_kinds.py and tests/test_wiretypes.py fail while one is
stale.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

from webapp import ROOT
from webapp.engine.rules import MAX_SPEED, MIN_SPEED, SENTENCES
from webapp.errors import CLIENT_KINDS

from .wiretypes import declarations

JS = ROOT / "static" / "js"


def rules_module() -> str:
    """static/js/rules.js: the bounds and SENTENCES as an ES module."""
    rules = {"minSpeed": MIN_SPEED, "maxSpeed": MAX_SPEED, "sentences": SENTENCES}
    return ("// What a session's commands accept and the sentences a refused one is answered with, made from\n"
            "// webapp/engine/rules.py by `python -m tools.clientgen`: edit them there.\n"
            f"export const RULES = {json.dumps(rules, indent=2)};\n")


def kinds_module() -> str:
    """static/js/kinds.js: CLIENT_KINDS as an ES module."""
    return ("// The error kinds the page tells apart, made from webapp/errors.py (CLIENT_KINDS) by\n"
            "// `python -m tools.clientgen`: edit them there.\n"
            f"export const KINDS = {json.dumps(CLIENT_KINDS, indent=2)};\n")


GENERATED: dict[str, Callable[[], str]] = {"rules.js": rules_module, "kinds.js": kinds_module,
                                           "types.d.ts": declarations}


def stale(folder: Path = JS) -> list[str]:
    """The generated files of ``folder`` that differ from what their modules make today."""
    return [name for name, make in GENERATED.items()
            if not (folder / name).is_file() or (folder / name).read_text(encoding="utf-8") != make()]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="list the stale files and fail if any; write nothing")
    args = ap.parse_args(argv)
    if args.check:
        old = stale()
        print("\n".join(f"stale: static/js/{name}" for name in old) or "static/js's generated files are fresh")
        return 1 if old else 0
    for name, make in GENERATED.items():
        (JS / name).write_text(make(), encoding="utf-8")
        print(f"static/js/{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
