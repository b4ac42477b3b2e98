"""Where a room lives: what it *is* — its scenario and position — kept so that any process can serve it.

A record: {"code", "token", "source" (built-in id or scenario object, or None before the first load), "variants",
"range", "position", "playing", "version", "epoch"}; ``playing``: whether its autoplay runs (on whichever process);
``version`` grows by one with every change, written by ``replace(record, previous)`` only over the version its
writer read (None: none stored), so two writers never give two changes one version; ``epoch`` is drawn afresh each
time a room is created, so a room created again under the same code (after its record was lost) is told apart from
the old one even where their versions are equal.
A room's live poll is kept beside its record (it does not change what the room shows, so no version):
``set_poll(code, poll)`` / ``poll(code)``, and one answer per voter, ``answer(code, voter, value, limit, address,
per_address)`` (polls.COUNTED; polls.FULL: the poll already has ``limit`` voters and this one is new;
polls.ADDRESS_FULL: ``address`` has given ``per_address`` of them, 0: no bound) / ``answers(code)``,
``answer_of(code, voter)`` (a follower back after a reload is shown its own), ``clear_answers(code)`` (a new poll
starts with none); and whether the presenter has blanked the followers' screens, ``set_blank(code, on)`` /
``blank(code)`` (a follower joining then sees the blank, not the slide); and the nonce of the room's remote link
(engine/remote.py), ``set_remote(code, nonce)`` (None: revoked) / ``remote(code)``, dropped with the room. A room's
vote on its next action (votes.py) is kept as a poll is, under the name ``votes.box(code)``, dropped with the room;
the forks its votes took, its path: ``push_turn(code, turn)``, ``turns(code)`` (oldest first), ``pop_turn(code)``
(the last, undone); the polls it revealed, the same way under ``votes.asked(code)``. A room's summary, posted after
the talk, is kept ``keep_summary(key, page, seconds)`` / ``summary(key)`` (None once it is no longer kept), apart
from any room.
Who is in a room is counted per process:
``set_members(code, process, n)`` records this process's count and answers the total over every process;
``members(code)`` is that total (0: nobody anywhere). MemoryRoomStore serves one process; RedisRoomStore shares
rooms between processes.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any, NotRequired, TypedDict

from ..errors import Unavailable
from .polls import ADDRESS_FULL, COUNTED, FULL, Answer, Poll
from .votes import asked, box


class RoomRecord(TypedDict):
    """What the store holds of a room: rooms.py makes it and saves every move as its next ``version``."""

    code: str
    token: str  # HMAC(secret, code)
    epoch: str  # which incarnation: a room made again under the same code counts its versions from 0 again
    version: int
    source: Any  # what was loaded (a built-in's id or a scenario object, as JSON); None before the first load
    variants: list[str] | None
    range: list[int] | None
    position: int
    playing: bool
    speed: NotRequired[float]  # absent from a record an older release wrote
    load_id: NotRequired[str | None]


class RoomsUnavailable(Unavailable):
    """The shared store cannot be reached: rooms are refused, private sessions keep working."""


class MemoryRoomStore:
    def __init__(self) -> None:
        self._records: dict[str, RoomRecord] = {}
        self._polls: dict[str, Poll | None] = {}
        self._answers: dict[str, dict[str, Answer]] = {}
        self._members: dict[str, dict[str, int]] = {}
        self._blank: set[str] = set()
        self._remotes: dict[str, str] = {}
        self._by_address: dict[str, dict[str, int]] = {}  # code -> address -> voters it gave the poll
        self._turns: dict[str, list[Any]] = {}
        self._summaries: dict[str, tuple[float, Any]] = {}  # key -> (until, page)

    def add(self, record: RoomRecord) -> bool:
        """Store a new room; False if the code is taken."""
        if record["code"] in self._records:
            return False
        self._records[record["code"]] = record.copy()
        return True

    def get(self, code: str) -> RoomRecord | None:
        record = self._records.get(code)
        return record.copy() if record is not None else None

    def replace(self, record: RoomRecord, previous: int | None) -> bool:
        stored = self._records.get(record["code"])
        if (stored["version"] if stored is not None else None) != previous:
            return False
        self._records[record["code"]] = record.copy()
        return True

    def drop(self, code: str) -> None:
        self._records.pop(code, None)
        self._turns.pop(code, None)
        self._turns.pop(asked(code), None)
        for name in (code, box(code)):
            self._polls.pop(name, None)
            self._answers.pop(name, None)
            self._by_address.pop(name, None)
        self._members.pop(code, None)
        self._blank.discard(code)
        self._remotes.pop(code, None)

    def push_turn(self, code: str, turn: Any) -> None:
        self._turns.setdefault(code, []).append(turn)

    def turns(self, code: str) -> list[Any]:
        return list(self._turns.get(code, []))

    def pop_turn(self, code: str) -> Any:
        turns = self._turns.get(code)
        return turns.pop() if turns else None

    def keep_summary(self, key: str, page: Any, seconds: float) -> None:
        now = time.time()
        self._summaries = {k: kept for k, kept in self._summaries.items() if kept[0] > now}
        self._summaries[key] = (now + seconds, page)

    def summary(self, key: str) -> Any:
        kept = self._summaries.get(key)
        return kept[1] if kept is not None and kept[0] > time.time() else None

    def codes(self) -> list[str]:
        return list(self._records)

    def set_members(self, code: str, process: str, count: int) -> int:
        counts = self._members.setdefault(code, {})
        if count:
            counts[process] = count
        else:
            counts.pop(process, None)
        return sum(counts.values())

    def members(self, code: str) -> int:
        return sum(self._members.get(code, {}).values())

    def set_poll(self, code: str, poll: Poll | None) -> None:
        self._polls[code] = poll

    def clear_answers(self, code: str) -> None:
        self._answers.pop(code, None)
        self._by_address.pop(code, None)

    def poll(self, code: str) -> Poll | None:
        return self._polls.get(code)

    def answer(self, code: str, voter: str, value: Answer, limit: int, address: str = "", per_address: int = 0) -> int:
        answers = self._answers.setdefault(code, {})
        given = self._by_address.setdefault(code, {})
        if voter not in answers:
            if len(answers) >= limit:
                return FULL
            if per_address and given.get(address, 0) >= per_address:
                return ADDRESS_FULL
            given[address] = given.get(address, 0) + 1
        answers[voter] = value
        return COUNTED

    def answers(self, code: str) -> list[Answer]:
        return list(self._answers.get(code, {}).values())

    def answer_of(self, code: str, voter: str) -> Answer | None:
        return self._answers.get(code, {}).get(voter)

    def set_blank(self, code: str, on: bool) -> None:
        (self._blank.add if on else self._blank.discard)(code)

    def blank(self, code: str) -> bool:
        return code in self._blank

    def set_remote(self, code: str, nonce: str | None) -> None:
        if nonce is None:
            self._remotes.pop(code, None)
        else:
            self._remotes[code] = nonce

    def remote(self, code: str) -> str | None:
        return self._remotes.get(code)


# KEYS[1] a room's record; ARGV the new record, the version the writer read (-1: none stored), ttl: 1 if written, 0
# if the stored version is another (a process or greenlet wrote in between).
REPLACE = """
local raw = redis.call('GET', KEYS[1])
local stored = -1
if raw then
  stored = cjson.decode(raw)['version']
