"""The delivery protocol, without I/O: what a channel is sent after a command, worked out from what it was last
sent (``Channel``) and what its session shows now (``Snapshot``): (channel state, snapshot, command) ->
(messages to send, new state). No socket, no emit, no sleep: the transport (web/hub.py) decodes, calls
``deliver``, sends the ``Out`` it returns in order and schedules what comes later.

A channel's ``seq`` numbers the states it was sent: a room's is its record's version in the store (the same on
every process), a connection's own counts up. A delta goes from the state message the channel holds (its base)
to the new one: a room's only from the room's version its channel was last sent, a connection's own from whatever
it holds; a load, a seek and a reset send the state whole.

A room's scenes fan out: whole to its presenter's channel (its presenter and speaker views), ``for_audience`` to
its followers' channel, so followers never get the speaker's notes or what comes next. A connection's own messages
stay in its process (``Out.private``); a room's go through the queue to every process.

Messages are found in the one ``MessageCache`` (a memo: kept or made, the message is the same); ``look_ahead``
fills it with the next step's messages of a private session.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, cast

from ..model.frame import Frame, Preview
from ..presenter import delta_message, for_audience, state_message
from ..presenter.shapes import Settings
from .cache import Message, MessageCache, View, view_of
from .snapshot import RoomVersion, Snapshot

Holding = tuple[str | None, str | None, bool]  # the scenario a connection holds: (room code, load id, as follower)


@dataclass(frozen=True)
class Channel:
    """What one channel (a connection, or a room) was last sent: deltas are made against it."""

    seq: int = 0
    message: Message | None = None  # the state message without its seq
    version: RoomVersion | None = None  # the room's version ``message`` shows (None: a private session)
    view: View | None = None  # what ``message`` shows (``view_of``), if its messages are kept
    holds: Holding | None = None  # the scenario message a connection was last sent, of a room or its own
    scenarios: bool = False  # a connection was sent a scenario message (memory to give back when it goes)

    def base(self, version: RoomVersion | None) -> Message | None:
        """The state message a delta can go from, if the channel holds the room's at ``version`` (or, private, any
        state at all)."""
        return self.message if self.version == version else None


@dataclass(frozen=True)
class Out:
    """One message to send: ``event`` to ``to`` (``private``: in this process only). A "scenario" carries no
    payload: the transport sends the target's scenario message (as a room's followers are sent it: ``followers``),
    made once per load."""

    event: str
    to: str
    private: bool
    payload: Message = field(default_factory=dict)
    followers: bool = False


@dataclass(frozen=True)
class Publish:
    """What changed after a command, to the channel: its scenario first after a load (``loaded``), then a whole
    state (``whole``, a load, or no base) or a delta. ``seen``: the room's version the channel's followers here
    were sent from, read before this move was saved (None: a private session)."""

    whole: bool = False
    loaded: bool = False
    seen: RoomVersion | None = None


@dataclass(frozen=True)
class Resend:
    """The current state (after the scenario, if ``scenario``) to one connection ``sid`` only: a joiner, or a
    client that lost its place. ``speaks``: it is the room's presenter or speaker view (sent the scenes whole).
    ``rejoin``: a join, not sent again the room's scenario message of the load it holds. ``shown``: what the
    room's channel was last sent (its current state, if the room is still there)."""

    sid: str
    speaks: bool = False
    scenario: bool = True
    rejoin: bool = False
    shown: Channel | None = None


Command = Publish | Resend


def deliver(state: Channel, snap: Snapshot | None, command: Command, cache: MessageCache
            ) -> tuple[list[Out], Channel]:
    """The messages ``command`` sends and the channel's state after them (``snap``: None, nothing loaded).
    ``Publish``: ``state`` is the target channel's; ``Resend``: the receiving connection's."""
    if isinstance(command, Resend):
        return resend(state, snap, command, cache)
    return publish(state, snap, command, cache)


def publish(state: Channel, snap: Snapshot | None, command: Publish, cache: MessageCache
            ) -> tuple[list[Out], Channel]:
    out: list[Out] = []
    if command.loaded and snap is not None:
        room = snap.room
        if room is None:  # the connection's own load: it holds no room's scenario any more
            state = replace(state, holds=None, scenarios=True)
            out.append(Out("scenario", snap.channel, True))
        else:
            out += [Out("scenario", room.presenter_channel, False), Out("scenario", room.audience_channel, False,
                                                                        followers=True)]
    if snap is None:
        return out, state
    message, view = state_of(snap, cache)
    seq = snap.room.seen[1] if snap.room else state.seq + 1
    base = None if command.whole or command.loaded else state.base(command.seen)
    if base is None:
        out += states(snap, seq, message)
    else:
        out += deltas(snap, seq, (base, state.view), (message, view), cache)
    return out, replace(state, seq=seq, message=message, version=snap.room.seen if snap.room else None, view=view)


