"""Waiting on what a test waits for: every wait ends as soon as its condition holds; the bound is against a hang on
a loaded machine (at a load average of 20 a server takes seconds to answer), never a measure."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

import pytest

HANG = 120.0  # seconds
T = TypeVar("T")


def until(condition: Callable[[], T], what: str | Callable[[], str], seconds: float = HANG, every: float = 0.05,
          passing: tuple[type[BaseException], ...] = ()) -> T:
    """``condition()``'s first truthy value, asked every ``every`` s (an exception in ``passing`` counts as not
    yet); after ``seconds`` the test fails with ``what`` (or what it returns then): what never happened."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            found = condition()
        except passing:
            found = None
        if found:
            return found
        if time.monotonic() > deadline:
            pytest.fail(f"after {seconds:g} s: {what() if callable(what) else what}", pytrace=False)
        time.sleep(every)


def logged(server, words: str, since: int = 0, seconds: float = HANG) -> str:
    """The live ``server``'s log from character ``since`` on, once it holds ``words`` (read again as it grows)."""
    def text() -> str:
        return server.log_path.read_text(errors="replace")[since:]

    def holding() -> str:
        log = text()
        return log if words in log else ""

    return until(holding, lambda: f"the server never logged {words!r}:\n{text()[-4000:]}", seconds)
