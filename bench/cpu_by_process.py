"""CPU seconds by kind of process (Chromium's renderer, browser, GPU process; the Playwright driver; the server;
pytest) of a command and its descendants only, so other work on the machine is not counted:

    python bench/cpu_by_process.py .venv/bin/python -m pytest -q -n 0 tests/e2e/test_talks.py

It samples /proc every 0.3 s; a process counts with its last sample (what it spent after that is lost: a figure
from below), under the kind its command line had when first seen.
"""

from __future__ import annotations

import collections
import os
import re
import subprocess
import sys
import time
from pathlib import Path

HZ = os.sysconf("SC_CLK_TCK")


def kind_of(command: str) -> str:
    if "chromium" in command or "chrome" in command:
        process = re.search(r"--type=(\S+)", command)
        utility = re.search(r"--utility-sub-type=(\S+)", command)
        return "chromium:" + (process.group(1) if process else "browser") + (":" + utility.group(1) if utility else "")
    for words, kind in (("webapp.cli", "server"), ("pytest", "pytest"), ("exec(eval(", "pytest worker"),
                        ("node", "node (Playwright's driver)")):
        if words in command:
            return kind
    return command[:40]


def table() -> dict[int, tuple[int, float, str, str]]:
    """pid -> (parent pid, CPU seconds, start time, command line) of every process readable now."""
    found = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()
        found[int(pid)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / HZ, fields[19], command)
    return found


def spent(argv: list[str], **popen) -> tuple[int, collections.Counter[str]]:
    """Runs ``argv`` and returns its exit status and CPU seconds by kind of process, its descendants included."""
    child = subprocess.Popen(argv, **popen)
    ours = {child.pid}
    last: dict[tuple[int, str], tuple[str, float]] = {}
    while child.poll() is None:
        now = table()
        grew = True
        while grew:  # the descendants of ours, at any depth
            grew = False
            for pid, (parent, *_rest) in now.items():
                if pid not in ours and parent in ours:
                    ours.add(pid)
                    grew = True
        for pid in ours & now.keys():
            _parent, cpu, start, command = now[pid]
            known = last.get((pid, start))
            kind = known[0] if known and not command.strip() else kind_of(command)  # a zombie's command is empty
            last[(pid, start)] = (kind, cpu)
        time.sleep(0.3)
    by_kind: collections.Counter[str] = collections.Counter()
    for kind, cpu in last.values():
        by_kind[kind] += cpu
    return child.returncode, by_kind


def main() -> int:
    status, by_kind = spent(sys.argv[1:])
    for kind, cpu in by_kind.most_common(14):
        print(f"{cpu:8.1f} {kind}")
    print(f"{sum(by_kind.values()):8.1f} TOTAL (this command and its descendants)")
    return status


if __name__ == "__main__":
    sys.exit(main())
