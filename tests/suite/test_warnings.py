"""The suite's own rules, run on a small suite of their own (pytester) with the project's configuration."""

import tomllib
from pathlib import Path

pytest_plugins = ["pytester"]

CONFIG = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())["tool"]["pytest"]


def run_alone(pytester, source: str):
    pytester.makeini("[pytest]\nfilterwarnings =\n" + "".join(f"    {f}\n" for f in CONFIG["ini_options"]["filterwarnings"]))
    pytester.makepyfile(source)
    return pytester.runpytest_subprocess("-p", "no:randomly", "-p", "no:xdist")


def test_an_exception_in_a_thread_the_test_started_fails_the_test(pytester):
    result = run_alone(pytester, """
        import threading

        def test_client_thread_raises():
            t = threading.Thread(target=lambda: 1 / 0)
            t.start(); t.join()

        def test_client_thread_is_fine():
            t = threading.Thread(target=lambda: None)
            t.start(); t.join()
    """)
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*test_client_thread_raises*", "*ZeroDivisionError*"])


def test_an_exception_python_can_only_report_as_unraisable_fails_the_test(pytester):
    result = run_alone(pytester, """
        import gc

        class Closes:
            def __del__(self):
                raise RuntimeError("closing failed")

        def test_finaliser_raises():
            Closes()
            gc.collect()
    """)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*RuntimeError: closing failed*"])
