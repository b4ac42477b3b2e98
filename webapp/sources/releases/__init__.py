"""Each release tag's line facts, one module per tag, made by tests/sources/build.py from the real files."""

from types import ModuleType
from typing import Any

from . import v1_28_0, v1_28_4, v1_29_9, v1_30_14, v1_31_13

_MODULES: dict[str, ModuleType] = {"v1.28.0": v1_28_0, "v1.28.4": v1_28_4, "v1.29.9": v1_29_9,
                                   "v1.30.14": v1_30_14, "v1.31.13": v1_31_13}
# tag -> {vendored, licence, functions: {name: (first, last)}, anchors: {function: {key: line}}, hashes: {line: hash}}
RELEASES: dict[str, dict[str, Any]] = {
    tag: {"vendored": m.VENDORED, "licence": m.LICENCE, "functions": m.FUNCTIONS,
          "anchors": m.ANCHORS, "hashes": m.HASHES} for tag, m in _MODULES.items()}
