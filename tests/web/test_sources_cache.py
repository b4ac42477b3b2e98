"""GET /api/sources/VERSION on a real server offers the cached upstream text only while each file is the release's
byte for byte (its sha256): a cache whose file was changed where no line is hashed gives the paraphrase, not that
text. The cache is filled from the mirror of kubernetes/autoscaler, where this machine has it (the project carries
no upstream text). Both async modes."""

import pytest
import requests

from tests.cli.test_sources_cli import unhashed_line
from tests.sources import build
from tests.web.liveserver import ROOT, LiveServer
from webapp.sources.maps import MAPS
from webapp.upstream.cache import cache_path

LOGS = ROOT / "test-artifacts" / "server-logs"
TIMEOUT = 30.0  # a bound against a hang: every request ends as soon as it is answered
VERSION = "v1.36.2"

pytestmark = pytest.mark.skipif(not (build.MIRROR / "HEAD").exists(), reason="no mirror of kubernetes/autoscaler")


def fill(home, tampered: str | None) -> None:
    m = MAPS[VERSION]
    for path in m.files:
        data = build.blob_at(build.VENDORED[m.ref][0], path)
        if path == tampered:
            lines = data.split(b"\n")
            n = unhashed_line(VERSION, path, lines)
            lines[n] += b" // changed"
            data = b"\n".join(lines)
        target = cache_path(m, home / "inflight-scope" / "sources", path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


@pytest.mark.parametrize("mode", ["eventlet", "threading"])
def test_a_cached_file_changed_anywhere_is_not_offered(tmp_path, mode):
    genuine, tampered = tmp_path / "genuine", tmp_path / "tampered"
    fill(genuine, None)
    fill(tampered, MAPS[VERSION].functions["activeQueue.unlockedPop"].path)
    for home, offered in ((genuine, True), (tampered, False)):
        with LiveServer(mode, LOGS, env={"XDG_CACHE_HOME": str(home)}) as server:
            payload = requests.get(f"{server.url}/api/sources/{VERSION}", timeout=TIMEOUT).json()
        assert (payload["text"] is not None) is offered, home
        if offered:
            assert "activeQueue.unlockedPop" in payload["text"]["functions"]
