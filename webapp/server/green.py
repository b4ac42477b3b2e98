"""The eventlet server's start: ``patch(host, message_queue)`` monkey-patches this process, first thing.

eventlet announces its maintenance mode on import; a newcomer reads that as an error. The README says why eventlet
is still the default and what the alternative is (--async-mode threading), so the warning is not shown.

eventlet's green DNS (dnspython: a seventh of a start's CPU and 270 modules) only serves the names the process
resolves once it serves. A server that listens on an address (not a name) and shares no rooms through a Redis
resolves none: listening, the URLs it prints and the room page's addresses read addresses, never a resolver. Such a
server starts without it (``EVENTLET_NO_GREENDNS``, unless the environment already says); one that listens on a name
or reaches a Redis keeps it, so a slow lookup never stalls the hub. Standard library only until eventlet.
"""

from __future__ import annotations

import ipaddress
import os
import warnings

from .addresses import WILDCARDS


def patch(host: str, message_queue: str | None) -> None:
    if message_queue is None and resolves_nothing(host):
        os.environ.setdefault("EVENTLET_NO_GREENDNS", "yes")
    warnings.filterwarnings("ignore", category=DeprecationWarning, module="eventlet")
    warnings.filterwarnings("ignore", message="\\s*Eventlet is deprecated")
    import eventlet

    eventlet.monkey_patch()


def resolves_nothing(host: str) -> bool:
    """Whether listening on ``host`` asks no resolver: an IP address or a wildcard, not a name."""
    try:
        ipaddress.ip_address(host.removeprefix("[").removesuffix("]"))
    except ValueError:
        return host in WILDCARDS
    return True
