"""gunicorn's hooks for the Procfile (``--config python:webapp.server.gunicorn_conf``); its flags stay in the Procfile.

``post_worker_init``: once the worker has loaded the app, its start-up objects (Flask, Socket.IO, eventlet, the
built-in scenarios: some 80,000 containers) are moved out of the garbage collector's reach, as ``inflight-scope
serve`` does before it serves (webapp/cli.py). They never become garbage, and every full collection would walk
them, a stall of every connection of the process under eventlet. The HTTP rate limit is armed for the app
(``listeners.arm_http_limit``); gunicorn's own options bound its connections (``--worker-connections``,
``--keep-alive``).
"""

import gc


def post_worker_init(worker: object) -> None:  # a gunicorn Worker (gunicorn has no types)
    from webapp.server.listeners import arm_http_limit

    arm_http_limit(getattr(worker, "wsgi", None))
    gc.freeze()
