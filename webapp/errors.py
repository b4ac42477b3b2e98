"""The errors a user can cause, as one small family (python-socketio style): each has a ``kind`` a client can
react to and the HTTP status it is answered with. Anything that is not a UserError is a bug: the transports
answer it as ``Internal`` and log its traceback once.

Every layer may raise these; this module imports nothing of the app. The kinds the page tells apart are named
here once (CLIENT_KINDS); static/js/kinds.js is made from them (``python -m tools.clientgen``).
"""

from __future__ import annotations

from typing import ClassVar, TypedDict

MAX_REPLY = 10_000  # characters of the message a client is answered with (50 problems of a scenario fit)


class Reply(TypedDict):
    """What a refused request is answered with (a socket's ``error`` message adds the event it answers)."""

    message: str
    kind: str


class UserError(Exception):
    """A request that cannot be carried out as asked; the session it was sent to is left as it was."""

    status: ClassVar[int] = 400
    kind: ClassVar[str] = "UserError"  # the name a client knows it by: its class's, unless the class names one

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        if "kind" not in vars(cls):
            cls.kind = cls.__name__

    def reply(self) -> str:
        """The message a client is answered with: cut at MAX_REPLY characters, its length said (a message may
        quote the value refused, which can be as long as the request: a speed of 300,000 characters)."""
        message = str(self)
        return message if len(message) <= MAX_REPLY else f"{message[:MAX_REPLY]}... ({len(message)} characters)"

    def as_json(self) -> Reply:
        return {"message": self.reply(), "kind": self.kind}


class Invalid(UserError):
    """A message, parameter or body that is not what the operation expects."""


class NotFound(UserError):
    status = 404


class NotLoaded(UserError):
    """A command sent to a session that holds no scenario (never loaded, or evicted while idle)."""


class NotAllowed(UserError):
    """A room that does not exist, or a message that only its presenter may send."""

    status = 403


class TooLarge(UserError):
    """Work that would outgrow what one request or session may hold."""


class Busy(UserError):
    """Too much heavy work is running or waiting already; the caller may try again."""

    status = 503


class Unavailable(UserError):
    """A backing service (the room store) is out of reach."""

    status = 503


class NotInstalled(UserError):
    """A feature whose optional library is not installed here (the message names the install)."""

    status = 501


SCENARIO_ERROR = "ScenarioError"  # the kind of a scenario refused with its problems (scenario/errors.py)

# The kinds the page tells apart: a session the server no longer holds (the page loads it again), a refusal of who
# asked (the phone remote stops), and the kinds of a refused load that say the scenario itself cannot be opened, as
# opposed to a busy server or a rate limit (the page opens the default scenario instead).
CLIENT_KINDS = {
    "NOT_LOADED": NotLoaded.kind,
    "NOT_ALLOWED": NotAllowed.kind,
    "UNOPENABLE": [SCENARIO_ERROR, Invalid.kind, TooLarge.kind],
}
