"""The development check of the source maps: where this machine has the mirror of kubernetes/autoscaler (whose
vendored kube-scheduler files are the release tags' files), webapp/sources/releases/ is made again from the real
files (tests/sources/build.py) and must equal the committed modules; every hash is the real line's, every function's
first line is its `func` declaration and every anchor's line holds one of its fragments."""

import re

import pytest

from tests.sources import build
from tests.sources.anchors import ANCHORS
from webapp.sources.maps import MAPS
from webapp.sources.releases import RELEASES
from webapp.sources.types import line_hash

pytestmark = pytest.mark.skipif(not (build.MIRROR / "HEAD").exists(),
                                reason="no mirror of kubernetes/autoscaler on this machine")


def real_lines(tag: str) -> list[str]:
    return build.text_at(build.VENDORED[tag]).split("\n")


def test_the_committed_lines_are_made_from_the_real_files():
    assert all(path.read_text() == text for path, text in build.modules().items())


@pytest.mark.parametrize("tag", sorted(RELEASES))
def test_every_hash_is_the_real_lines(tag):
    lines = real_lines(tag)
    assert all(line_hash(lines[n - 1]) == h for n, h in RELEASES[tag]["hashes"].items())


@pytest.mark.parametrize("version", sorted(MAPS))
def test_functions_start_at_their_declaration_and_anchors_hold_their_fragments(version):
    m = MAPS[version]
    lines = real_lines(m.ref)
    assert lines[0] == "/*" and lines[m.licence[1] - 1] == "*/" and "Licensed under the Apache License" in \
        "\n".join(lines[:m.licence[1]])
    for f in m.functions.values():
        assert re.match(rf"^func (\(\w+ \*?\w+\) )?{f.name}\(", lines[f.first - 1]), f
        assert lines[f.last - 1] == "}"
    for a in m.anchors.values():
        fragments = ANCHORS[a.key][1]
        assert any(fr in lines[a.lines[0] - 1] for fr in fragments), a
    for n in m.omitted:
        assert "UnschedulablePlugins" in lines[n - 1] or "reset the set of unschedulable plugins" in lines[n - 1]
