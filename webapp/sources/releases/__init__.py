"""Each release tag's line facts, one module per tag, made by tests/sources/build.py from the real files."""

from types import ModuleType
from typing import Any

from . import v1_28_0, v1_28_4, v1_29_9, v1_30_14, v1_31_13, v1_33_0_alpha_0, v1_36_2

_MODULES: dict[str, ModuleType] = {"v1.28.0": v1_28_0, "v1.28.4": v1_28_4, "v1.29.9": v1_29_9,
                                   "v1.30.14": v1_30_14, "v1.31.13": v1_31_13,
                                   "v1.33.0-alpha.0": v1_33_0_alpha_0, "v1.36.2": v1_36_2}
# tag -> {vendored, anchors: {function: {key: line}}, files: {path: {licence, digest, functions: {name: (first,
# last)}, hashes: {line: hash}}}}; the first file holds PriorityQueue
RELEASES: dict[str, dict[str, Any]] = {
    tag: {"vendored": m.VENDORED, "anchors": m.ANCHORS,
          "files": {path: {"licence": licence, "digest": digest, "functions": m.FUNCTIONS[path],
                           "hashes": m.HASHES[path]} for path, (licence, digest) in m.FILES.items()}}
    for tag, m in _MODULES.items()}
