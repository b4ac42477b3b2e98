"""The source maps (webapp/sources/): one per modelled version, each function's range closed by a brace and
every anchor's lines inside its function, every line named hashed and every file's digest given; the reconstructed
versions say how, and v1.28.2 leaves out #120334's lines of Pop. From 1.32 the queue is pkg/scheduler/backend/queue:
Pop's steps are activeQueue's (active_queue.go), backoffQ's backoffQueue's (backoff_queue.go, 1.33+). The hashes
and digests are checked against the real files by test_maps_mirror.py."""

import re

import pytest

from webapp.errors import NotFound
from webapp.model.versions import VERSIONS
from webapp.sources.maps import MAPS, V1_28_2_OMITTED, source_map, tags
from webapp.sources.types import BACKEND_FILES, INTERNAL_FILES, line_hash

CLOSING = line_hash("}")


def hashes_of(m, function):
    return m.files[m.functions[function].path].hashes


def test_every_modelled_version_has_a_map():
    assert set(MAPS) == set(VERSIONS)


@pytest.mark.parametrize("version", sorted(MAPS))
def test_functions_are_closed_ranges_and_hashed(version):
    m = MAPS[version]
    for f in m.functions.values():
        assert f.first < f.last and f.path in m.files
        assert f.first in hashes_of(m, f.name) and hashes_of(m, f.name)[f.last] == CLOSING, f
    for path in m.files:
        spans = sorted((f.first, f.last) for f in m.functions.values() if f.path == path)
        assert all(a[1] < b[0] for a, b in zip(spans, spans[1:], strict=False)), f"functions overlap in {path}"


@pytest.mark.parametrize("version", sorted(MAPS))
def test_every_anchor_lies_inside_its_function_and_is_hashed(version):
    m = MAPS[version]
    for a in m.anchors.values():
        f = m.functions[a.function]
        assert all(f.first < n < f.last and n in hashes_of(m, a.function) for n in a.lines), a


@pytest.mark.parametrize("version", sorted(MAPS))
def test_every_file_has_its_licence_header_hashed_and_a_digest(version):
    for f in MAPS[version].files.values():
        assert f.licence[0] == 1 and all(n in f.hashes for n in range(f.licence[0], f.licence[1] + 1))
        assert re.fullmatch("[0-9a-f]{64}", f.digest), f.path


def test_the_same_function_declaration_hashes_alike_where_its_signature_did_not_change():
    """Pop's declaration is v1.28's `Pop()` in v1.28.0 and v1.28.4, `Pop(logger)` from 1.29 on."""
    pop = {v: hashes_of(m, "Pop")[m.functions["Pop"].first] for v, m in MAPS.items()}
    assert pop["v1.28.1"] == pop["v1.28.2"] == pop["v1.28.4"] != pop["v1.29.9"] == pop["v1.31.13"] == pop["v1.36.2"]


def test_reconstructed_versions_say_how():
    assert {v for v, m in MAPS.items() if m.reconstructed} == {"v1.28.1", "v1.28.2", "v1.28.5", "v1.32.0"}
    v2, v4 = MAPS["v1.28.2"], MAPS["v1.28.4"]
    assert v2.ref == v4.ref == "v1.28.4" and v2.omitted == V1_28_2_OMITTED
    assert "pop.clear" in v4.anchors and "pop.clear" not in v2.anchors
    assert v4.anchors["pop.clear"].lines[0] in v2.omitted
    assert all(str(n) in v2.reconstructed for n in v2.omitted)
    assert MAPS["v1.32.0"].ref == "v1.33.0-alpha.0" and "v1.33.0-alpha.0" in MAPS["v1.32.0"].reconstructed


def test_the_fix_is_in_the_anchors():
    """v1.28.1 walks from the marker's Next(); v1.28.2 on from the pod's own entry, skipping pod entries."""
    assert {"pop.marker", "dh.marker_next", "done.decrement"} <= set(MAPS["v1.28.1"].anchors)
    assert not {"pop.entry", "dh.pod_entry", "done.remove_own"} & set(MAPS["v1.28.1"].anchors)
    assert {"pop.entry", "dh.pod_entry", "done.remove_own", "done.prune_remove"} <= set(MAPS["v1.28.2"].anchors)


def test_the_queue_files_of_each_layout():
    assert tuple(MAPS["v1.31.13"].files) == INTERNAL_FILES
    assert tuple(MAPS["v1.32.0"].files) == BACKEND_FILES[:2]  # backoffQ is still a heap of PriorityQueue
    assert tuple(MAPS["v1.36.2"].files) == BACKEND_FILES


@pytest.mark.parametrize("version", ["v1.32.0", "v1.36.2"])
def test_pop_calls_activeq_pop_whose_steps_are_in_active_queue_go(version):
    m = MAPS[version]
    active = "pkg/scheduler/backend/queue/active_queue.go"
    assert m.anchors["pop.call"].function == "Pop" and m.functions["Pop"].path == BACKEND_FILES[0]
    for key in ("pop.take", "pop.attempts", "pop.in_flight", "pop.discard", "pop.entry", "pop.cycle"):
        assert m.functions[m.anchors[key].function].path == active, key
    assert m.functions[m.anchors["done.prune_remove"].function].path == active


def test_v1_36_2_pops_from_backoffq_and_splits_its_heaps():
    m = MAPS["v1.36.2"]
    backoff = "pkg/scheduler/backend/queue/backoff_queue.go"
    assert m.anchors["pop.from_backoff"].function == "activeQueue.unlockedPop"
    assert {m.functions[m.anchors[k].function].path for k in ("pop.backoff_head", "bq.heap", "bq.error_heap")} == \
        {backoff}
    assert "requeuePodWithQueueingStrategy" in m.functions and "requeuePodViaQueueingHint" not in m.functions
    assert {"aup.errors", "aup.unschedulable_count", "act.force", "ps.move"} <= set(m.anchors)
    assert not {"pop.from_backoff", "aup.errors"} & set(MAPS["v1.32.0"].anchors)
    assert "pop.clear" in MAPS["v1.32.0"].anchors and "pop.clear" not in m.anchors  # plugins cleared at failure


def test_the_json_interface():
    j = source_map("v1.28.2").as_json()
    assert j["version"] == "v1.28.2" and j["repository"] == "kubernetes/kubernetes" and j["ref"] == "v1.28.4"
    (path, file), = j["files"].items()
    assert path == "pkg/scheduler/internal/queue/scheduling_queue.go"
    assert file["functions"]["Pop"] == [MAPS["v1.28.2"].functions["Pop"].first, MAPS["v1.28.2"].functions["Pop"].last]
    assert j["url"] == file["url"] == f"https://raw.githubusercontent.com/kubernetes/kubernetes/v1.28.4/{path}"
    assert file["sha256"] == MAPS["v1.28.2"].files[path].digest
    files = source_map("v1.36.2").as_json()["files"]
    assert list(files) == list(BACKEND_FILES)
    assert "activeQueue.unlockedPop" in files[BACKEND_FILES[1]]["functions"]
    assert "pop.take" in files[BACKEND_FILES[1]]["anchors"] and "pop.call" in files[BACKEND_FILES[0]]["anchors"]


def test_an_unknown_version_is_not_found():
    with pytest.raises(NotFound, match="v9.9.9"):
        source_map("v9.9.9")


def test_one_text_per_tag():
    assert sorted(tags()) == ["v1.28.0", "v1.28.4", "v1.29.9", "v1.30.14", "v1.31.13", "v1.33.0-alpha.0", "v1.36.2"]
