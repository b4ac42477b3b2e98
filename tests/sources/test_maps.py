"""The source maps (webapp/sources/): one per modelled version, each function's range closed by a brace and
every anchor's lines inside its function, every line named hashed; the reconstructed versions say how, and v1.28.2
leaves out #120334's lines of Pop. The hashes are checked against the real files by test_maps_mirror.py."""

import pytest

from webapp.errors import NotFound
from webapp.model.versions import VERSIONS
from webapp.sources.maps import MAPS, V1_28_2_OMITTED, source_map, tags
from webapp.sources.types import line_hash

CLOSING = line_hash("}")


def test_every_modelled_version_has_a_map():
    assert set(MAPS) == set(VERSIONS)


@pytest.mark.parametrize("version", sorted(MAPS))
def test_functions_are_closed_ranges_and_hashed(version):
    m = MAPS[version]
    for f in m.functions.values():
        assert f.first < f.last
        assert f.first in m.hashes and m.hashes[f.last] == CLOSING, f
    spans = sorted((f.first, f.last) for f in m.functions.values())
    assert all(a[1] < b[0] for a, b in zip(spans, spans[1:], strict=False)), "functions overlap"


@pytest.mark.parametrize("version", sorted(MAPS))
def test_every_anchor_lies_inside_its_function_and_is_hashed(version):
    m = MAPS[version]
    for a in m.anchors.values():
        f = m.functions[a.function]
        assert all(f.first < n < f.last and n in m.hashes for n in a.lines), a


@pytest.mark.parametrize("version", sorted(MAPS))
def test_the_licence_header_is_hashed(version):
    m = MAPS[version]
    assert m.licence[0] == 1 and all(n in m.hashes for n in range(m.licence[0], m.licence[1] + 1))


def test_the_same_function_declaration_hashes_alike_where_its_signature_did_not_change():
    """Pop's declaration is v1.28's `Pop()` in v1.28.0 and v1.28.4, `Pop(logger)` from 1.29 on."""
    pop = {v: m.hashes[m.functions["Pop"].first] for v, m in MAPS.items()}
    assert pop["v1.28.1"] == pop["v1.28.2"] == pop["v1.28.4"] != pop["v1.29.9"] == pop["v1.31.13"]


def test_reconstructed_versions_say_how():
    assert {v for v, m in MAPS.items() if m.reconstructed} == {"v1.28.1", "v1.28.2", "v1.28.5"}
    v2, v4 = MAPS["v1.28.2"], MAPS["v1.28.4"]
    assert v2.ref == v4.ref == "v1.28.4" and v2.omitted == V1_28_2_OMITTED
    assert "pop.clear" in v4.anchors and "pop.clear" not in v2.anchors
    assert v4.anchors["pop.clear"].lines[0] in v2.omitted
    assert all(str(n) in v2.reconstructed for n in v2.omitted)


def test_the_fix_is_in_the_anchors():
    """v1.28.1 walks from the marker's Next(); v1.28.2 on from the pod's own entry, skipping pod entries."""
    assert {"pop.marker", "dh.marker_next", "done.decrement"} <= set(MAPS["v1.28.1"].anchors)
    assert not {"pop.entry", "dh.pod_entry", "done.remove_own"} & set(MAPS["v1.28.1"].anchors)
    assert {"pop.entry", "dh.pod_entry", "done.remove_own", "done.prune_remove"} <= set(MAPS["v1.28.2"].anchors)


def test_the_json_interface():
    j = source_map("v1.28.2").as_json()
    assert j["version"] == "v1.28.2" and j["repository"] == "kubernetes/kubernetes" and j["ref"] == "v1.28.4"
    (path, file), = j["files"].items()
    assert path == "pkg/scheduler/internal/queue/scheduling_queue.go"
    assert file["functions"]["Pop"] == [MAPS["v1.28.2"].functions["Pop"].first, MAPS["v1.28.2"].functions["Pop"].last]
    assert j["url"] == f"https://raw.githubusercontent.com/kubernetes/kubernetes/v1.28.4/{path}"


def test_an_unknown_version_is_not_found():
    with pytest.raises(NotFound, match="v9.9.9"):
        source_map("v9.9.9")


def test_one_text_per_tag():
    assert sorted(tags()) == ["v1.28.0", "v1.28.4", "v1.29.9", "v1.30.14", "v1.31.13"]
