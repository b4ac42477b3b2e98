"""The upstream text, fetched by the user's machine from the repository at the exact tag into the user's cache
directory, and read back only when every line the map names hashes as the map says (cache.py)."""
