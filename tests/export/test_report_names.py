"""The Markdown incident report (export/report_md.py) with hostile names in it: each text reads back as it is
(CommonMark's backslash escapes and code spans undone), starts no Markdown or HTML and stays on its line."""

import io
import re
import string

import pytest

from tests.scenario.test_hostile_names import HOSTILE
from webapp.export.incident import imported_report
from webapp.export.report_md import code, markdown, text
from webapp.scenario.logs import import_logs
from webapp.scenario.logs.lines import printable

from .incident_logs import klog

PUNCTUATION = set(string.punctuation)
TEXTS = (*HOSTILE, "<script>alert(1)</script>", "<!-- x", "&lt;", "**bold** _em_ ~~gone~~", "![i](x.png)",
         "1. one", "2) two", "# heading", "> quote", "+ item", "= under", "a | b", "a\\", "``", "` x `", "a `b` c")


def read(md: str) -> str:
    """What CommonMark shows of an inline text: backslash escapes and code spans undone."""
    out, i = [], 0
    while i < len(md):
        c = md[i]
        if c == "\\" and i + 1 < len(md) and md[i + 1] in PUNCTUATION:
            out.append(md[i + 1])
            i += 2
        elif c == "`":
            run = re.match("`+", md[i:])[0]
            end = re.compile(f"(?<!`){run}(?!`)").search(md, i + len(run))
            if end is None:
                out.append(run)
                i += len(run)
                continue
            inner = md[i + len(run):end.start()]
            if inner[:1] == " " and inner[-1:] == " " and inner.strip(" "):
                inner = inner[1:-1]
            out.append(inner)
            i = end.end()
        else:
            out.append(c)
            i += 1
    return "".join(out)


def outside_code(md: str) -> str:
    """The text of ``md`` outside its code spans, without its backslash escapes."""
    md = re.sub(r"\\[!-/:-@\[-`{-~]", "", md)
    return re.sub(r"(`+)(?!`).*?(?<!`)\1(?!`)", "", md)


@pytest.mark.parametrize("s", TEXTS, ids=range(len(TEXTS)))
def test_a_text_reads_back_and_starts_nothing(s):
    md = text(s)
    assert md.isprintable()  # one line: every line break escaped
    assert read(md) == printable(s.replace("\r\n", " ").replace("\n", " "))
    plain = outside_code(md)
    assert not re.search(r"[`*\[\]<>&~\\]", plain), md
    assert not re.search(r"(?<![^\W_])_|_(?![^\W_])", plain), md
    assert not re.match(r"[#>+=-]|\d+[.)]", md), md


@pytest.mark.parametrize("s", TEXTS, ids=range(len(TEXTS)))
def test_a_code_span_reads_back(s):
    md = code(s)
    assert md.isprintable() and md.startswith("`") and md.endswith("`")
    shown = printable(s.replace("\n", " "))
    assert read(md) == shown or (not shown.strip(" ") and read(md).strip(" ") == "")


@pytest.mark.parametrize("label", ["<img src=x onerror=alert(1)>.log", "# x\u2028## y.log", "`a``b`.log",
                                   "[x](javascript:alert(1)).log", "a\r\n- b.log"])
def test_a_hostile_file_name_keeps_the_reports_structure(label):
    """The file's name is in the title and in each log line a section cites: the report keeps its headings and
    list items, one per fact."""
    _, facts = imported_report(import_logs([(label, io.BytesIO(klog()))]))
    _, plain = imported_report(import_logs([("incident.log", io.BytesIO(klog()))]))
    md, usual = markdown(facts, ["r.position-1.svg"]), markdown(plain, ["r.position-1.svg"])
    shape = [re.match(r"#+ |- |  - |!\[|\*\*|", line)[0] for line in md.split("\n")]
    assert shape == [re.match(r"#+ |- |  - |!\[|\*\*|", line)[0] for line in usual.split("\n")]
    assert md.split("\n")[0] == f"# {text(facts['title'])}" and read(text(facts["title"])) == printable(
        facts["title"].replace("\r\n", " ").replace("\n", " "))
    cited = [line for line in md.split("\n") if line.startswith("- `") or line.startswith("- ``")]
    assert cited and all(read(line[2:].split(": ", 1)[0]).startswith(printable(label.replace("\n", " ")))
                         for line in cited)


def test_frames_with_spaces_and_parentheses_in_their_names_are_linked():
    _, facts = imported_report(import_logs([("incident.log", io.BytesIO(klog()))]))
    md = markdown(facts, [f"my report (1).position-{p}.svg" for p in facts["frames"]])
    assert f"![{facts['frame_titles'][0]}](my%20report%20%281%29.position-{facts['frames'][0]}.svg)" in md
