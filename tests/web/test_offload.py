"""Offload in threading mode (the eventlet path runs in the live-server tests): results, errors, the bound."""

import threading
import time

import pytest

from webapp.scenario.errors import ScenarioError
from webapp.web.offload import Offload


def test_returns_the_result_and_raises_the_error():
    offload = Offload("threading", 2)
    assert offload(divmod, 7, 2) == (3, 1)
    with pytest.raises(ScenarioError):
        offload(_refuse)


def _refuse():
    raise ScenarioError([{"step": None, "field": "document", "message": "no"}])


@pytest.mark.parametrize("at_once", [1, 2])
def test_at_most_at_once_run_together(at_once):
    offload = Offload("threading", at_once)
    running, most, lock = [0], [0], threading.Lock()

    def work():
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.2)  # long enough that the threads started together overlap
        with lock:
            running[0] -= 1

    threads = [threading.Thread(target=offload, args=(work,)) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert most[0] == at_once
