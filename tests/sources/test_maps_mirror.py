"""The development check of the source maps: where this machine has the mirror of kubernetes/autoscaler (whose
vendored kube-scheduler files are the release tags' files), webapp/sources/releases/ is made again from the real
files (tests/sources/build.py) and must equal the committed modules; every hash is the real line's, every digest
the real file's, every function's first line is its `func` declaration and every anchor's line holds one of its
fragments."""

import re

import pytest

from tests.sources import build
from tests.sources.anchors import ANCHORS
from webapp.sources.maps import MAPS
from webapp.sources.releases import RELEASES
from webapp.sources.types import file_digest, line_hash

pytestmark = pytest.mark.skipif(not (build.MIRROR / "HEAD").exists(),
                                reason="no mirror of kubernetes/autoscaler on this machine")


def real_lines(tag: str, path: str) -> list[str]:
    return build.text_at(build.VENDORED[tag][0], path).split("\n")


def test_the_committed_lines_are_made_from_the_real_files():
    assert all(path.read_text() == text for path, text in build.modules().items())


@pytest.mark.parametrize("tag", sorted(RELEASES))
def test_every_hash_is_the_real_lines_and_every_digest_the_real_files(tag):
    for path, f in RELEASES[tag]["files"].items():
        lines = real_lines(tag, path)
        assert all(line_hash(lines[n - 1]) == h for n, h in f["hashes"].items()), path
        assert file_digest(build.blob_at(build.VENDORED[tag][0], path)) == f["digest"], path


@pytest.mark.parametrize("version", sorted(MAPS))
def test_functions_start_at_their_declaration_and_anchors_hold_their_fragments(version):
    m = MAPS[version]
    files = {path: real_lines(m.ref, path) for path in m.files}
    for path, f in m.files.items():
        lines = files[path]
        assert lines[0] == "/*" and lines[f.licence[1] - 1] == "*/" and "Licensed under the Apache License" in \
            "\n".join(lines[:f.licence[1]])
    for f in m.functions.values():
        receiver, _, name = f.name.rpartition(".")
        lines = files[f.path]
        assert re.match(rf"^func \(\w+ \*?{receiver or 'PriorityQueue'}\) {name}\(", lines[f.first - 1]) or (
            not receiver and lines[f.first - 1].startswith(f"func {name}(")), f
        assert lines[f.last - 1] == "}"
    for a in m.anchors.values():
        fragments = ANCHORS[a.key][1]
        assert any(fr in files[m.functions[a.function].path][a.lines[0] - 1] for fr in fragments), a
    for n in m.omitted:
        lines = files[m.path]
        assert "UnschedulablePlugins" in lines[n - 1] or "reset the set of unschedulable plugins" in lines[n - 1]
