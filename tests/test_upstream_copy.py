"""tests/data/upstream.json.gz, the upstream source the references are read against (tests/upstream.py), is the
upstream source: each file in it equals the mirror of kubernetes/autoscaler's, where this machine has one."""

import pytest

from tests.upstream import MIRROR, copy, from_mirror


def test_the_copy_holds_the_files_the_references_name():
    assert copy(), "tests/data/upstream.json.gz is missing or empty"
    assert all(text.count("\n") > 50 for text in copy().values())


@pytest.mark.skipif(not (MIRROR / "HEAD").exists(), reason="no mirror of kubernetes/autoscaler on this machine")
@pytest.mark.parametrize("key", sorted(copy()))
def test_each_file_equals_the_mirrors(key):
    commit, path = key.split(":", 1)
    assert copy()[key] == from_mirror(commit, path)
