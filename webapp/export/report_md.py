"""The incident report as Markdown, for postmortem documents (``inflight-scope import LOG --report FILE.md``): the
facts of presenter/report.py laid out; every sentence is theirs."""

from __future__ import annotations

from collections.abc import Sequence

from ..presenter.report import Report

HEADINGS = {"lost": "Time lost against {fix}", "fix": "The fix", "frames": "Before and after",
            "disagree": "Log lines that disagree", "agree": "Log lines that agree",
            "assumed": "What the importer assumed", "how": "How sure"}


def markdown(facts: Report, images: Sequence[str] = ()) -> str:
    """``images``: the file names of the before/after SVGs, in the order of ``facts["frames"]``."""
    out = [f"# {facts['title']}", "", f"**Verdict:** {facts['verdict']}", ""]
    if facts["sure"]:
        out += [f"## {HEADINGS['how']}", "", *(f"- {s}" for s in facts["sure"]), ""]
    out += [f"## {HEADINGS['lost'].format(fix=facts['fix']['version'])}", ""]
    for pod in facts["pods"]:
        out.append(f"- **{pod['text']}** (its failure at step {pod['step']}; the versions part at step "
                   f"{pod['position']})")
        out += [f"  - {'; '.join(filter(None, (why['caption'], why['outcome'])))}" for why in pod["why"]]
    if facts["more_losses"]:
        out.append(f"- ... and {facts['more_losses']:,} more")
    if not facts["pods"]:
        out.append(f"- {facts['no_loss']}")
    out += ["", f"## {HEADINGS['fix']}", "", facts["fix"]["text"], ""]
    if facts["frames"] and images:
        out += [f"## {HEADINGS['frames']}", ""]
        out += [f"![Position {p}]({name})" for p, name in zip(facts["frames"], images)] + [""]
    if facts["disagree"]:
        out += [f"## {HEADINGS['disagree']}", ""]
        out += [f"- `{d['line']}`: {d['says']}; " + "; ".join(f"on {v} the model: {did}"
                                                             for v, did in d.get("did", {}).items())
                for d in facts["disagree"]] + [""]
    if facts["agree"]:
        out += [f"## {HEADINGS['agree']}", ""]
        out += [f"- `{a['line']}`: {a['says']} ({', '.join(a['versions'])})" for a in facts["agree"]] + [""]
    if facts["assumptions"]:
        out += [f"## {HEADINGS['assumed']}", "", *(f"- {a}" for a in facts["assumptions"]), ""]
    return "\n".join(out)
