"""Fixtures for the export tests: the Flask app and its test client, and scenarios to export."""

import copy

import pytest

from webapp import create_app
from webapp.scenario import builtin
from webapp.scenario.load import load_scenario


def renamed(raw, old: str, new: str):
    """A copy of a scenario object with every string equal to ``old`` (a pod name) replaced by ``new``."""
    if isinstance(raw, dict):
        return {k: renamed(v, old, new) for k, v in raw.items()}
    if isinstance(raw, list):
        return [renamed(v, old, new) for v in raw]
    return new if raw == old else raw


@pytest.fixture
def lost_marker_raw():
    return copy.deepcopy(builtin.get("lost-marker"))


@pytest.fixture
def lost_marker(lost_marker_raw):
    return load_scenario(lost_marker_raw)


@pytest.fixture
def app():
    return create_app({"ASYNC_MODE": "threading", "TESTING": True})


@pytest.fixture
def client(app):
    return app.test_client()
