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


def test_a_halls_requests_have_a_bucket_of_their_own_per_address():
    """An open room's page, files and new Socket.IO sessions spend the hall's bucket, sized for a hall's phones on
    one address; a room that is not open, a made-up session and everything else spend the address's own."""
    limit = HttpLimit(served, rate=0.001, burst=2, clock=lambda: 0.0, hall=(0.001, 30))
    limit.arm(lambda sid: False, lambda code: code.upper() == "ROOMAB")
    hall = ["/r/ROOMAB", "/r/roomab", "/socket.io/", "/static/v/1/bundle/viewer.js"] * 6
    assert {status_of(limit, path) for path in hall} == {"200 OK"}  # 24 requests past the address's burst of 2
    got: list[str] = []
    limit({"PATH_INFO": "/socket.io/", "QUERY_STRING": "EIO=4&sid=made-up", "REMOTE_ADDR": "127.0.0.1"},
          lambda status, headers: got.append(status))
    assert [got[0], status_of(limit, "/r/NOROOM")] == ["200 OK"] * 2  # the address's burst of 2, spent
    assert status_of(limit, "/").startswith("429")
    # 18.6 of the hall's 30 spent above (a file costs a tenth): eleven more pages, then refused
    assert [status_of(limit, "/r/ROOMAB")[:3] for _ in range(12)] == ["200"] * 11 + ["429"]
