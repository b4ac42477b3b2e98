"""What a valid scenario may not mean as written, for the editor: a pod left where only a flush would move it,
in a scenario whose clock runs no flushes (``periodic_flushes`` off: time passes, nothing flushes)."""

from __future__ import annotations

from .words import named, seconds

LEFT = {"backoffQ": "its backoff ended at t = {due}", "unschedulablePods": "its 5-minute wait ended at t = {due}"}
FLUSHES_OFF = ("{variant} ends at t = {now} with {pods} still where a flush would have moved {them} ({why}): this "
               "scenario runs no periodic flushes, so nothing did. Add `periodic_flushes: true` to run the scheduler's 1 s and "
               "30 s flushes as the clock advances, or flush steps where they would run.")


def flush_advice(variant: str, overdue: dict) -> list[str]:
    """``overdue``: Model.overdue() at the end of the scenario ({now, pods: [{pod, where, due}]})."""
    now, overdue = overdue["now"], overdue["pods"]
    if not overdue:
        return []
    why = "; ".join(f"{o['pod']} in {o['where']}: " + LEFT[o["where"]].format(due=seconds(o["due"])) for o in overdue[:3])
    them = "it" if len(overdue) == 1 else "them"
    return [FLUSHES_OFF.format(variant=variant, now=seconds(now), pods=named([o["pod"] for o in overdue]), them=them,
                               why=why)]
