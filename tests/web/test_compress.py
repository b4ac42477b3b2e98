"""Pages are sent gzipped to a client that accepts it (webapp/web/compress.py): the same page, smaller; never to
a client that did not ask; and nothing but HTML pages and the JSON a GET without a query asks for."""

from __future__ import annotations

import gzip

import pytest

GZIP = {"Accept-Encoding": "gzip, deflate, br"}


@pytest.mark.parametrize("path", ["/", "/editor", "/versions", "/?scenario=five-minute-wait&position=3"])
def test_a_page_is_the_same_page_gzipped(client, path):
    plain = client.get(path)
    packed = client.get(path, headers=GZIP)
    assert plain.status_code == packed.status_code == 200
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    assert int(packed.headers["Content-Length"]) == len(packed.data) < len(plain.data) / 2
    assert gzip.decompress(packed.data) == plain.data
    assert "Accept-Encoding" in plain.headers["Vary"] and "Accept-Encoding" in packed.headers["Vary"]


def test_a_client_that_does_not_accept_gzip_gets_the_page_as_made(client):
    for headers in ({}, {"Accept-Encoding": "identity"}, {"Accept-Encoding": "gzip;q=0, br"}):
        answer = client.get("/", headers=headers)
        assert "Content-Encoding" not in answer.headers and answer.data.lstrip().lower().startswith(b"<!doctype html")


def test_only_pages_and_json_that_echoes_nothing_are_compressed(client):
    plain, packed = client.get("/api/plugins"), client.get("/api/plugins", headers=GZIP)
    assert packed.headers["Content-Encoding"] == "gzip" and gzip.decompress(packed.data) == plain.data
    for answer in (client.get("/api/scenarios?x=1", headers=GZIP),  # a query: what the asker wrote may be in it
                   client.post("/api/validate", json={"text": "a: 1\n" * 400}, headers=GZIP)):
        assert answer.is_json and "Content-Encoding" not in answer.headers
    missing = client.get("/no-such-page", headers=GZIP)
    assert missing.status_code == 404 and "Content-Encoding" not in missing.headers


def test_a_head_request_announces_the_gzipped_length(client):
    get, head = client.get("/", headers=GZIP), client.head("/", headers=GZIP)
    assert head.headers["Content-Encoding"] == "gzip" and head.data == b""
    assert head.headers["Content-Length"] == get.headers["Content-Length"]
