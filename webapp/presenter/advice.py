"""What a valid scenario may not mean as written, for the editor: pods left where only a flush would move them,
in a scenario whose clock runs no flushes (``periodic_flushes`` off: time passes, nothing flushes)."""

from __future__ import annotations

from .words import named, seconds

LEFT = {"backoffQ": "backoffQ (its backoff ended at t = {due})",
        "unschedulablePods": "unschedulablePods (its wait of {limit} at most ended at t = {due})"}
ENDS = "{variant} ends at t = {now} with {pods}."
REMEDY = ("Nothing moved {them}: this scenario runs no periodic flushes. Add “periodic_flushes: true” to run the "
          "scheduler's 1 s and 30 s flushes as the clock advances, or flush steps where they would run.")


def flush_advice(overdue: dict) -> list[str]:
    """``overdue``: variant -> Model.overdue() at the end of the scenario ({now, limit, pods: [{pod, where, due}]}).
    A line per version that left pods where a flush would have moved them, then what to do; none if none did."""
    lines = []
    for variant, end in overdue.items():
        if end["pods"]:
            pods = [f"{o['pod']} still in " + LEFT[o["where"]].format(due=seconds(o["due"]), limit=seconds(end["limit"]))
                    for o in end["pods"]]
            lines.append(ENDS.format(variant=variant, now=seconds(end["now"]), pods=named(pods)))
    pods = {o["pod"] for end in overdue.values() for o in end["pods"]}
    return [*lines, REMEDY.format(them="it" if len(pods) == 1 else "them")] if lines else []
