"""Delivery without I/O: what each channel (a connection, or a room) is sent after a command, and what it then
holds (protocol.py), from what its session shows (snapshot.py) and the one cache of messages (cache.py). It
knows no socket, no Flask and no engine: the transport (web/) reads the session, calls it, emits and schedules."""
