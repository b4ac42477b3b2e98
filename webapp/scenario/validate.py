"""Schema validation of a scenario object (scenario-format.md): every static problem, each naming the
step (None for top-level parts) and the field path, and saying what was expected."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any, TypeGuard

from ..model import operations as ops
from ..model.config import FEATURE_GATES
from ..model.events import CATALOGUE, HINTS
from ..model.operations import OPERATIONS
from ..model.versions import VERSIONS
from ..phrases import shown
from .document import MAX_DEPTH, DocumentError, check_depth, step_of
from .errors import Problem
from .schemas import SCHEMAS, expected

Json = Any  # a parsed JSON or YAML value: its shape is what is checked here
Step = int | None  # the step a problem is in


@dataclass(frozen=True)
class Limits:
    max_bytes: int = 2 * 1024 * 1024
    max_steps: int = 200_000
    max_pods: int = 1_000
    max_name_length: int = 253
    max_hints: int = 500
    max_depth: int = MAX_DEPTH  # the one nesting limit (document.py); lower only in tests
    max_problems: int = 50
    # values (scalars, lists, mappings) of a YAML text: composed in Python, about a hundred times slower a value
    # than JSON's parser in C (an 8,000-step generated scenario has about 48,000; docs/benchmarks.md)
    max_yaml_values: int = 50_000


INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
INT64_MAX = 2**63 - 1
# Upper bound for any duration in seconds (~31 years): keeps the nanosecond clock arithmetic finite.
MAX_SECONDS = 1e9

TOP_KEYS = ("schema", "name", "description", "assumptions", "versions", "gate", "hint_map", "periodic_flushes",
            "feature_gates", "hints", "config", "pods", "initial_active", "steps", "branch")
# `branch`: a fork's other branch (the page's "act on the diagram"): the scenario it was forked from is this one's
# steps before `at`, then `steps`, named `name`. It changes nothing this scenario does; the page switches to it.
BRANCH_KEYS = ("at", "name", "steps")
# `assumptions`: what a scenario assumes that its source did not say (the log importer lists them), as text.
MAX_ASSUMPTIONS = 200
MAX_ASSUMPTION_LENGTH = 2000
MAX_VERSIONS = 4  # panes side by side
REQUIRED_TOP = ("schema", "name", "pods", "steps")
CONFIG_SECONDS = ("initial_backoff", "max_backoff", "max_in_unschedulable")
CONFIG_KEYS = (*CONFIG_SECONDS, "pop_clears_unschedulable_plugins", "flush_phase")
LEFTOVER_PERIOD = 30  # seconds: flush_phase is below it
POD_KEYS = ("name", "uid", "priority", "scheduling_gates", "pod_group")
MAX_SCHEDULING_GATES = 32  # a pod's gates: names, all removed at once by `ungate`
HINT_KEYS = ("event", "plugin", "hint")
# op -> (required parameter names, optional parameter names), from the registry; any step may also carry `note`.
STEP_PARAMS = {
    name: (tuple(p.name for p in op.params if p.required), tuple(p.name for p in op.params if not p.required))
    for name, op in OPERATIONS.items()
}


# "Did you mean" suggestions cost up to len(value) * len(choice) per choice compared (difflib's ratio), which
# over a thousand 253-character pod names and fifty misspelled references is seconds of CPU. They are made while
# cheap: for the first few problems, against at most so many choices, within a budget of characters compared
# (len(value) * len(choice), summed over every comparison of one validation).
SUGGESTED_PROBLEMS = 10
SUGGESTION_CANDIDATES = 1_000
SUGGESTION_WORK = 2_000_000  # its cost: bench/validation_cost.py
SUGGESTION_CUTOFF = 0.6  # difflib.get_close_matches' default


class _Full(Exception):
    """Raised once ``max_problems`` problems are collected."""


def validate(raw: object, limits: Limits = Limits()) -> list[Problem]:
    """All problems of ``raw`` as [{step, field, message}]; an empty list means it is valid."""
    checker = _Checker(limits)
    try:
        checker.document(raw)
    except _Full:
        checker.problems.append(
            {"step": None, "field": "document", "message": f"stopped after {limits.max_problems} problems"}
        )
    return checker.problems


def _is_int(v: object) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v: object) -> TypeGuard[int | float]:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


class _Checker:
    def __init__(self, limits: Limits):
        self.limits = limits
        self.problems: list[Problem] = []
        # pod names in order (deterministic suggestions), once `pods` is a list
        self.declared: dict[str, None] | None = None
        self.suggestions_left = SUGGESTED_PROBLEMS
        self.work_left = SUGGESTION_WORK

    def problem(self, step: Step, field: str, message: str, at_key: bool = False) -> None:
        """Records one problem; ``at_key``: it is about the mapping key ``field`` names (a misspelled one), so an
        editor points at the key rather than at its value."""
        if len(self.problems) >= self.limits.max_problems:
            raise _Full
        found: Problem = {"step": step, "field": field, "message": message}
        if at_key:
            found["at"] = "key"
        self.problems.append(found)

    def did_you_mean(self, value: object, choices: Iterable[object]) -> str:
        """`` (did you mean 'x'?)`` for the choice closest to ``value`` (as difflib.get_close_matches, n=1), or
        "" once the suggestions' budget is spent: SUGGESTED_PROBLEMS problems, SUGGESTION_CANDIDATES choices
        each, SUGGESTION_WORK characters compared in all."""
        if not isinstance(value, str) or not value or self.suggestions_left <= 0:
            return ""
        self.suggestions_left -= 1
        matcher: SequenceMatcher[str] = SequenceMatcher()
        best: tuple[float, str] | None = None
        matcher.set_seq2(value)
        for n, choice in enumerate(choices):
            if n >= SUGGESTION_CANDIDATES:
                break
            if not isinstance(choice, str):
                continue
            matcher.set_seq1(choice)
            if matcher.real_quick_ratio() < SUGGESTION_CUTOFF:  # lengths alone rule it out: O(1)
                continue
            cost = len(value) * len(choice)
            if cost > self.work_left:
                break
            self.work_left -= cost
            if matcher.quick_ratio() >= SUGGESTION_CUTOFF and (score := matcher.ratio()) >= SUGGESTION_CUTOFF:
                best = max(best or (score, choice), (score, choice))
        return f" (did you mean {best[1]!r}?)" if best else ""

    def one_of(self, value: object, choices: Collection[str]) -> str:
        return f"{self.did_you_mean(value, choices)}; expected one of {', '.join(choices)}"

    # --- generic value checks ----------------------------------------------------------------
    def keys(self, step: Step, prefix: str, obj: dict[Any, Json], allowed: Collection[str], what: str,
             where: str = "") -> None:
        for key in obj:
            if key not in allowed:
                plain = isinstance(key, str) and key.isidentifier()
                field = prefix + key if plain else f"{prefix.rstrip('.')}[{shown(key)}]"
                self.problem(step, field, f"unknown {what} {shown(key)}{where}{self.one_of(key, allowed)}", at_key=True)

    def name(self, step: Step, field: str, v: Json) -> bool:
        if not isinstance(v, str) or not v:
            self.problem(step, field, f"expected a non-empty string, got {shown(v)}")
        elif len(v) > self.limits.max_name_length:
            self.problem(step, field, f"longer than {self.limits.max_name_length} characters")
        else:
            return True
        return False

    def boolean(self, step: Step, field: str, v: Json) -> None:
        if not isinstance(v, bool):
            self.problem(step, field, f"expected true or false, got {shown(v)}")

    def text(self, step: Step, field: str, v: Json) -> None:
        if not isinstance(v, str):
            self.problem(step, field, f"expected a string, got {shown(v)}")

    def seconds(self, step: Step, field: str, v: Json, allow_zero: bool) -> None:
        # Comparisons reject NaN and infinities, and compare huge ints without float conversion.
        ok = _is_number(v) and (v >= 0 if allow_zero else v > 0) and v <= MAX_SECONDS
        if not ok:
            low = ">= 0" if allow_zero else "> 0"
            self.problem(step, field, f"expected a number of seconds {low} and <= {MAX_SECONDS:g}, got {shown(v)}")

    def choice(self, step: Step, field: str, v: Json, choices: Collection[str], what: str) -> bool:
        if isinstance(v, str) and v in choices:
            return True
        if isinstance(v, str):
            self.problem(step, field, f"unknown {what} {v!r}{self.one_of(v, list(choices))}")
        else:
            self.problem(step, field, f"expected the {what} as a string, one of {', '.join(choices)}; got {shown(v)}")
        return False

    def pod_ref(self, step: Step, field: str, v: Json) -> None:
        if self.name(step, field, v) and self.declared is not None and v not in self.declared:
            self.problem(step, field, f"pod {v!r} is not declared in pods{self.did_you_mean(v, self.declared)}")

    def a_list(self, step: Step, field: str, v: Json, of: str) -> bool:
        if isinstance(v, (list, tuple)):  # a tuple: a Scenario's own steps (scenario.frozen_step), checked again
            return True
        self.problem(step, field, f"expected a list of {of}, got {shown(v)}")
        return False

    def top_list(self, field: str, v: Json, of: str, limit: int) -> bool:
        """A top-level list (hints, pods, steps) of at most ``limit`` items."""
        if not self.a_list(None, field, v, of):
            return False
        if len(v) > limit:
            self.problem(None, field, f"{len(v)} {field}; at most {limit} allowed")
            return False
        return True

    def pod_list(self, step: Step, field: str, v: Json) -> None:
        if self.a_list(step, field, v, "pod names"):
            for j, name in enumerate(v):
                self.pod_ref(step, f"{field}[{j}]", name)

    # --- the document ------------------------------------------------------------------------
    def document(self, raw: Json) -> None:
        try:
            check_depth(raw, "the document", self.limits.max_depth)
        except DocumentError as err:
            self.problem(step_of(err.field), err.field, err.reason)
            return
        if not isinstance(raw, dict):
            self.problem(None, "document", f"expected a mapping (the scenario object), got {shown(raw)}")
            return
        self.keys(None, "", raw, TOP_KEYS, "top-level key")
        for key in REQUIRED_TOP:
            if key not in raw:
                self.problem(None, key, "missing (required)")
        if "schema" in raw and not (_is_int(raw["schema"]) and raw["schema"] in SCHEMAS):
            self.problem(None, "schema", f"expected {expected()}, got {shown(raw['schema'])}")
        if "name" in raw and (not isinstance(raw["name"], str) or not raw["name"].strip()):
            self.problem(None, "name", f"expected a non-empty string, got {shown(raw['name'])}")
        if "description" in raw:
            self.text(None, "description", raw["description"])
        if "assumptions" in raw:
            self.assumptions(raw["assumptions"])
        if "versions" in raw:
            self.versions(raw["versions"])
        for key in ("gate", "hint_map", "periodic_flushes"):
            if key in raw:
                self.boolean(None, key, raw[key])
        if "feature_gates" in raw:
            self.feature_gates(raw["feature_gates"])
        if "hints" in raw:
            self.hints(raw["hints"])
        if "config" in raw:
            self.config(raw["config"])
        if "pods" in raw:
            self.pods(raw["pods"])
        if "initial_active" in raw:
            self.pod_list(None, "initial_active", raw["initial_active"])
        if "steps" in raw:
            self.steps(raw["steps"])
        if "branch" in raw:
            self.branch(raw["branch"], raw.get("steps"))

    def branch(self, branch: Json, steps: Json) -> None:
        """{at: a position of this scenario, name?, steps: valid steps}."""
        like = "{at: 3, name: the original's, steps: [...]}"
        if not isinstance(branch, dict):
            self.problem(None, "branch", f"expected a mapping like {like}, got {shown(branch)}")
            return
        self.keys(None, "branch.", branch, BRANCH_KEYS, "branch key")
        for key in ("at", "steps"):
            if key not in branch:
                self.problem(None, f"branch.{key}", "missing (required)")
        total = len(steps) if isinstance(steps, list) else 0
        if "at" in branch and not (_is_int(branch["at"]) and 0 <= branch["at"] <= total):
            self.problem(None, "branch.at", f"expected an integer from 0 to {total} (a position of this scenario), "
                                            f"got {shown(branch['at'])}")
        if "name" in branch and (not isinstance(branch["name"], str) or not branch["name"].strip()):
            self.problem(None, "branch.name", f"expected a non-empty string, got {shown(branch['name'])}")
        if "steps" in branch and self.top_list("branch.steps", branch["steps"], "steps", self.limits.max_steps):
            for i, step in enumerate(branch["steps"]):
                self.step(i, step, "branch.steps")

    def mappings(self, top: str, items: Json, like: str, limit: int, allowed: Collection[str],
                 what: str) -> list[tuple[str, dict[Any, Json]]] | None:
        """``(field, item)`` for each mapping of a top-level list (others are reported); None if no usable list."""
        if not self.top_list(top, items, f"mappings like {like}", limit):
            return None
        found: list[tuple[str, dict[Any, Json]]] = []
        for i, item in enumerate(items):
            field = f"{top}[{i}]"
            if not isinstance(item, dict):
                self.problem(None, field, f"expected a mapping like {like}, got {shown(item)}")
                continue
            self.keys(None, f"{field}.", item, allowed, what)
            found.append((field, item))
        return found

    def assumptions(self, items: Json) -> None:
        """A list of at most MAX_ASSUMPTIONS strings, each at most MAX_ASSUMPTION_LENGTH characters."""
        if not self.top_list("assumptions", items, "strings", MAX_ASSUMPTIONS):
            return
        for i, item in enumerate(items):
            if not isinstance(item, str):
                self.problem(None, f"assumptions[{i}]", f"expected a string, got {shown(item)}")
            elif len(item) > MAX_ASSUMPTION_LENGTH:
                self.problem(None, f"assumptions[{i}]", f"longer than {MAX_ASSUMPTION_LENGTH} characters")

    def versions(self, versions: Json) -> None:
        """The versions a scenario is shown on by default: 1 to MAX_VERSIONS distinct names of VERSIONS."""
        if not isinstance(versions, list) or not 1 <= len(versions) <= MAX_VERSIONS:
            self.problem(None, "versions", f"expected a list of 1 to {MAX_VERSIONS} versions, got {shown(versions)}")
            return
        for i, v in enumerate(versions):
            self.choice(None, f"versions[{i}]", v, tuple(VERSIONS), "version")
        if len(set(map(str, versions))) != len(versions):
            self.problem(None, "versions", "a version is listed twice")

    def feature_gates(self, gates: Json) -> None:
        """{gate: true|false} for gates of model.config.FEATURE_GATES (a version without the gate refuses it)."""
        if not isinstance(gates, dict):
            self.problem(None, "feature_gates", f"expected a mapping like {{SchedulerPopFromBackoffQ: false}}, got "
                                                f"{shown(gates)}")
            return
        self.keys(None, "feature_gates.", gates, FEATURE_GATES, "feature gate")
        for gate, value in gates.items():
            if gate in FEATURE_GATES:
                self.boolean(None, f"feature_gates.{gate}", value)

    def hints(self, hints: Json) -> None:
        for field, h in self.mappings("hints", hints, "{event, plugin, hint}", self.limits.max_hints, HINT_KEYS,
                                      "hint key") or ():
            for key in HINT_KEYS:
                if key not in h:
                    self.problem(None, f"{field}.{key}", "missing (required)")
            if "event" in h:
                self.choice(None, f"{field}.event", h["event"], CATALOGUE, "event")
            if "plugin" in h:
                self.name(None, f"{field}.plugin", h["plugin"])
            if "hint" in h:
                self.choice(None, f"{field}.hint", h["hint"], tuple(HINTS), "hint")

    def config(self, cfg: Json) -> None:
        if not isinstance(cfg, dict):
            self.problem(None, "config", f"expected a mapping, got {shown(cfg)}")
            return
        self.keys(None, "config.", cfg, CONFIG_KEYS, "config key")
        for key in CONFIG_SECONDS:
            if key in cfg:  # max_backoff 0: no backoff at all on v1.36.2 (#131965)
                self.seconds(None, f"config.{key}", cfg[key], allow_zero=key == "max_backoff")
        if "pop_clears_unschedulable_plugins" in cfg:
            self.boolean(None, "config.pop_clears_unschedulable_plugins", cfg["pop_clears_unschedulable_plugins"])
        if "flush_phase" in cfg:
            phase = cfg["flush_phase"]
            if not (_is_number(phase) and 0 <= phase < LEFTOVER_PERIOD):
                self.problem(None, "config.flush_phase",
                             f"expected seconds >= 0 and < {LEFTOVER_PERIOD}, got {shown(phase)}")
        initial, maximum = cfg.get("initial_backoff", 1), cfg.get("max_backoff", 10)
        if _is_number(initial) and _is_number(maximum) and 0 < maximum < initial:
            field = "config.max_backoff" if "max_backoff" in cfg else "config.initial_backoff"
            self.problem(None, field, f"max_backoff ({shown(maximum)}) must be >= initial_backoff ({shown(initial)})")

    def pods(self, pods: Json) -> None:
        found = self.mappings("pods", pods, "{name: A}", self.limits.max_pods, POD_KEYS, "pod key")
        if found is None:
            return
        self.declared = {}
        for field, pod in found:
            if "name" not in pod:
                self.problem(None, f"{field}.name", "missing (required)")
                continue
            name = pod["name"]
            if not self.name(None, f"{field}.name", name):
                continue
            if name in self.declared:
                self.problem(None, f"{field}.name", f"duplicate pod name {name!r}")
                continue
            self.declared[name] = None
            if "uid" in pod:
                # Pods may share a uid: the in-flight trackers then share its entry, as upstream would.
                self.name(None, f"{field}.uid", pod["uid"])
            if "priority" in pod:
                p = pod["priority"]
                if not (_is_int(p) and INT32_MIN <= p <= INT32_MAX):
                    self.problem(None, f"{field}.priority", f"expected an int32 integer, got {shown(p)}")
            if "scheduling_gates" in pod:
                self.gates(f"{field}.scheduling_gates", pod["scheduling_gates"])
            if "pod_group" in pod:
                self.name(None, f"{field}.pod_group", pod["pod_group"])

    def gates(self, field: str, gates: Json) -> None:
        """A pod's scheduling gates: 1 to MAX_SCHEDULING_GATES distinct names."""
        if not isinstance(gates, list) or not 1 <= len(gates) <= MAX_SCHEDULING_GATES:
            self.problem(None, field, f"expected a list of 1 to {MAX_SCHEDULING_GATES} gate names, got {shown(gates)}")
            return
        for j, gate in enumerate(gates):
            self.name(None, f"{field}[{j}]", gate)
        if len(set(map(str, gates))) != len(gates):
            self.problem(None, field, "a gate is listed twice")

    def steps(self, steps: Json) -> None:
        if not self.top_list("steps", steps, "steps", self.limits.max_steps):
            return
        for i, step in enumerate(steps):
            self.step(i, step)

    def step(self, i: int, step: Json, where: str = "steps") -> None:
        """steps[i]; or ``where``[i], another list of steps (a branch's), whose problems name no step index."""
        field, n = f"{where}[{i}]", i if where == "steps" else None
        if not isinstance(step, dict):
            self.problem(n, field, f"expected a mapping like {{op: pop}}, got {shown(step)}")
            return
        if "op" not in step:
            self.problem(n, f"{field}.op", f"missing{self.one_of(None, list(OPERATIONS))}")
            return
        op = step["op"]
        if not self.choice(n, f"{field}.op", op, OPERATIONS, "op"):
            return
        required, optional = STEP_PARAMS[op]
        self.keys(n, f"{field}.", step, ("op", *required, *optional, "note"), "parameter", f" for op {op!r}")
        for name in required:
            if name not in step:
                self.problem(n, f"{field}.{name}", f"missing; op {op!r} requires {name!r}")
        for param in OPERATIONS[op].params:  # required ones first
            if param.name in step:
                TYPE_CHECKS[param.type](self, n, f"{field}.{param.name}", step[param.name], param)
        if "note" in step:
            self.text(n, f"{field}.note", step["note"])


