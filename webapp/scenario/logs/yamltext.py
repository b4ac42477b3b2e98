"""The imported scenario as YAML text, laid out like the built-ins, with its assumptions and disagreements also
as comments at the top. Every text is written so that loading the YAML gives it back exactly: strings
double-quoted, every character but printable ASCII escaped, a comment with
every character that is not printable (each Unicode line break among them: \\r, \\v, \\f, \\x1c-\\x1e, U+0085,
U+2028, U+2029) escaped, and the description as a literal block only when it reads back as it is."""

import re
from typing import Any

from .lines import printable
from .words import LISTS

# The top keys in the order the YAML writes them; any other key follows them, steps come last.
LAYOUT = ("schema", "name", "description", "assumptions", "periodic_flushes", "gate", "versions", "hints", "config",
          "pods")
_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def comment(text: str) -> str:
    """``text`` on one comment line: a newline as a space, every other character that is not printable escaped
    (``\\u2028``), so that nothing of it is read as YAML."""
    return printable(text.replace("\n", " "))


def _string(text: str) -> str:
    """``text`` as a YAML double-quoted scalar of printable ASCII: every other character escaped (``\\u2028``;
    ``\\U0001f600`` past U+FFFF, where JSON writes a surrogate pair that YAML does not join)."""
    if text.isascii() and text.isprintable():
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return '"' + "".join(c.replace("\\", "\\\\").replace('"', '\\"') if c.isascii() and c.isprintable()
                         else f"\\u{ord(c):04x}" if ord(c) < 0x10000 else f"\\U{ord(c):08x}" for c in text) + '"'


def _scalar(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        text = f"{v:.6f}".rstrip("0")
        return text + "0" if text.endswith(".") else text
    if isinstance(v, str):
        return _string(v)
    if isinstance(v, list):
        return "[" + ", ".join(_scalar(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_key(k)}: {_scalar(x)}" for k, x in v.items()) + "}"
    raise TypeError(type(v))


def _key(k: object) -> str:
    return k if isinstance(k, str) and _PLAIN_KEY.fullmatch(k) and k not in ("true", "false", "null") else \
        _scalar(k)


def _literal(text: str) -> bool:
    """Whether ``text`` reads back as it is from a literal block (``|``, clipped): printable lines, the first
    starting with neither a space nor nothing, one newline at its end."""
    lines = text.split("\n")
    return (len(lines) >= 2 and lines[-1] == "" and lines[-2] != "" and lines[0][:1] not in ("", " ")
            and all(line.isprintable() for line in lines))


def to_yaml(scenario: dict[str, Any], assumptions: list[str], disagreements: list[str]) -> str:
    """The scenario as YAML, laid out like the built-ins, with the assumptions and the disagreements also as
    comments at the top. Any scenario object (a built-in's too) reads back from it as it is."""
    out = ["# Imported from a kube-scheduler log by `inflight-scope import`.",
           f"# ASSUMPTIONS ({LISTS['assumptions'][1]}; also in `assumptions:` and the description):"]
    out += ["#  - " + comment(a) for a in assumptions]
    if disagreements:
        out.append(f"# DISAGREEMENTS ({LISTS['disagreements'][1]}; also in the description):")
        out += ["#  - " + comment(d) for d in disagreements]
    out += [f"schema: {_scalar(scenario['schema'])}", f"name: {_scalar(scenario['name'])}"]
    for key in sorted(scenario, key=lambda k: LAYOUT.index(k) if k in LAYOUT else len(LAYOUT)):
        v = scenario[key]
        if key in ("schema", "name", "steps"):
            continue
        if key == "description" and _literal(v):
            out.append("description: |")
            out += ["  " + line if line else "" for line in v.split("\n")[:-1]]
        elif key in ("assumptions", "hints", "pods") and isinstance(v, list) and v:
            out.append(f"{key}:")
            out += [f"  - {_scalar(x)}" for x in v]
        else:
            out.append(f"{_key(key)}: {_scalar(v)}")
    out.append("steps:" + ("" if scenario["steps"] else " []"))
    out += [f"  - {_scalar(s)}" for s in scenario["steps"]]
    return "\n".join(out) + "\n"
