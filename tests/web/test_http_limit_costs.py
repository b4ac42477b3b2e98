"""What a request costs in the HTTP rate limit (webapp/server/httplimit.py), in process with a clock that stands
still: a page's static file costs a tenth of a request, so an unbundled page's tens of modules fit in the burst
that a flood of pages or API calls spends."""

from __future__ import annotations

from webapp.server.httplimit import ASSET_COST, HttpLimit


def served(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"ok"]


def status_of(limit: HttpLimit, path: str) -> str:
    got: list[str] = []
    limit({"PATH_INFO": path, "REMOTE_ADDR": "127.0.0.1"}, lambda status, headers: got.append(status))
    return got[0]


def test_static_files_cost_a_tenth_of_a_request_and_pages_a_whole_one():
    limit = HttpLimit(served, rate=0.001, burst=5, clock=lambda: 0.0)
    limit.arm(None)
    files = round(4 / ASSET_COST)  # four requests' worth of a page's modules
    assert {status_of(limit, f"/static/v/1/js/m{i}.js") for i in range(files)} == {"200 OK"}
    assert status_of(limit, "/") == "200 OK"  # the fifth token
    assert status_of(limit, "/api/scenarios").startswith("429")


def test_a_flood_of_pages_spends_the_burst_request_by_request():
    limit = HttpLimit(served, rate=0.001, burst=5, clock=lambda: 0.0)
    limit.arm(None)
    assert [status_of(limit, "/")[:3] for _ in range(6)] == ["200"] * 5 + ["429"]