def _plugins(c: _Checker, step: Step, field: str, v: Json) -> None:
    if c.a_list(step, field, v, "plugin names"):
        for j, plugin in enumerate(v):
            c.name(step, f"{field}[{j}]", plugin)


def _cycle(c: _Checker, step: Step, field: str, v: Json) -> None:
    if not (_is_int(v) and 0 <= v <= INT64_MAX):
        c.problem(step, field, f"expected a non-negative integer (a scheduling cycle), got {shown(v)}")


def _choice(c: _Checker, step: Step, field: str, v: Json, param: ops.Param) -> None:
    c.choice(step, field, v, param.choices, param.name)


# Parameter type (operations.TYPES) -> how a value of it is checked: (checker, step, field, value, Param).
TYPE_CHECKS: dict[str, Callable[[_Checker, Step, str, Json, ops.Param], None]] = {
    ops.POD: lambda c, step, field, v, _: c.pod_ref(step, field, v),
    ops.PODS: lambda c, step, field, v, _: c.pod_list(step, field, v),
    ops.EVENT: _choice,
    ops.ENUM: _choice,
    # Zero is accepted: the conformance cases advance the clock by 0.0.
    ops.SECONDS: lambda c, step, field, v, _: c.seconds(step, field, v, allow_zero=True),
    ops.BOOL: lambda c, step, field, v, _: c.boolean(step, field, v),
    ops.PLUGINS: lambda c, step, field, v, _: _plugins(c, step, field, v),
    ops.CYCLE: lambda c, step, field, v, _: _cycle(c, step, field, v),
}
