"""A crafted kube-scheduler log within the upload limit that costs seconds of CPU to import: many pods, each
parked and then attempted again in reverse order, round after round (the mend loop replays the whole scenario for
every round of activates and priorities it adds). And a crafted form for POST /report, costly to parse."""

from __future__ import annotations


def _line(t: int, where: str, message: str, pod: str, extra: str = "") -> str:
    return (f'I1130 12:{t // 60000 % 60:02d}:{t // 1000 % 60:02d}.{t % 1000 * 1000:06d}       1 {where}] '
            f'"{message}" pod="default/{pod}"{extra}\n')


def costly_log(pods: int = 200, rounds: int = 10) -> bytes:
    """About 820 kB at the defaults; seconds of CPU to import (then refused: too many rounds to mend)."""
    out, t = [], 0
    for i in range(pods):
        out.append(_line(t, "eventhandlers.go:126", "Add event for unscheduled pod", f"p{i}"))
        t += 1
    for _ in range(rounds):
        for i in reversed(range(pods)):
            for where, message, extra in (
                    ("schedule_one.go:80", "About to try and schedule pod", ""),
                    ("schedule_one.go:93", "Attempting to schedule pod", ""),
                    ("schedule_one.go:967", "Unable to schedule pod; no fit; waiting",
                     ' err="0/3 nodes are available: 3 node(s) didn\'t find available persistent volumes to bind."')):
                out.append(_line(t, where, message, f"p{i}", extra))
                t += 1
    return "".join(out).encode()


def heavy_form(parts: int = 100, lines: int = 2000) -> bytes:
    """A multipart form (boundary ``b``) of ~1.6 MB that costs Werkzeug's parser a good part of a second: many parts
    of many header lines, and no ``log`` field (POST /report answers 400 once it is parsed)."""
    part = b"--b\r\n" + b"X-H: a\r\n" * lines + b'Content-Disposition: form-data; name="a"\r\n\r\nx\r\n'
    return part * parts + b"--b--\r\n"
