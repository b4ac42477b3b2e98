"""The pages' static files under a versioned address (webapp/web/assets.py): kept by browsers for good, a new
address whenever a file's content changes, and nothing reachable outside the static folder."""

import gzip
import os
import re

import pytest

from webapp.web.assets import KEPT_SECONDS, Gzipped, Version

PAGES = ["/?scenario=lost-marker", "/present?scenario=lost-marker", "/editor", "/embed?scenario=lost-marker"]


def named_files(client, page: str) -> list[str]:
    return re.findall(r'(?:href|src)="(/static/[^"]+)"', client.get(page).get_data(as_text=True))


@pytest.mark.parametrize("page", PAGES)
def test_a_page_names_every_file_under_one_version_and_each_is_kept_for_good(client, page):
    files = named_files(client, page)
    assert files, f"{page} names no static file"
    versions = {re.match(r"/static/v/(\w+)/", url).group(1) for url in files}
    assert len(versions) == 1, files
    for url in files:
        answer = client.get(url)
        assert answer.status_code == 200, url
        cache = answer.cache_control
        assert cache.public and cache.immutable and cache.max_age == KEPT_SECONDS and not cache.no_cache, url


def test_another_version_is_answered_with_the_current_file_but_not_kept(client):
    url = named_files(client, "/?scenario=lost-marker")[0]
    old = re.sub(r"/static/v/\w+/", "/static/v/000000000000/", url)
    answer, current = client.get(old), client.get(url)
    assert answer.status_code == 200 and answer.data == current.data
    assert answer.cache_control.no_cache and not answer.cache_control.immutable


def test_the_plain_static_address_is_still_asked_again_each_time(client):
    answer = client.get("/static/js/app.js")
    assert answer.status_code == 200 and answer.cache_control.no_cache


@pytest.mark.parametrize("path", ["../pyproject.toml", "%2e%2e/pyproject.toml", "..%2fwebapp/__init__.py",
                                  "js/../../templates/base.html", "/etc/passwd", "js/no-such.js"])
def test_nothing_outside_the_static_folder_is_served(client, path):
    url = named_files(client, "/?scenario=lost-marker")[0]
    prefix = re.match(r"/static/v/\w+/", url).group(0)
    assert client.get(prefix + path).status_code == 404


def test_the_version_follows_the_content(tmp_path):
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "a.js").write_text("export const a = 1;\n")
    (tmp_path / "b.css").write_text("body {}\n")
    version = Version(tmp_path, check_seconds=0)
    first = version.current()
    assert re.fullmatch(r"[0-9a-f]{12}", first)
    assert version.current() == first  # nothing changed
    os.utime(tmp_path / "b.css", ns=(1, 1))  # touched, same content: read again, the same version
    assert version.current() == first
    (tmp_path / "js" / "a.js").write_text("export const a = 2;\n")  # same size, other content
    second = version.current()
    assert second != first
    (tmp_path / "js" / "c.js").write_text("")  # a new file
    assert version.current() not in (first, second)
    assert Version(tmp_path).current() == version.current()  # a second process on the same files agrees


def test_a_changed_file_is_seen_only_after_the_check_interval(tmp_path):
    (tmp_path / "a.js").write_text("1")
    version = Version(tmp_path, check_seconds=3600)
    first = version.current()
    (tmp_path / "a.js").write_text("2")
    assert version.current() == first  # within the interval nothing is looked at


def test_text_files_are_sent_gzipped_to_a_browser_that_accepts_it(client):
    files = named_files(client, "/?scenario=lost-marker")
    plain_total = sent_total = 0
    for url in files:
        plain = client.get(url)
        packed = client.get(url, headers={"Accept-Encoding": "gzip, deflate, br"})
        assert plain.headers.get("Content-Encoding") is None, url  # asked for nothing: the file as it is
        assert packed.headers["Content-Encoding"] == "gzip", url  # every page file is text
        assert gzip.decompress(packed.data) == plain.data, url
        assert packed.headers["Content-Type"] == plain.headers["Content-Type"], url
        assert "Accept-Encoding" in packed.headers["Vary"] and "Accept-Encoding" in plain.headers["Vary"], url
        assert packed.cache_control.immutable and packed.cache_control.max_age == KEPT_SECONDS, url
        plain_total += len(plain.data)
        sent_total += len(packed.data)
    assert sent_total < plain_total / 2


def test_gzip_refused_by_quality_zero_and_missing_files_stay_404(client):
    url = named_files(client, "/?scenario=lost-marker")[0]
    assert "Content-Encoding" not in client.get(url, headers={"Accept-Encoding": "gzip;q=0"}).headers
    prefix = re.match(r"/static/v/\w+/", url).group(0)
    assert client.get(prefix + "js/no-such.js", headers={"Accept-Encoding": "gzip"}).status_code == 404
    assert client.get(prefix + "../pyproject.toml", headers={"Accept-Encoding": "gzip"}).status_code == 404


def test_a_gzipped_file_follows_its_content(tmp_path):
    (tmp_path / "a.js").write_text("export const a = 1;\n" * 50)
    gzipped = Gzipped()
    first = gzipped.get("v1", str(tmp_path / "a.js"))
    assert gzip.decompress(first) == (tmp_path / "a.js").read_bytes()
    (tmp_path / "a.js").write_text("export const a = 2;\n" * 50)
    assert gzipped.get("v1", str(tmp_path / "a.js")) == first  # made once per version
    assert gzip.decompress(gzipped.get("v2", str(tmp_path / "a.js"))) == (tmp_path / "a.js").read_bytes()
    (tmp_path / "tiny.css").write_text("a{}")
    assert gzipped.get("v2", str(tmp_path / "tiny.css")) is None  # gzip would make it larger
    (tmp_path / "b.png").write_bytes(b"\x89PNG" + b"\0" * 500)
    assert gzipped.get("v2", str(tmp_path / "b.png")) is None  # not text
