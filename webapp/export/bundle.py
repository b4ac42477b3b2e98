"""A tiny bundler for our own ES modules: one entry module and its relative imports -> one classic script.

Understood, and nothing else:

    import { a, b as c } from "./x.js";         ->  const { a, b: c } = __mod("x.js");
    export [async] function NAME / export class NAME / export const NAME = (one declarator)
                                                  ->  a local, returned in the module's exports
    /** @import { T } from "./x.js" */            ->  nothing (a type for the checker alone)

Each module becomes a function with its own scope, run once on first use (dependencies first, in import order,
as ES modules are). Any other import or export form (default, re-export, namespace, side-effect or dynamic
import, `export let`), a path outside the root, a missing file or an import cycle raises BundleError, so a
change to the front end cannot silently break the offline export.
"""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path

IMPORT = re.compile(r'^import\s*\{([^}]*)\}\s*from\s*(["\'])([^"\']+)\2\s*;?[ \t]*$', re.MULTILINE)
EXPORT = re.compile(r"^export\s+(?=(?:async\s+)?(?:function|class|const)\s+([A-Za-z_$][\w$]*))", re.MULTILINE)
SPECIFIER = re.compile(r"^([A-Za-z_$][\w$]*)(?:\s+as\s+([A-Za-z_$][\w$]*))?$")
TYPE_IMPORT = re.compile(r'^/\*\*\s*@import\s*\{[^}]*\}\s*from\s*"[^"]+"\s*\*/[ \t]*\n', re.MULTILINE)
LEFTOVER = re.compile(r"^[ \t]*(import|export)\b.*|\bimport\s*\(.*|\bimport\.meta\b.*", re.MULTILINE)


class BundleError(ValueError):
    pass


class Module:
    def __init__(self, key: str, source: str):
        self.key = key
        self.exports: list[str] = []
        self.imports: list[str] = []  # keys of the modules it imports, in order
        self.body = EXPORT.sub(self._export, IMPORT.sub(self._import, TYPE_IMPORT.sub("", source)))
        leftover = LEFTOVER.search(self.body)
        if leftover:
            raise BundleError(f"{key}: unsupported module syntax: {leftover.group(0).strip()!r}")

    def _import(self, match: re.Match[str]) -> str:
        path = match.group(3)
        if not path.startswith(("./", "../")):
            raise BundleError(f"{self.key}: only relative imports are bundled, got {path!r}")
        key = posixpath.normpath(posixpath.join(posixpath.dirname(self.key), path))
        bindings = []
        for spec in filter(None, (s.strip() for s in match.group(1).split(","))):
            names = SPECIFIER.match(spec)
            if not names:
                raise BundleError(f"{self.key}: unsupported import specifier {spec!r}")
            name, alias = names.groups()
            bindings.append(f"{name}: {alias}" if alias else name)
        self.imports.append(key)
        return f"const {{ {', '.join(bindings)} }} = __mod({json.dumps(key)});"

    def _export(self, match: re.Match[str]) -> str:
        self.exports.append(match.group(1))
        return ""

    def definition(self) -> str:
        return (f"{json.dumps(self.key)}: function () {{\n{self.body.rstrip()}\n"
                f"return {{ {', '.join(self.exports)} }};\n}},")


def bundle(entry: Path, root: Path | None = None) -> str:
    """One classic script that runs ``entry``; every import must resolve to a file inside ``root``
    (default: the entry's directory)."""
    entry = Path(entry).resolve()
    root = Path(root).resolve() if root else entry.parent
    modules: dict[str, Module] = {}  # dependencies before the modules that import them

    def visit(key: str, chain: tuple[str, ...]) -> None:
        if key in chain:
            raise BundleError(f"import cycle: {' -> '.join((*chain, key))}")
        if key in modules:
            return
        where = chain[-1] if chain else "entry"
        path = (root / key).resolve()
        if key.startswith("../") or not path.is_relative_to(root):
            raise BundleError(f"{where}: {key!r} is outside {root}")
        if not path.is_file():
            raise BundleError(f"{where}: no module file {path}")
        module = Module(key, path.read_text(encoding="utf-8"))
        for dependency in module.imports:
            visit(dependency, (*chain, key))
        modules[key] = module

    entry_key = entry.relative_to(root).as_posix()
    visit(entry_key, ())
    definitions = "\n".join(m.definition() for m in modules.values())
    return ('(() => {\n"use strict";\nconst __definitions = {\n' + definitions + "\n};\n"
            "const __exports = {};\n"
            "function __mod(key) {\n"
            "  if (!(key in __exports)) __exports[key] = __definitions[key]();\n"
            "  return __exports[key];\n"
            "}\n"
            f"__mod({json.dumps(entry_key)});\n}})();\n")