end
if stored ~= tonumber(ARGV[2]) then
  return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'EX', tonumber(ARGV[3]))
return 1
"""


# KEYS[1] the answers of a poll, KEYS[2] the voters each address gave it; ARGV voter, answer, limit, ttl,
# address, per-address limit (0: none): 1 if recorded, 0 if the poll has ``limit`` voters and this one is new, -1 if
# the address has given ``per_address`` voters and this one is new.
ANSWER = """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then
  if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then
    return 0
  end
  local given = tonumber(redis.call('HGET', KEYS[2], ARGV[5]) or '0')
  if tonumber(ARGV[6]) > 0 and given >= tonumber(ARGV[6]) then
    return -1
  end
  redis.call('HINCRBY', KEYS[2], ARGV[5], 1)
  redis.call('EXPIRE', KEYS[2], tonumber(ARGV[4]))
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[4]))
return 1
"""


class RedisRoomStore:
    PREFIX = "inflight-scope:room:"
    POLL = "inflight-scope:poll:"  # not under PREFIX: codes() lists rooms only
    ANSWERS = "inflight-scope:answers:"
    ADDRESSES = "inflight-scope:answer-addresses:"  # address -> voters it gave the poll
    MEMBERS = "inflight-scope:members:"  # process -> connections in the room there
    BLANK = "inflight-scope:blank:"  # present while the presenter has blanked the followers' screens
    REMOTE = "inflight-scope:remote:"  # the nonce of the room's remote link (engine/remote.py)
    TURNS = "inflight-scope:turns:"  # the forks the room's votes took, oldest first (and the polls it revealed)
    SUMMARY = "inflight-scope:summary:"  # a room's summary, posted after the talk

    def __init__(self, url: str, idle_seconds: int):
        import redis  # only needed when rooms are shared

        self._errors = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
        self._redis = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        self._ttl = idle_seconds  # a room nobody touches for this long expires
        self._answer = self._redis.register_script(ANSWER)
        self._replace = self._redis.register_script(REPLACE)

    def _call(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except self._errors as err:
            raise RoomsUnavailable(
                f"rooms are unavailable: the shared store (Redis) cannot be reached ({err.__class__.__name__}); "
                "your own session still works") from None

    def add(self, record: RoomRecord) -> bool:
        return bool(self._call(self._redis.set, self.PREFIX + record["code"], json.dumps(record), nx=True,
                               ex=self._ttl))

    def get(self, code: str) -> RoomRecord | None:
        raw = self._call(self._redis.get, self.PREFIX + code)
        return json.loads(raw) if raw is not None else None

    def replace(self, record: RoomRecord, previous: int | None) -> bool:
        return bool(self._call(self._replace, keys=[self.PREFIX + record["code"]],
                               args=[json.dumps(record), -1 if previous is None else previous, self._ttl]))

    def drop(self, code: str) -> None:
        named = (key + name for key in (self.POLL, self.ANSWERS, self.ADDRESSES) for name in (code, box(code)))
        self._call(self._redis.delete, self.PREFIX + code, self.MEMBERS + code, self.BLANK + code, self.TURNS + code,
                   self.TURNS + asked(code), self.REMOTE + code, *named)

    def push_turn(self, code: str, turn: Any) -> None:
        pipe = self._redis.pipeline()
        pipe.rpush(self.TURNS + code, json.dumps(turn))
        pipe.expire(self.TURNS + code, self._ttl)
        self._call(pipe.execute)

    def turns(self, code: str) -> list[Any]:
        return [json.loads(raw) for raw in self._call(self._redis.lrange, self.TURNS + code, 0, -1)]

    def pop_turn(self, code: str) -> Any:
        raw = self._call(self._redis.rpop, self.TURNS + code)
        return json.loads(raw) if raw is not None else None

    def keep_summary(self, key: str, page: Any, seconds: float) -> None:
        self._call(self._redis.set, self.SUMMARY + key, json.dumps(page), ex=max(1, int(seconds)))

    def summary(self, key: str) -> Any:
        raw = self._call(self._redis.get, self.SUMMARY + key)
        return json.loads(raw) if raw is not None else None

    def codes(self) -> list[str]:
        keys = self._call(self._redis.keys, self.PREFIX + "*")
        return [k.decode()[len(self.PREFIX):] for k in keys]

    def set_members(self, code: str, process: str, count: int) -> int:
        pipe = self._redis.pipeline()  # MULTI/EXEC: the total read is the one just written to
        if count:
            pipe.hset(self.MEMBERS + code, process, count)
        else:
            pipe.hdel(self.MEMBERS + code, process)
        pipe.expire(self.MEMBERS + code, self._ttl)  # a process that died leaves its count for this long at most
        pipe.hvals(self.MEMBERS + code)
        return sum(int(v) for v in self._call(pipe.execute)[-1])

    def members(self, code: str) -> int:
        return sum(int(v) for v in self._call(self._redis.hvals, self.MEMBERS + code))

    def set_poll(self, code: str, poll: Poll | None) -> None:
        self._call(self._redis.set, self.POLL + code, json.dumps(poll), ex=self._ttl)

    def clear_answers(self, code: str) -> None:
        self._call(self._redis.delete, self.ANSWERS + code, self.ADDRESSES + code)

    def poll(self, code: str) -> Poll | None:
        raw = self._call(self._redis.get, self.POLL + code)
        return json.loads(raw) if raw is not None else None

    def answer(self, code: str, voter: str, value: Answer, limit: int, address: str = "", per_address: int = 0) -> int:
        # one script: the counts and the write at once, so answers racing for the last place (from any process)
        # cannot both get it
        return int(self._call(self._answer, keys=[self.ANSWERS + code, self.ADDRESSES + code],
                              args=[voter, json.dumps(value), limit, self._ttl, address, per_address]))

    def answers(self, code: str) -> list[Answer]:
        return [json.loads(v) for v in self._call(self._redis.hvals, self.ANSWERS + code)]

    def answer_of(self, code: str, voter: str) -> Answer | None:
        raw = self._call(self._redis.hget, self.ANSWERS + code, voter)
        return json.loads(raw) if raw is not None else None

    def set_blank(self, code: str, on: bool) -> None:
        if on:
            self._call(self._redis.set, self.BLANK + code, b"1", ex=self._ttl)
        else:
            self._call(self._redis.delete, self.BLANK + code)

    def blank(self, code: str) -> bool:
        return bool(self._call(self._redis.exists, self.BLANK + code))

    def set_remote(self, code: str, nonce: str | None) -> None:
        if nonce is None:
            self._call(self._redis.delete, self.REMOTE + code)
        else:
            self._call(self._redis.set, self.REMOTE + code, nonce, ex=self._ttl)

    def remote(self, code: str) -> str | None:
        # read and kept for another idle time: a link in use lives as long as its room does
        raw = self._call(self._redis.getex, self.REMOTE + code, ex=self._ttl)
        return raw.decode() if raw is not None else None
