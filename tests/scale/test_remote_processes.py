"""The phone remote across two server processes sharing a real Redis: a remote served by one process steps the
room for followers of the other, and a link revoked from one process is refused on the other (the nonce lives in
the shared room store, engine/remote.py)."""

import requests

from tests.web.sockclient import TIMEOUT, Client
from tests.web.test_remote import remote_of
from webapp.engine.remote import revoked


def at(client: Client, position: int) -> bool:
    """Whether ``client`` is sent the room at ``position`` (a delta, or a whole state from a process that did not
    send it the state before), waiting for it."""
    while True:
        name, data = client.inbox.get(timeout=TIMEOUT)
        if name in ("state", "delta") and data["position"] == position:
            return True


def test_a_remote_on_one_process_is_revoked_from_the_other(two_servers):
    one, two = two_servers
    presenter = Client(one.url)
    ack = presenter.call("create_room")
    drive = {"room": ack["room"], "token": ack["token"]}
    presenter.call("load", {"scenario": "lost-marker", **drive})
    follower = Client(two.url)
    follower.call("join_room", {"room": drive["room"]})
    assert follower.wait_for("state")["position"] == 0
    phone, remote = remote_of(two.url, drive)  # the link made on process two, the phone served there
    phone.call("step", remote)
    assert at(follower, 1) and at(presenter, 1)  # the presenter, on process one, follows its phone
    asked = {"json": {"token": drive["token"]}, "timeout": TIMEOUT}
    same = requests.post(f"{one.url}/api/rooms/{drive['room']}/remote", **asked).json()
    assert same["link"].endswith(remote["token"])  # process one issues the same link: one nonce, in Redis
    revoke = requests.post(f"{one.url}/api/rooms/{drive['room']}/remote/revoke", **asked)
    assert revoke.json() == {"revoked": True}
    assert phone.wait_for("remote") == {"room": drive["room"], "revoked": True}  # told through the queue
    phone.call("step", remote)
    assert phone.wait_for("error") == {"message": revoked(drive["room"]), "event": "step", "kind": "NotAllowed"}
    on_one = Client(one.url)  # the same link on the other process: refused there too
    on_one.call("step", remote)
    assert on_one.wait_for("error")["message"] == revoked(drive["room"])
    follower.call("sync", {"room": drive["room"]})
    assert follower.wait_for("state")["position"] == 1
    for client in (presenter, follower, phone, on_one):
        client.close()
