"""Runs ``inflight-scope ARGS`` for a test and returns a ``subprocess.CompletedProcess`` (``returncode``, ``stdout``,
``stderr``) either way it runs:

* in this process (the default): ``webapp.cli.main(argv)`` runs for real with stdin, stdout and stderr swapped for
  stand-ins of a pipe's: the text streams a real interpreter opens on pipes (the same encoding, error handler and
  newlines, asked of one once), each over a byte buffer (``sys.stdout.buffer`` takes binary output such as
  ``export -o -``), and ``sys.__stdout__`` no terminal either. The working directory is ROOT or ``cwd`` and ``env``
  is set, both through a MonkeyPatch undone after the run. argparse's SystemExit becomes the status as the
  interpreter makes it; a warning is written to stderr as the interpreter's default filters would show it (and the
  filters restored after). An exception that a process would print as a traceback fails the test itself, with its
  traceback.
* as a process (``process=True``): ``python -m webapp.cli ARGS``, for what only a process shows: the entry point,
  real pipes and a real environment, argv decoded from bytes, a server that may start listening.

Each run costs what the command does, not an interpreter's start and webapp.cli's imports (0.3 to 0.5 s of CPU).
"""

from __future__ import annotations

import functools
import io
import locale
import os
import subprocess
import sys
import warnings
from collections.abc import Mapping
from pathlib import Path

import pytest

from webapp.cli import main

ROOT = Path(__file__).resolve().parents[2]
Arg = str | bytes | os.PathLike | int | float
ASK_PIPES = "import sys; print(sys.stdout.encoding, sys.stdout.errors)"
QUIET_BY_DEFAULT = (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning)


def cli(*args: Arg, stdin: bytes | str | None = None, text: bool = False, cwd: Path | None = None,
        env: Mapping[str, str] | None = None, process: bool = False,
        timeout: float = 300) -> subprocess.CompletedProcess:
    """``inflight-scope ARGS``: ``stdin`` fed to it (str encoded as subprocess.run encodes it), stdout and stderr
    bytes, or str when ``text`` (decoded as subprocess.run decodes them); ``timeout`` bounds a process only."""
    argv = [a if isinstance(a, str) else os.fsdecode(a) if isinstance(a, bytes | os.PathLike) else str(a)
            for a in args]
    data = stdin.encode(locale.getpreferredencoding(False)) if isinstance(stdin, str) else stdin
    if process:
        # ROOT's webapp wherever the process runs: from another directory, an editable install's finder would
        # import the checkout it was installed from (another worktree's code)
        path = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
        done = subprocess.run([sys.executable, "-m", "webapp.cli", *argv], cwd=cwd or ROOT, input=data,
                              env={**os.environ, "PYTHONPATH": path, **(env or {})}, capture_output=True,
                              timeout=timeout)
        out, err = done.stdout, done.stderr
        status = done.returncode
    else:
        status, out, err = _in_process(argv, data or b"", cwd or ROOT, env or {})
    if text:
        out, err = _decoded(out), _decoded(err)
    return subprocess.CompletedProcess(["inflight-scope", *argv], status, out, err)


def _in_process(argv: list[str], data: bytes, cwd: Path, env: Mapping[str, str]) -> tuple[int, bytes, bytes]:
    encoding, errors = _pipe_streams()
    stdin = io.TextIOWrapper(io.BytesIO(data), encoding, errors, newline="\n")
    stdout = io.TextIOWrapper(io.BytesIO(), encoding, errors, newline="\n")
    stderr = io.TextIOWrapper(io.BytesIO(), encoding, "backslashreplace", newline="\n", line_buffering=True)
    with pytest.MonkeyPatch.context() as mp, warnings.catch_warnings():
        mp.chdir(cwd)
        for name, value in env.items():
            mp.setenv(name, value)
        mp.setattr(sys, "stdin", stdin)
        mp.setattr(sys, "stdout", stdout)
        mp.setattr(sys, "stderr", stderr)
        mp.setattr(sys, "__stdout__", stdout)  # argparse wraps at its terminal's width: a pipe has none (80)
        _default_warnings(stderr)
        try:
            status = main(argv)
        except SystemExit as done:
            status = _exit_status(done.code, stderr)
        stdout.flush()
        stderr.flush()
    return status, stdout.buffer.getvalue(), stderr.buffer.getvalue()


def _exit_status(code: object, stderr: io.TextIOWrapper) -> int:
    """The status the interpreter exits with for ``SystemExit(code)`` (any other object printed on stderr, 1)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=stderr)
    return 1


def _default_warnings(stderr: io.TextIOWrapper) -> None:
    """The filters a fresh interpreter starts with (python -W and PYTHONWARNINGS aside), each shown warning
    written to ``stderr`` as the interpreter writes it (inside catch_warnings, which restores both)."""
    warnings.resetwarnings()
    warnings.simplefilter("default")
    for category in QUIET_BY_DEFAULT:
        warnings.filterwarnings("ignore", category=category)
    warnings.filterwarnings("default", category=DeprecationWarning, module="__main__")

    def show(message, category, filename, lineno, file=None, line=None):
        stderr.write(warnings.formatwarning(message, category, filename, lineno, line))

    warnings.showwarning = show


@functools.cache
def _pipe_streams() -> tuple[str, str]:
    """The encoding and error handler an interpreter gives stdin and stdout on a pipe (the locale, UTF-8 mode and
    PYTHONIOENCODING decide them), asked of one."""
    asked = subprocess.run([sys.executable, "-c", ASK_PIPES], capture_output=True, text=True, check=True, timeout=60)
    encoding, errors = asked.stdout.split()
    return encoding, errors


def _decoded(data: bytes) -> str:
    """``data`` as subprocess.run(text=True) gives it: the locale's encoding, universal newlines."""
    return data.decode(locale.getpreferredencoding(False)).replace("\r\n", "\n").replace("\r", "\n")
