"""CPU seconds of each test file run alone (one pytest process, no workers), by kind of process: where the suite's
time goes, Chromium's renderers apart (the sampler of bench/cpu_by_process.py). Prints a Markdown table.

    python bench/suite_cpu.py tests/e2e/test_stage.py tests/e2e/test_flow.py
    python bench/suite_cpu.py --junit run.xml --top 20    # the 20 files a run's --junitxml gave the most time

Each file starts its own browser and servers, as a worker does for its first file: a file's figure includes them.
"""

from __future__ import annotations

import argparse
import collections
import re
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

from cpu_by_process import spent

ROOT = Path(__file__).resolve().parents[1]


def longest(junit: Path, top: int) -> list[str]:
    """The ``top`` test files with the most test time in a pytest --junitxml report."""
    seconds: collections.Counter[str] = collections.Counter()
    for case in ET.parse(junit).iter("testcase"):
        parts = case.get("classname", "").split(".")
        module = next((i for i, part in enumerate(parts) if part.startswith("test_")), None)
        if module is not None:
            seconds["/".join(parts[:module + 1]) + ".py"] += float(case.get("time") or 0)
    return [path for path, _ in seconds.most_common(top)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="*", help="test files, from the checkout's root")
    ap.add_argument("--junit", type=Path, help="a --junitxml report: measure its longest files")
    ap.add_argument("--top", type=int, default=20, help="how many of the report's files (20)")
    args = ap.parse_args()
    files = args.files + (longest(args.junit, args.top) if args.junit else [])
    if not files:
        ap.error("name test files or a --junit report")
    out = ROOT / "test-artifacts" / "suite_cpu.out"  # each file's pytest output in turn, the last file's kept
    out.parent.mkdir(exist_ok=True)
    print("| file | passed | wall s | renderer CPU s | all CPU s |\n|---|---|---|---|---|")
    failed = 0
    for path in files:
        started = time.monotonic()
        with out.open("wb") as sink:
            status, by_kind = spent([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0", path],
                                    cwd=ROOT, stdout=sink, stderr=subprocess.STDOUT)
        wall = time.monotonic() - started
        passed = re.search(r"(\d+) passed", out.read_text(errors="replace"))
        failed += status != 0
        print(f"| `{path}` | {passed.group(1) if passed else 0}{'' if status == 0 else ' (failed)'} | {wall:.1f} "
              f"| {by_kind['chromium:renderer']:.1f} | {sum(by_kind.values()):.1f} |", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
