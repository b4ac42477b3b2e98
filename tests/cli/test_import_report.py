"""``inflight-scope import LOG --report FILE.md`` run in this process (tests/cli/run.py): the Markdown report and its
frames written (status 0); a path it cannot write: a clear error, status 2, nothing written."""

from tests.cli.run import cli
from tests.export.incident_logs import klog


def run(*args, cwd):
    return cli("import", *args, text=True, cwd=cwd)


def test_report_is_written_beside_its_frames(tmp_path):
    (tmp_path / "incident.log").write_bytes(klog())
    done = run("incident.log", "-o", "incident.yaml", "--report", "pm.md", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    text = (tmp_path / "pm.md").read_text()
    assert "**Verdict:** v1.28.1 behaves as the cluster did" in text
    assert "where the versions part](pm.position-15.svg)" in text
    assert (tmp_path / "pm.position-15.svg").read_text().startswith("<?xml")
    assert (tmp_path / "incident.yaml").exists()


def test_a_report_path_it_cannot_write_changes_nothing(tmp_path):
    (tmp_path / "incident.log").write_bytes(klog())
    for bad, said in [("missing/pm.md", "no such directory"), (".", "the report is Markdown"),
                      ("pm.txt", "the report is Markdown")]:
        done = run("incident.log", "-o", "incident.yaml", "--report", bad, cwd=tmp_path)
        assert done.returncode == 2 and done.stderr.startswith(f"error: --report {bad}: ") and said in done.stderr
        assert "Traceback" not in done.stderr
        assert sorted(p.name for p in tmp_path.iterdir()) == ["incident.log"]
    (tmp_path / "dir.md").mkdir()
    done = run("incident.log", "--report", "dir.md", cwd=tmp_path)
    assert done.returncode == 2 and "is a directory" in done.stderr and done.stdout == ""
