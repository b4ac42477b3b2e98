"""The suite's own rules, run on a small suite of their own (pytester) with the project's configuration."""

import tomllib
from pathlib import Path

pytest_plugins = ["pytester"]

CONFIG = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())["tool"]["pytest"]


def test_an_exception_in_a_thread_or_an_unraisable_one_fails_the_test_that_caused_it(pytester):
    filters = CONFIG["ini_options"]["filterwarnings"]
    pytester.makeini("[pytest]\nfilterwarnings =\n" + "".join(f"    {f}\n" for f in filters))
    pytester.makepyfile("""
        import gc
        import threading

        def test_client_thread_raises():
            t = threading.Thread(target=lambda: 1 / 0)
            t.start(); t.join()

        def test_client_thread_is_fine():
            t = threading.Thread(target=lambda: None)
            t.start(); t.join()

        class Closes:
            def __del__(self):
                raise RuntimeError("closing failed")

        def test_finaliser_raises():
            Closes()
            gc.collect()
    """)
    result = pytester.runpytest_subprocess("-p", "no:randomly", "-p", "no:xdist", "-rf")
    result.assert_outcomes(passed=1, failed=2)
    result.stdout.fnmatch_lines(["FAILED *test_client_thread_raises*", "FAILED *test_finaliser_raises*"])
    result.stdout.fnmatch_lines(["*ZeroDivisionError*"])
    result.stdout.fnmatch_lines(["*RuntimeError: closing failed*"])
