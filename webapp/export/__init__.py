"""Offline export: a self-contained HTML viewer (bundled scripts, inlined frames) and standalone SVG frames."""
