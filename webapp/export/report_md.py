"""The incident report as Markdown, for postmortem documents (``inflight-scope import LOG --report FILE.md``): the
facts of presenter/report.py laid out; every sentence is theirs. Every text is written as text: the names in it
(pods', files', the scenario's: the log's words) start no Markdown or HTML, and stay on their line."""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import quote

from ..presenter.report import Report
from ..scenario.logs.lines import printable

HEADINGS = {"lost": "Time lost against {fix}", "fix": "The fix", "frames": "Before and after",
            "disagree": "Log lines that disagree", "agree": "Log lines that agree",
            "assumed": "What the importer assumed", "how": "How sure"}

# What starts Markdown or HTML inside a line (CommonMark's backslash escapes these; "_" only where it can open or
# close emphasis, not inside a word), and at its start a block (heading, quote, list item, thematic break).
_INLINE = re.compile(r"[\\`*\[\]<>&~]|(?<![^\W_])_|_(?![^\W_])")
_BLOCK = re.compile(r"^(?:([#>+=-])|(\d+)([.)]))")


def text(s: str) -> str:
    """``s`` as Markdown text that renders as ``s`` (its backticks too), on one line."""
    out = _INLINE.sub(r"\\\g<0>", printable(s.replace("\r\n", " ").replace("\n", " ")))
    return _BLOCK.sub(lambda m: f"\\{m[1]}" if m[1] else f"{m[2]}\\{m[3]}", out)


def code(s: str) -> str:
    """``s`` as a code span: fenced by more backticks than any run in it, on one line."""
    s = printable(s.replace("\n", " "))
    fence = "`" * (max((len(run) for run in re.findall("`+", s)), default=0) + 1)
    pad = " " if s[:1] == "`" or s[-1:] == "`" or (s[:1] == " " and s[-1:] == " ") else ""
    return f"{fence}{pad}{s}{pad}{fence}"


def markdown(facts: Report, images: Sequence[str] = ()) -> str:
    """``images``: the file names of the before/after SVGs, in the order of ``facts["frames"]``."""
    out = [f"# {text(facts['title'])}", "", f"**Verdict:** {text(facts['verdict'])}", ""]
    if facts["sure"]:
        out += [f"## {HEADINGS['how']}", "", *(f"- {text(s)}" for s in facts["sure"]), ""]
    out += [f"## {text(HEADINGS['lost'].format(fix=facts['fix']['version']))}", ""]
    for pod in facts["pods"]:
        out.append(f"- **{text(pod['text'])}** (its failure at step {pod['step']}; the versions part at step "
                   f"{pod['position']})")
        out += [f"  - {text('; '.join(filter(None, (why['caption'], why['outcome']))))}" for why in pod["why"]]
    if facts["more_losses"]:
        out.append(f"- ... and {facts['more_losses']:,} more")
    if not facts["pods"]:
        out.append(f"- {text(facts['no_loss'])}")
    out += ["", f"## {HEADINGS['fix']}", "", text(facts["fix"]["text"]), ""]
    if facts["frames"] and images:
        out += [f"## {HEADINGS['frames']}", ""]
        out += [f"![{text(title)}]({quote(name)})" for title, name in zip(facts["frame_titles"], images)] + [""]
    if facts["disagree"]:
        out += [f"## {HEADINGS['disagree']}", ""]
        out += [f"- {code(d['line'])}: {text(d['says'])}; " + "; ".join(f"on {text(v)} the model: {text(did)}"
                                                                      for v, did in d.get("did", {}).items())
                for d in facts["disagree"]] + [""]
    if facts["agree"]:
        out += [f"## {HEADINGS['agree']}", ""]
        out += [f"- {code(a['line'])}: {text(a['says'])} ({text(', '.join(a['versions']))})"
                for a in facts["agree"]] + [""]
    if facts["assumptions"]:
        out += [f"## {HEADINGS['assumed']}", "", *(f"- {text(a)}" for a in facts["assumptions"]), ""]
    return "\n".join(out)
