"""Build tools: they make the client's committed files (static/bundle, and static/js's generated modules) from the
runtime package's facts. They import webapp; nothing in webapp imports them (tests/test_layers.py)."""
