"""How a Socket.IO handler reads what it is sent (web/fields.py) and the connection it came on
(web/connection.py), apart from a server: the namespace's ``checked`` refuses a payload of another shape before a
handler runs (tests/web/test_sockets.py), and each handler reads its own through the same rule."""

import pytest
from flask import Flask

from webapp.errors import Invalid
from webapp.web.connection import request_sid
from webapp.web.fields import boolean, fields


def test_a_payload_object_is_read_as_its_fields():
    payload = {"position": 3}
    assert fields(payload, "seek") is payload


@pytest.mark.parametrize("payload", [None, [1], "x", 3, True])
def test_anything_but_an_object_is_refused_naming_the_event(payload):
    with pytest.raises(Invalid, match=r"^'seek' expects an object payload$"):
        fields(payload, "seek")


def test_a_boolean_field_is_true_or_false_or_its_default():
    assert boolean({"on": True}, "on") is True
    assert boolean({}, "scenario", False) is False
    with pytest.raises(Invalid, match=r"^on must be true or false, got 'yes'$"):
        boolean({"on": "yes"}, "on")
    with pytest.raises(Invalid, match=r"^on must be true or false, got null$"):
        boolean({}, "on")  # no default: required


def test_outside_a_socketio_event_there_is_no_connection():
    with Flask(__name__).test_request_context("/"), pytest.raises(RuntimeError, match="no Socket.IO event"):
        request_sid()
