"""tests/data/upstream_lines.json, the hashes of the upstream lines the references are read against
(tests/upstream.py), is upstream's: each hash is the mirror of kubernetes/autoscaler's line's, where this machine
has one. No upstream text is kept in the project."""

import pytest

from tests.upstream import MIRROR, mirror_hash, stored


def test_the_file_holds_the_lines_the_references_name():
    assert len(stored()) > 50
    assert all(len(h) == 12 and int(h, 16) >= 0 for h in stored().values())


@pytest.mark.skipif(not (MIRROR / "HEAD").exists(), reason="no mirror of kubernetes/autoscaler on this machine")
@pytest.mark.parametrize("key", sorted(stored()))
def test_each_hash_is_the_mirrors(key):
    assert stored()[key] == mirror_hash(key)
