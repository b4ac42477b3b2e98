"""The incident report's facts, built once from the engine's runs (``engine.verdicts.incident_runs``, read as
plain data) and, for an import, the importer's evidence: the headline verdict and how sure it is (the log lines
that agree and disagree with each version's replay), per pod the time it lost against the fixed version and why,
in the scene's own words (the pane's caption at its failure, the outcomes line), the fix and the releases that
carry it (the versions table), the positions of the before/after frames, and the importer's assumptions. The
renderers (export/report_md.py, templates/report.html, the offline file) only lay it out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NotRequired, TypedDict

from ..model.versions import VERSIONS
from ..phrases import counted, joined
from .scene import present
from .words import seconds, step_number

Runs = Mapping[str, Any]  # engine.verdicts.Runs, read as plain data (the presenter knows no engine)
MAX_LOSSES = 50  # time lost listed, the most first (``more_losses`` counts the rest)
Evidence = Mapping[str, Any]  # scenario.logs.compare.Evidence: {line, at, pod, says, agree, disagree}

# The report's own sentences, stated once (the Markdown, the page and the offline file read them from here).
WORDS = {
    "title": "Incident report: {name}",
    "no-log": "No log: the versions part at step {step}, as the model replays the scenario.",
    "same": "The versions do not part in this scenario: no pod lost time against {fix}.",
    "unmeasured": "No pod failed and got back to activeQ on {fix} by the end, so no time lost is measured; the "
                  "versions part at step {step}.",
    "untold": "The log does not tell the versions apart: every replay agrees with the same lines.",
    "told": "{versions} {behave} as the cluster did: {its} replay agrees with every line that tells the versions "
            "apart ({lines} of the log).",
    "unmade": "No replay makes {lines}: there the log and the model differ, not the versions.",
    "replayed": "On the model's replays, {loss}.",
    "rule": "The verdict names the versions whose replay agrees with every line of the log that tells the versions "
            "apart: a line some replays agree with and others do not. A line no replay agrees with tells them "
            "nothing; it is listed with the lines that disagree.",
    "sure": "{count} of the log's lines were checked against each replay (its queue moves and attempts).",
    "tally": "{version}: agrees with {agree}, disagrees with {disagree}.",
    "lost": "{pod} lost {seconds} on {version} against {fix}",
    "not-back": "not back in activeQ by the end (t = {end})",
    "carried": "{fix} ({upstream}): {summary} Carried by {releases}.",
    "no-frames": "The versions never part: no frames to compare.",
    "before": "Before step {step} ({label})",
    "after": "After step {step} ({label}): where the versions part",
}


class Line(TypedDict):
    line: str
    says: str
    versions: list[str]  # the versions it agrees (or disagrees) with
    did: NotRequired[dict[str, str]]  # version -> what its model did instead (disagreeing lines)


class Why(TypedDict):
    version: str
    caption: str  # the pane's caption at the pod's failure: how its walk went
    outcome: str  # the outcomes line of that version, at the end


class PodLoss(TypedDict):
    pod: str
    version: str
    seconds: float
    text: str
    step: int  # the step (as people count them) of the failure it lost time after
    position: int  # the position where the versions first part for this pod: the incident
    why: list[Why]


class Fix(TypedDict):
    version: str
    upstream: str
    summary: str
    releases: list[str]
    text: str


class Report(TypedDict):
    title: str
    verdict: str
    sure: list[str]
    agree: list[Line]
    disagree: list[Line]
    pods: list[PodLoss]
    more_losses: int  # losses not listed (over MAX_LOSSES)
    fix: Fix
    no_loss: str  # said in place of the pods when none lost time
    incident: int | None  # the position the viewer opens on: where the versions part for the pod that lost most
    frames: list[int]  # the before/after positions the SVGs show
    frame_titles: list[str]  # what each of them shows
    assumptions: list[str]
    versions: list[str]


def fixed_version(versions: Sequence[str]) -> str:
    """The version the others are measured against: the first with the fix (pod entries), else the last."""
    return next((v for v in versions if VERSIONS[v].rules.pod_entries), versions[-1])


def report(name: str, runs: Runs, assumptions: Sequence[str] = (), evidence: Sequence[Evidence] | None = None,
           verdict: str | None = None) -> Report:
    """``runs``: incident_runs' plain data; ``evidence``, ``verdict``: the importer's (Imported.evidence and
    Counts.verdict(), when it has one), None for a scenario with no log."""
    versions = list(runs["versions"])
    fix = fixed_version(versions)
    frames = runs["frames"]
    end = present(frames[runs["total"]])
    losses = sorted(_losses(runs, fix, end), key=lambda p: -p["seconds"])
    pods = losses[:MAX_LOSSES]
    parted = runs["parted"]
    incident = pods[0]["position"] if pods else min(parted.values(), default=None)
    agree, disagree = _lines(evidence or [])
    return {
        "title": WORDS["title"].format(name=name),
        "verdict": _headline(verdict, evidence, versions, pods[0]["text"] if pods else None, incident, fix),
        "sure": _sure(evidence, versions) if evidence is not None else [],
        "agree": agree,
        "disagree": disagree,
        "pods": pods,
        "more_losses": len(losses) - len(pods),
        "fix": _fix(fix),
        "no_loss": WORDS["same"].format(fix=fix) if incident is None else WORDS["unmeasured"].format(
            fix=fix, step=incident),
        "incident": incident,
        "frames": [] if incident is None else [incident - 1, incident],
        "frame_titles": [] if incident is None else _frame_titles(runs, incident),
        "assumptions": list(assumptions),
        "versions": versions,
    }


def _frame_titles(runs: Runs, incident: int) -> list[str]:
    """The before/after frames by what they show: the state before and after the step where the versions part."""
    frame = runs["frames"].get(incident)  # the engine gives the first MAX_FRAMES
    step = present(frame)["step"] if frame else None
    said = {"step": incident, "label": step["label"] if step else "the first that parts them"}
    return [WORDS["before"].format(**said), WORDS["after"].format(**said)]


def _headline(verdict: str | None, evidence: Sequence[Evidence] | None, versions: list[str], loss: str | None,
              incident: int | None, fix: str) -> str:
    """WORDS["rule"]: the versions that agree with every line that parts them; ``loss``: the body's first."""
    if verdict:
        return verdict + "."
    if evidence is not None:
        parting = [e for e in evidence if e["agree"] and e["disagree"]]
        told = [v for v in versions if not any(v in e["disagree"] for e in parting)]
        if parting and told:
            one = len(told) == 1
            unmade = [e["line"] for e in evidence if not e["agree"]]
            return WORDS["told"].format(versions=joined(told), behave="behaves" if one else "behave",
                                        its="its" if one else "each", lines=counted(len(parting), "line")) + (
                " " + WORDS["unmade"].format(lines=joined(unmade)) if unmade else "")
        return WORDS["untold"] + " " + (WORDS["same"].format(fix=fix) if incident is None else
                                        WORDS["replayed"].format(loss=loss) if loss else "").rstrip()
    if incident is None:
        return WORDS["same"].format(fix=fix)
    return WORDS["no-log"].format(step=incident)


