"""How many examples each property and fuzz runs: the counts written in the tests are ``make test``'s (enough to
reach every input class of its strategies), ``make fuzz`` (HYPOTHESIS_PROFILE=deep) runs DEEP times as many, for
the long runs (docs/testing.md). The profile is loaded by tests/conftest.py."""

from __future__ import annotations

import os

from hypothesis import settings

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "default")
DEEP = 10  # the deep profile's examples per example of the default one

settings.register_profile("deep", print_blob=True)


def examples(count: int) -> int:
    """The examples to run of a test that runs ``count`` in ``make test``."""
    return count * DEEP if PROFILE == "deep" else count
