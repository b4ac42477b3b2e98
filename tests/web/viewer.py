"""Clients that see what a page sees: every ``delta`` is applied to the client's copy of the last ``state``
(with ``webapp.presenter.apply``, the twin of static/js/delta.js) and handed on as the whole state it makes,
so a test reads whole states whichever way they travelled. A delta that does not follow the copy held (a
gap in ``seq``, or no state yet) fails the test: the server must never send one to a client in step."""

from __future__ import annotations

import copy

from webapp.presenter import apply

TRACED = ("position", "total", "variants", "scene")  # what a delta's ops describe; the rest travels whole


def unnumbered(state: dict) -> dict:
    """A state without its ``seq``: the same position reached twice is the same state."""
    return {k: v for k, v in state.items() if k != "seq"}


class Folder:
    """The client model of one connection."""

    def __init__(self):
        self.model: dict | None = None
        self.deltas: list[dict] = []  # every delta received, as sent

    def receive(self, name: str, payload):
        """(name, payload) as a test reads it: a delta comes out as the ``state`` it makes."""
        if name == "state":
            self.model = copy.deepcopy(payload)
        elif name == "delta":
            return "state", self.fold(payload)
        return name, payload

    def fold(self, delta: dict) -> dict:
        assert self.model is not None, f"a delta before any state: {delta}"
        assert delta["seq"] == self.model["seq"] + 1, (delta["seq"], self.model["seq"])
        self.deltas.append(delta)
        traced = apply({k: self.model[k] for k in TRACED}, copy.deepcopy(delta["ops"]))
        self.model = {**self.model, **traced, "seq": delta["seq"], "playing": delta["playing"],
                      "speed": delta["speed"]}
        assert self.model["position"] == delta["position"]
        return copy.deepcopy(self.model)


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
