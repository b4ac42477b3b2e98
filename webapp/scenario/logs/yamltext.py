"""The imported scenario as YAML text, laid out like the built-ins, with its assumptions and disagreements also
as comments at the top."""

import json

from .words import LISTS


def _scalar(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        text = f"{v:.6f}".rstrip("0")
        return text + "0" if text.endswith(".") else text
    if isinstance(v, str):
        return json.dumps(v)  # a JSON string is a YAML double-quoted scalar
    if isinstance(v, list):
        return "[" + ", ".join(_scalar(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_scalar(x)}" for k, x in v.items()) + "}"
    raise TypeError(type(v))


def to_yaml(scenario: dict, assumptions: list, disagreements: list) -> str:
    """The scenario as YAML, laid out like the built-ins, with the assumptions and the disagreements also as
    comments at the top."""
    out = ["# Imported from a kube-scheduler log by `inflight-scope import`.",
           f"# ASSUMPTIONS ({LISTS['assumptions'][1]}; also in `assumptions:` and the description):"]
    out += ["#  - " + a.replace("\n", " ") for a in assumptions]
    if disagreements:
        out.append(f"# DISAGREEMENTS ({LISTS['disagreements'][1]}; also in the description):")
        out += ["#  - " + d.replace("\n", " ") for d in disagreements]
    out += ["schema: 1", f"name: {_scalar(scenario['name'])}", "description: |"]
    out += ["  " + line if line else "" for line in scenario["description"].splitlines()]
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
