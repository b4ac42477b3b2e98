"""Clients that see what a page sees: every ``delta`` is applied to the client's copy of the last ``state``
(with ``webapp.presenter.apply``, the twin of static/js/delta.js) and handed on as the whole state it makes,
so a test reads whole states whichever way they travelled. A delta that does not follow the copy held (a
gap in ``seq``, or no state yet) fails the test: the server must never send one to a client in step; nor a
state or delta whose ``key`` is not that of the channel's last ``scenario``. A delta numbered at most the state's
``seq`` is already in it and dropped, as the page drops it (a room's joiner reads the record, then hears the
delta that made it), once it is seen to say what the state says. A client that can legitimately fall
out of step (a follower whose process missed the room's messages while Redis was down) is given ``resync``: it
then does what static/js/model.js does, asks once for the whole state (and the scenario, when a message names
another) and drops what does not follow until it arrives."""

from __future__ import annotations

import copy

from webapp.presenter import apply
from webapp.presenter.messages import traced


def unnumbered(state: dict) -> dict:
    """A state without its ``seq`` and ``key`` (which load it belongs to): the same position reached twice, or
    in another session of the same scenario, is the same state."""
    return {k: v for k, v in state.items() if k not in ("seq", "key")}


LATE = 3  # deltas that may wait for an earlier one still on its way (the client's handler threads)


class Folder:
    """The client models of one connection: one per channel (its own session, and each room it follows)."""

    def __init__(self, resync=None):
        self.models: dict[str | None, dict] = {}  # room code (None: the connection's own session) -> model
        self.resync = resync  # resync(room, scenario): ask for the whole state; None: out of step fails the test
        self.awaiting: dict = {}  # channel -> what was asked for again: "state" or "scenario"
        self.keys: dict = {}  # channel -> the key of its last scenario message
        self.resyncs = 0
        self.deltas: list[dict] = []  # every delta received, as sent
        self.early: dict = {}  # (room, None, seq) -> a delta handled before the one it follows; (room, key, seq) ->
        # a state or delta handled before its load's scenario: (name, payload) each

    @property
    def model(self) -> dict | None:
        return self.models.get(None)

    def receive(self, name: str, payload):
        """(name, payload) as a test reads it: a delta comes out as the ``state`` it makes."""
        if name == "scenario":
            self.keys[payload["room"]] = payload["key"]
        elif name in ("state", "delta") and payload["key"] != self.keys.get(payload["room"], payload["key"]):
            assert self.resync, f"a {name} of another scenario than the last one sent: {payload['key']}"
            self.models.pop(payload["room"], None)
            return self.ask_again(payload["room"], "scenario")
        if name == "state":
            self.models[payload["room"]] = copy.deepcopy(payload)
            self.awaiting.pop(payload["room"], None)
        elif name == "delta":
            if self.included(payload):
                return None
            if self.resync and not self.follows(payload):
                return self.ask_again(payload["room"], "state")
            return "state", self.fold(payload)
        return name, payload

    def included(self, delta: dict) -> bool:
        """Whether ``delta`` is already in the channel's state (numbered at most its seq). The last one it holds
        must say what the state says: two different deltas of one number are the server's fault."""
        model = self.models.get(delta["room"])
        if model is None or delta["seq"] > model["seq"] or delta["room"] in self.awaiting:
            return False
        if delta["seq"] == model["seq"]:
            said = {"position": delta["position"], "playing": delta["playing"], "speed": delta["speed"]}
            held = {k: model[k] for k in said}
            assert said == held, f"two messages numbered {delta['seq']} of room {delta['room']}: {held}, then {said}"
        return True

    def follows(self, delta: dict) -> bool:
        model = self.models.get(delta["room"])
        return model is not None and delta["seq"] == model["seq"] + 1 and delta["room"] not in self.awaiting

    def ask_again(self, room, what: str) -> None:
        """As the page does: a whole state (and the scenario) asked for once until it arrives."""
        if self.awaiting.get(room) not in (what, "scenario"):
            self.awaiting[room] = what
            self.resyncs += 1
            self.resync(room, what == "scenario")

    def ahead(self, delta: dict) -> bool:
        """Whether ``delta`` should wait for the one before it (handled later on another thread). Not when it
        names another scenario, nor (resyncing) when more than a few wait: those were lost, not late."""
        model = self.models.get(delta["room"])
        if delta["key"] != self.keys.get(delta["room"], delta["key"]):
            return False
        if model is None:  # its channel's state is on its way: a strict client waits for it
            return self.resync is None
        if delta["seq"] <= model["seq"] + 1:
            return False
        if self.resync and sum(room == delta["room"] for room, _, _ in self.early) >= LATE:
            self.early = {k: v for k, v in self.early.items() if k[0] != delta["room"]}
            return False  # receive() sees the gap and asks for the whole state
        return True

    def unannounced(self, name: str, payload) -> bool:
        """Whether a state or delta names a load whose ``scenario`` this (strict) client has not handled yet: the
        server sends the scenario first, but the two can be handled on threads of their own in either order."""
        return (self.resync is None and name in ("state", "delta")
                and payload["key"] != self.keys.get(payload["room"]))

    def arrived(self, name: str, payload) -> list:
        """``receive`` for a client that handles messages on threads of their own (python-socketio's): a delta
        ahead of its channel's model waits for the one before it, and a strict client's state or delta waits for
        the scenario of its load; the messages that can be read now, in order. Call it under one lock."""
        if self.unannounced(name, payload):  # kept under its load's key until that scenario is handled
            self.early[(payload["room"], payload["key"], payload["seq"])] = (name, payload)
            return []
        if name == "delta" and self.ahead(payload):
            self.early[(payload["room"], None, payload["seq"])] = (name, payload)
            return []
        out = [self.receive(name, payload)]
        room = payload.get("room") if isinstance(payload, dict) else None
        if name == "scenario":  # what waited for it, in the order sent
            for slot in sorted(k for k in self.early if k[:2] == (room, payload["key"])):
                out.extend(self.arrived(*self.early.pop(slot)))
        while (model := self.models.get(room)) and (nxt := self.early.pop((room, None, model["seq"] + 1), None)):
            out.append(self.receive(*nxt))
        return [message for message in out if message is not None]  # None: a delta dropped while resyncing

    def fold(self, delta: dict) -> dict:
        model = self.models.get(delta["room"])
        assert model is not None, f"a delta before any state of its channel: {delta}"
        assert delta["seq"] == model["seq"] + 1, (delta["room"], delta["seq"], model["seq"])
        self.deltas.append(delta)
        model = {**model, **apply(traced(model), copy.deepcopy(delta["ops"])),
                 "seq": delta["seq"], "playing": delta["playing"], "speed": delta["speed"]}
        assert model["position"] == delta["position"]
        self.models[delta["room"]] = model
        return copy.deepcopy(model)


class Viewer(Folder):
    """Flask-SocketIO's test client, folding deltas in ``get_received``."""

    def __init__(self, client):
        super().__init__()
        self.client = client

    def __getattr__(self, name):
        return getattr(self.client, name)

    def get_received(self, namespace=None):
        out = []
        for message in self.client.get_received(namespace):
            if message["args"]:
                name, payload = self.receive(message["name"], message["args"][0])
                message = {**message, "name": name, "args": [payload]}
            out.append(message)
        return out
