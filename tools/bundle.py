"""``make bundle``: static/bundle made again with esbuild (package.json pins it; node_modules/.bin/esbuild).

    python -m tools.bundle [--out DIR]

Each entry set of bundles.SCRIPTS becomes one minified ES module (esbuild reads a module re-exporting the entries in
order, from the static folder, so the output is the same on every machine), importing bundles.CONNECTION's own
(connection.js beside it); bundles.STYLESHEETS, the tokens'
stylesheet made by Python first, are joined and minified into pages.css. manifest.json records, per output, the
digest of every input esbuild read (its metafile) and the esbuild version. ``--out`` writes elsewhere (the test
that the committed build is what a fresh one makes).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from webapp import ROOT
from webapp.web.bundles import (
    BUILD,
    CONNECTION,
    CONNECTION_OUTPUT,
    CSS_OUTPUT,
    MANIFEST,
    SCRIPTS,
    STYLESHEETS,
    digest,
    input_bytes,
)

STATIC = ROOT / "static"
ESBUILD = ROOT / "node_modules" / ".bin" / "esbuild"
JS_TARGET = "es2022"  # what jsconfig.json checks the modules as


class BuildError(RuntimeError):
    pass


def esbuild(args: list[str], stdin: bytes) -> bytes:
    if not ESBUILD.exists():
        raise BuildError(f"{ESBUILD} is missing: `npm ci --ignore-scripts` installs it (package.json)")
    done = subprocess.run([str(ESBUILD), *args, "--log-level=warning"], input=stdin, cwd=STATIC,
                          capture_output=True, check=False)
    if done.returncode:
        raise BuildError(done.stderr.decode(errors="replace"))
    return done.stdout


def version() -> str:
    done = subprocess.run([str(ESBUILD), "--version"], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def build_script(entries: tuple[str, ...], output: str,
                 external: tuple[str, ...] = ()) -> tuple[bytes, dict[str, str]]:
    """The minified module of ``entries`` and {input path: digest} of every file it was made from; an import of a
    path in ``external`` stays an import (of the output beside this one)."""
    source = "".join(f'export * from "./{entry}";\n' for entry in entries).encode()
    with tempfile.TemporaryDirectory() as tmp:
        meta, made = Path(tmp, "meta.json"), Path(tmp, "out.js")
        esbuild(["--bundle", "--format=esm", "--minify", f"--target={JS_TARGET}", "--charset=utf8",
                 "--legal-comments=eof", f"--sourcefile={output}", f"--outfile={made}", f"--metafile={meta}",
                 *(f"--external:{path}" for path in external)], source)
        code = made.read_bytes()
        read = sorted(path for path in json.loads(meta.read_text())["inputs"] if path != output)
    return code, {path: digest(input_bytes(STATIC, path) or b"") for path in read}


def build_css() -> tuple[bytes, dict[str, str]]:
    parts = {path: input_bytes(STATIC, path) for path in STYLESHEETS}
    missing = [path for path, data in parts.items() if data is None]
    if missing:
        raise BuildError(f"bundles.STYLESHEETS names no such file: {', '.join(missing)}")
    joined = b"\n".join(data or b"" for data in parts.values())
    code = esbuild(["--loader=css", "--minify", "--charset=utf8", "--legal-comments=eof"], joined)
    return code, {path: digest(data or b"") for path, data in parts.items()}


def build(out: Path) -> dict[str, Any]:
    """Write every output and the manifest under ``out`` (the static folder's ``bundle``); return the manifest."""
    outputs: dict[str, tuple[bytes, dict[str, str]]] = {CSS_OUTPUT: build_css()}
    outputs[CONNECTION_OUTPUT] = build_script((CONNECTION,), CONNECTION_OUTPUT)
    for entries, output in SCRIPTS.items():
        outputs[output] = build_script(entries, output, external=("./" + Path(CONNECTION).name,))
    manifest = {"esbuild": version(),
                "outputs": {output: {"inputs": inputs} for output, (_, inputs) in outputs.items()}}
    out.mkdir(parents=True, exist_ok=True)
    for output, (code, _) in outputs.items():
        (out / Path(output).relative_to(BUILD)).write_bytes(code)
    (out / Path(MANIFEST).relative_to(BUILD)).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return manifest


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=STATIC / BUILD)
    args = ap.parse_args(argv)
    try:
        manifest = build(args.out)
    except BuildError as err:
        print(f"bundle: {err}", file=sys.stderr)
        return 1
    for output in manifest["outputs"]:
        made = args.out / Path(output).relative_to(BUILD)
        print(f"{made}: {made.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
