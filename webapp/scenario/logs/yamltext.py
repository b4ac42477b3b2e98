"""The imported scenario as YAML text, laid out like the built-ins, with its assumptions and disagreements also
as comments at the top. Every text is written so that loading the YAML gives it back exactly: strings as JSON
strings (a JSON string is a YAML double-quoted scalar, every character outside ASCII escaped), a comment with
every character that is not printable (each Unicode line break among them: \\r, \\v, \\f, \\x1c-\\x1e, U+0085,
U+2028, U+2029) escaped, and the description as a literal block only when it reads back as it is."""

import json
import re

from .words import LISTS

_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _escaped(c: str) -> str:
    n = ord(c)
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}" if n < 0x10000 else f"\\U{n:08x}"


def comment(text: str) -> str:
    """``text`` on one comment line: a newline as a space, every other character that is not printable escaped
    (``\\u2028``), so that nothing of it is read as YAML."""
    return "".join(c if c.isprintable() else " " if c == "\n" else _escaped(c) for c in text)


def _scalar(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        text = f"{v:.6f}".rstrip("0")
        return text + "0" if text.endswith(".") else text
    if isinstance(v, str):
        return json.dumps(v)  # ensure_ascii: every line break and control character escaped
    if isinstance(v, list):
        return "[" + ", ".join(_scalar(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_key(k)}: {_scalar(x)}" for k, x in v.items()) + "}"
    raise TypeError(type(v))


def _key(k) -> str:
    return k if isinstance(k, str) and _PLAIN_KEY.fullmatch(k) and k not in ("true", "false", "null") else \
        _scalar(k)


def _literal(text: str) -> bool:
    """Whether ``text`` reads back as it is from a literal block (``|``, clipped): printable lines, the first
    starting with neither a space nor nothing, one newline at its end."""
    lines = text.split("\n")
    return (len(lines) >= 2 and lines[-1] == "" and lines[-2] != "" and lines[0][:1] not in ("", " ")
            and all(line.isprintable() for line in lines))


def to_yaml(scenario: dict, assumptions: list, disagreements: list) -> str:
    """The scenario as YAML, laid out like the built-ins, with the assumptions and the disagreements also as
    comments at the top."""
    out = ["# Imported from a kube-scheduler log by `inflight-scope import`.",
           f"# ASSUMPTIONS ({LISTS['assumptions'][1]}; also in `assumptions:` and the description):"]
    out += ["#  - " + comment(a) for a in assumptions]
    if disagreements:
        out.append(f"# DISAGREEMENTS ({LISTS['disagreements'][1]}; also in the description):")
        out += ["#  - " + comment(d) for d in disagreements]
    out += ["schema: 1", f"name: {_scalar(scenario['name'])}"]
    description = scenario["description"]
    if _literal(description):
        out.append("description: |")
        out += ["  " + line if line else "" for line in description.split("\n")[:-1]]
    else:
        out.append(f"description: {_scalar(description)}")
    out.append("assumptions:")
    out += [f"  - {_scalar(a)}" for a in assumptions]
    out.append(f"periodic_flushes: {_scalar(scenario['periodic_flushes'])}")
    out += [f"{key}: {_scalar(scenario[key])}" for key in ("gate", "versions") if key in scenario]
    out.append("hints:" + ("" if scenario["hints"] else " []"))
    out += [f"  - {_scalar(h)}" for h in scenario["hints"]]
    out.append(f"config: {_scalar(scenario['config'])}")
    out.append("pods:")
    out += [f"  - {_scalar(p)}" for p in scenario["pods"]]
    out.append("steps:")
    out += [f"  - {_scalar(s)}" for s in scenario["steps"]]
    return "\n".join(out) + "\n"