def _sure(evidence: Sequence[Evidence], versions: list[str]) -> list[str]:
    out = [WORDS["sure"].format(count=len(evidence))]
    for v in versions:
        wrong = [e["line"] for e in evidence if v in e["disagree"]]
        out.append(WORDS["tally"].format(version=v, agree=len(evidence) - len(wrong),
                                         disagree=f"{len(wrong)}" + (f" ({', '.join(wrong)})" if wrong else "")))
    out.append(WORDS["rule"])
    return out


def _lines(evidence: Sequence[Evidence]) -> tuple[list[Line], list[Line]]:
    agree: list[Line] = [{"line": e["line"], "says": e["says"], "versions": list(e["agree"])}
                         for e in evidence if e["agree"]]
    disagree: list[Line] = [{"line": e["line"], "says": e["says"], "versions": list(e["disagree"]),
                             "did": dict(e["disagree"])} for e in evidence if e["disagree"]]
    return agree, disagree


def _losses(runs: Runs, fix: str, end: Mapping[str, Any]) -> list[PodLoss]:
    """Per pod and failure, the time it lost on each other version against ``fix``: how much later it was back in
    activeQ (or the end of the run, if it never was)."""
    out: list[PodLoss] = []
    outcome = {(p["pod"], part["variant"]): part["text"] for p in end["outcomes"]["pods"] for part in p["parts"]}
    for pod, position in runs["parted"].items():
        fixed = {r["failed_step"]: r for r in runs["returns"][fix].get(pod, [])}
        for version in runs["versions"]:
            if version == fix:
                continue
            for r in runs["returns"][version].get(pod, []):
                base = fixed.get(r["failed_step"])
                if base is None or "seconds" not in base:
                    continue
                took = r.get("seconds", runs["end"][version] - r["failed_at"])
                if round(took - base["seconds"], 2) <= 0:  # no loss at the precision the report states
                    continue
                frame = runs["frames"].get(r["failed_step"] + 1)  # the engine gives the first MAX_FRAMES
                scene = present(frame) if frame else None
                lost = seconds(took - base["seconds"])
                text = WORDS["lost"].format(pod=pod, seconds=lost, version=version, fix=fix)
                if "seconds" not in r:
                    text += f" ({WORDS['not-back'].format(end=seconds(runs['end'][version]))})"
                out.append({"pod": pod, "version": version, "seconds": took - base["seconds"], "text": text,
                            "step": step_number(r["failed_step"]), "position": position,
                            "why": [{"version": v, "caption": scene["panes"][v]["caption"] if scene else "",
                                     "outcome": outcome.get((pod, v), "")} for v in (version, fix)]})
    return out


def _fix(version: str) -> Fix:
    """The fix and the releases that carry it: every version that keeps the rule the fixed version changed."""
    v = VERSIONS[version]
    releases = [o.releases for o in VERSIONS.values() if o.rules.pod_entries == v.rules.pod_entries]
    return {"version": v.name, "upstream": v.upstream, "summary": v.summary, "releases": releases,
            "text": WORDS["carried"].format(fix=v.name, upstream=v.upstream, summary=v.summary,
                                            releases=joined(releases))}
