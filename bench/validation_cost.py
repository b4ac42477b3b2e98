"""What validating a scenario costs, for ordinary and adversarial scenarios within the limits.

The "did you mean" suggestions compare a misspelled value with every choice (difflib: up to len * len
character comparisons each). Adversarial scenarios, each under 300 kB: a thousand long, similar pod names and
fifty-odd misspelled references to them (in `expect`, in pod lists), and long misspelled keys and ops; and a 1.8 MB
one whose steps are 600,000 numbers (its one problem located in the text: locate.py walks at most MAX_EVENTS).
"before" is the old rule (difflib.get_close_matches over every choice, for every problem), run in the same
process by swapping the suggestion method; "after" is the bounded one (validate.py: SUGGESTED_PROBLEMS,
SUGGESTION_CANDIDATES, SUGGESTION_WORK). Both are reported as the median CPU ms of validate() and of the
whole /api/validate answer (parse, validate, locate), against a normal scenario's in the same run.
    python bench/validation_cost.py [--runs 5] [--before-runs 1]
"""

from __future__ import annotations

import argparse
import difflib
import json
import random
import time

from common import median

from webapp.scenario import builtin
from webapp.scenario import validate as validation
from webapp.scenario.generate import generate
from webapp.web.editor import _checked_text

ALPHABET = "abcdefghij"


def similar_names(rng, count: int, length: int) -> list[str]:
    base = "".join(rng.choice(ALPHABET) for _ in range(length))
    names = []
    for i in range(count):
        chars = list(base)
        for _ in range(8):
            chars[rng.randrange(length)] = rng.choice(ALPHABET)
        names.append("".join(chars)[: length - 4] + f"{i:04d}")
    return names


def misspelled(rng, name: str) -> str:
    chars = list(name)
    chars[rng.randrange(len(chars))] = "-"
    return "".join(chars)


def long_names_expect(seed=1) -> dict:
    """1,000 pods of 253 characters; 60 pops expecting a misspelled one."""
    rng = random.Random(seed)
    names = similar_names(rng, 1000, 253)
    steps = [{"op": "pop", "expect": misspelled(rng, rng.choice(names))} for _ in range(60)]
    return {"schema": 1, "name": "long names", "pods": [{"name": n} for n in names], "steps": steps}


def long_names_lists(seed=2) -> dict:
    """900 pods of 253 characters; initial_active and move lists full of misspelled ones."""
    rng = random.Random(seed)
    names = similar_names(rng, 900, 253)
    wrong = [misspelled(rng, rng.choice(names)) for _ in range(80)]
    return {"schema": 1, "name": "long lists", "pods": [{"name": n} for n in names],
            "initial_active": wrong[:40], "steps": [{"op": "activate", "pods": wrong[40:]}]}


def long_keys_and_ops(seed=3) -> dict:
    """Misspelled ops, events and keys of 250 characters, 300 steps."""
    rng = random.Random(seed)
    noise = lambda: "".join(rng.choice(ALPHABET) for _ in range(250))  # noqa: E731
    steps = [{"op": "pop" + noise(), noise(): 1, "event": "PvAdd" + noise()} for _ in range(300)]
    return {"schema": 1, "name": "long keys", "pods": [{"name": "A"}], "steps": steps}


def numbers() -> dict:
    """Steps that are 600,000 numbers (1.8 MB): one problem, whose place is looked up in the text."""
    return {"schema": 1, "name": "numbers", "pods": [{"name": "A"}], "steps": [1] * 600_000}


def normal(steps=2000) -> dict:
    return generate(random.Random(1).choice, steps, pods=12)


def ordinary_typos() -> dict:
    """A normal scenario with a few ordinary typos (the suggestions must still appear)."""
    raw = builtin.get("lost-marker")
    raw["steps"][0]["op"] = "popp"
    with_pod = next(step for step in raw["steps"] if "pod" in step)
    with_pod["pod"] += "x"
    return raw


def unbounded(self, value, choices) -> str:
    """The rule before: difflib.get_close_matches against every choice, for every problem."""
    close = difflib.get_close_matches(value, list(choices), n=1) if isinstance(value, str) and value else []
    return f" (did you mean {close[0]!r}?)" if close else ""


def cpu_ms(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.process_time()
        fn()
        times.append((time.process_time() - t) * 1000)
    return median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--before-runs", type=int, default=1, help="runs of the old rule (seconds each)")
    args = ap.parse_args()
    cases = {"normal (generated, 2,000 steps)": normal(), "lost-marker with 2 typos": ordinary_typos(),
             "1,000 long names, 60 misspelled expects": long_names_expect(),
             "900 long names, 80 misspelled in lists": long_names_lists(),
             "300 long misspelled ops, keys, events": long_keys_and_ops(),
             "600,000 numbers as steps": numbers()}
    bounded = validation._Checker.did_you_mean
    rows = []
    for name, raw in cases.items():
        text = json.dumps(raw)
        row = [name, f"{len(text) / 1000:.0f} kB"]
        for rule, runs in ((unbounded, args.before_runs), (bounded, args.runs)):
            validation._Checker.did_you_mean = rule
            try:
                row.append(cpu_ms(lambda raw=raw: validation.validate(raw), runs))
                row.append(cpu_ms(lambda text=text: _checked_text(text, "json"), runs))
            finally:
                validation._Checker.did_you_mean = bounded
        rows.append(row)
    base = rows[0][4]
    print(f"validate() and /api/validate's answer, median CPU ms (before: {args.before_runs} run(s), "
          f"after: {args.runs}); x = after / the normal scenario's validate()")
    print("| scenario | size | validate before | /api/validate before | validate after | /api/validate after | x |")
    print("|---|---|---|---|---|---|---|")
    for name, size, vb, ab, va, aa in rows:
        print(f"| {name} | {size} | {vb:,.1f} | {ab:,.1f} | {va:,.1f} | {aa:,.1f} | {va / base:.2f} |")
    problems = validation.validate(cases["lost-marker with 2 typos"])
    print("ordinary typos:", "; ".join(p["message"] for p in problems))


if __name__ == "__main__":
    main()