def resend(state: Channel, snap: Snapshot | None, command: Resend, cache: MessageCache
           ) -> tuple[list[Out], Channel]:
    if snap is None:
        return [], state
    room = snap.room
    followers = room is not None and not command.speaks
    out: list[Out] = []
    load: Holding = (room.code if room else None, snap.load_id, followers)  # a follower who claims is sent it whole
    if command.scenario and not (command.rejoin and state.holds == load):
        state = replace(state, holds=load, scenarios=True)
        out.append(Out("scenario", command.sid, True, followers=followers))
    message = current(state if room is None else command.shown or Channel(), snap, cache)
    head = {"seq": room.seen[1] if room else state.seq, "key": snap.load_id}
    out.append(Out("state", command.sid, True, {**head, **(for_audience(message) if followers else message)}))
    return out, state


def current(state: Channel, snap: Snapshot, cache: MessageCache) -> Message:
    """A room's state message as last sent to its channel (``state``), if that is still where it stands; else the
    state at the cursor."""
    held = state.base(snap.room.seen) if snap.room else None
    return held if held is not None else state_of(snap, cache)[0]


def state_of(snap: Snapshot, cache: MessageCache) -> tuple[Message, View | None]:
    """The state message at the cursor, from the cache or made now, and the view it shows."""
    view = view_of(snap)
    return cache.state(view, lambda: make_state(snap, snap.frame()), snap.channel), view


def make_state(snap: Snapshot, frame: Mapping[str, Any]) -> Message:
    """The state message of ``frame`` with the session's settings (a room's narrates the next step too)."""
    settings: Settings = {"playing": snap.playing, "speed": snap.speed, "range": snap.range,
                          "room": snap.room.code if snap.room else None}
    preview = cast("Mapping[str, Preview] | None", snap.preview()) if snap.room else None
    return {**state_message(cast(Frame, frame), preview, settings), **settings}


def states(snap: Snapshot, seq: int, message: Message) -> list[Out]:
    """A whole state to the channel: a room's whole to its presenter's channel, ``for_audience`` to its
    followers'."""
    head = {"seq": seq, "key": snap.load_id}
    room = snap.room
    if room is None:
        return [Out("state", snap.channel, True, {**head, **message})]
    return [Out("state", room.presenter_channel, False, {**head, **message}),
            Out("state", room.audience_channel, False, {**head, **for_audience(message)})]


def deltas(snap: Snapshot, seq: int, old: tuple[Message, View | None], new: tuple[Message, View | None],
           cache: MessageCache) -> list[Out]:
    """The delta from the (message, view) ``old`` the channel holds to ``new``, with the settings whole (a room's
    followers: from and to the messages ``for_audience``)."""
    delta = cache.delta(seq, old[1], new[1], lambda: dict(delta_message(seq, old[0], new[0])), snap.channel)
    room = snap.room
    settings = {"key": snap.load_id, "playing": snap.playing, "speed": snap.speed,
                "room": room.code if room else None}
    if room is None:
        return [Out("delta", snap.channel, True, {**delta, **settings})]
    followers = delta_message(seq, for_audience(old[0]), for_audience(new[0]))
    return [Out("delta", room.presenter_channel, False, {**delta, **settings}),
            Out("delta", room.audience_channel, False, {**followers, **settings})]


def looks_ahead(snap: Snapshot | None) -> bool:
    """Whether a step of this channel makes its next step's messages ahead (``look_ahead``): a private session's
    upload with a view only. Not a built-in (its messages are kept for every viewer after its first two), nor a
    session without a view (larger than a built-in: the next frame would double the live part
    MAX_SESSION_BYTES counts once, memory.LIVE_FACTOR)."""
    return snap is not None and snap.room is None and snap.scenario_id is None and view_of(snap) is not None


def look_ahead(state: Channel | None, snap: Snapshot | None, cache: MessageCache) -> None:
    """Make the state and the delta of the session's next step now, while its viewer looks at what it was last
    sent (``state``), unless the cache holds them already: the step then only sends them."""
    if state is None or state.message is None or state.view is None or snap is None:
        return
    position = snap.position + 1
    view = view_of(snap, position)
    if position > snap.range[1] or view is None or cache.holds(snap.channel, state.view, view):
        return
    message = make_state(snap, snap.frame_at(position))
    cache.put_ahead(snap.channel, state.view, view, message, dict(delta_message(0, state.message, message)))
