"""The report's headline agrees with its body, by the rule it states (presenter/report.py WORDS["rule"]): it names
the versions whose replay agrees with every line that tells the versions apart. Tested on the incident log with
its leftover flush moved across the model's 5-minute window: worker-1 fails at t = 0.05 s, so a flush logged
before t = 300.05 s is one no replay makes (it lands outside the window), one after it v1.28.1's replay makes.
A flush 40 ms outside the window made the headline "does not tell the versions apart" above "worker-1 lost
308.00 s on v1.28.1"."""

import io

import pytest

from tests.export import incident_logs
from webapp.export.incident import imported_report
from webapp.presenter.report import WORDS
from webapp.scenario.logs import import_logs
from webapp.web.editor import LIMITS

FLUSH = 8  # incident_logs.LINES' leftover flush moving worker-1 to activeQ
WINDOW = 0.05 + 300  # worker-1's failure, then the 5 minutes the model's leftover flush waits


def report_with_flush_at(at: float):
    lines = [list(line) for line in incident_logs.LINES]
    lines[FLUSH][0] = at
    data = "".join(incident_logs._klog(t, c, m, k) + "\n" for t, v, c, m, k in lines).encode()
    return imported_report(import_logs([("flush.log", io.BytesIO(data))], LIMITS))[1]


@pytest.mark.parametrize("offset", [-0.04, -0.01, 0.01, 0.04, 9.95])
def test_near_the_window_the_headline_names_the_version_the_body_measures(offset):
    facts = report_with_flush_at(WINDOW + offset)
    assert facts["pods"][0]["text"].startswith("worker-1 lost") and " on v1.28.1 against v1.28.2" in \
        facts["pods"][0]["text"]
    assert facts["verdict"].startswith("v1.28.1 behaves as the cluster did"), facts["verdict"]
    outside = offset < 0
    assert ("No replay makes flush.log:9" in facts["verdict"]) is outside
    flush = next(d for d in facts["disagree"] if d["line"] == "flush.log:9")
    assert flush["versions"] == (["v1.28.1", "v1.28.2"] if outside else ["v1.28.2"])
    assert WORDS["rule"] in facts["sure"]

