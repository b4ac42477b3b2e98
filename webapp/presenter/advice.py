"""What a valid scenario may not mean as written, for the editor: pods left where only a flush would move them,
in a scenario whose clock runs no flushes (``periodic_flushes`` off: time passes, nothing flushes); a plugin name
that looks like a misspelt catalogue plugin (a placeholder no hint names registers no event)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from difflib import get_close_matches
from typing import Any

from ..model.plugins import PLUGINS
from ..model.variant import Overdue
from .words import named, seconds

LEFT = {"backoffQ": "backoffQ (its backoff ended at t = {due})",
        "unschedulablePods": "unschedulablePods (its wait of {limit} at most ended at t = {due})"}
ENDS = "{variant} ends at t = {now} with {pods}."
REMEDY = ("Nothing moved {them}: this scenario runs no periodic flushes. Add “periodic_flushes: true” to run the "
          "scheduler's 1 s and 30 s flushes as the clock advances, or flush steps where they would run.")
OLD_SCHEMA = ("Nothing moved {them}: this scenario runs no periodic flushes, because it leaves “periodic_flushes” out "
              "and schema 1 reads that as false. Write “schema: 2” (time runs as in a cluster) or "
              "“periodic_flushes: true”, or flush steps where they would run.")


def flush_advice(overdue: Mapping[str, Overdue], old_schema: bool = False) -> list[str]:
    """``overdue``: variant -> Model.overdue() at the end of the scenario ({now, limit, pods: [{pod, where, due}]}).
    A line per version that left pods where a flush would have moved them, then what to do (``old_schema``: the
    flushes are off by schema 1's default, not stated); none if none did."""
    lines = []
    for variant, end in overdue.items():
        if end["pods"]:
            pods = [f"{o['pod']} still in "
                    + LEFT[o["where"]].format(due=seconds(o["due"]), limit=seconds(end["limit"]))
                    for o in end["pods"]]
            lines.append(ENDS.format(variant=variant, now=seconds(end["now"]), pods=named(pods)))
    left = {o["pod"] for end in overdue.values() for o in end["pods"]}
    remedy = OLD_SCHEMA if old_schema else REMEDY
    return [*lines, remedy.format(them="it" if len(left) == 1 else "them")] if lines else []


MISSPELT = ("{where} names plugin “{name}”, which is not one of the in-tree plugins this tool knows, and no hint names "
            "it: no event wakes a pod it rejects. Did you mean “{like}”?")
MOST_PLUGIN_ADVICE = 5  # lines; the names looked at are as many (each compared with the catalogue's few names)
_PLUGIN_LISTS = ("unschedulable_plugins", "pending_plugins")
_FOLDED = {name.lower(): name for name in PLUGINS}  # case is no clue: nodeaffinity is NodeAffinity misspelt


def _plugins_named(steps: Iterable[Mapping[str, Any]], prefix: str) -> Iterator[tuple[str, str]]:
    """(where, name) for each plugin name a step's plugin lists give, in order."""
    for i, step in enumerate(steps):
        for key in _PLUGIN_LISTS:
            for name in step.get(key) or ():
                yield f"{prefix}[{i}].{key}", name


def plugin_advice(raw: Mapping[str, Any]) -> list[str]:
    """A line for each plugin a valid scenario's steps name that is not in the catalogue, has no hint, and is close
    to a catalogue name (``NodeResourceFit``): taken as a placeholder, it silently registers no event."""
    hinted = {h["plugin"] for h in raw.get("hints") or ()}
    named_in = [*_plugins_named(raw["steps"], "steps"), *_plugins_named((raw.get("branch") or {}).get("steps") or (),
                                                                        "branch.steps")]
    lines: list[str] = []
    seen: set[str] = set()
    for where, name in named_in:
        if name in PLUGINS or name in hinted or name in seen:
            continue
        seen.add(name)
        if len(seen) > MOST_PLUGIN_ADVICE:
            break
        like = get_close_matches(name.lower(), _FOLDED, n=1, cutoff=0.8)
        if like:
            lines.append(MISSPELT.format(where=where, name=name, like=_FOLDED[like[0]]))
    return lines


def advised(raw: Mapping[str, Any], overdue: Mapping[str, Overdue], flushes_by_default: bool) -> list[str]:
    """All that is advised on a scenario that runs (the editor's Validate, ``replay``'s warnings): plugin names that
    look misspelt, then the pods ``overdue`` (engine.trace.dry_runs) leaves where only a flush would move them.
    ``flushes_by_default``: the ``periodic_flushes`` default of the document's schema (scenario.schemas.defaults);
    a document that leaves the field out under a schema whose default is off is told so."""
    old_schema = not flushes_by_default and "periodic_flushes" not in raw
    return [*plugin_advice(raw), *flush_advice(overdue, old_schema)]
