"""The result store on Redis (`store.Store`; several hosts share it)."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from solvers.errors import one_of
from webapp.store.base import (
    CLAIM_SECONDS,
    CLAIMS,
    FAILED_SECONDS,
    GAME_PREFIX,
    GAMES,
    KEEP_ALL,
    KEPT,
    NO_LIMITS,
    VISITORS,
    Budget,
    Claim,
    GamesFull,
    Limits,
    Progress,
    Store,
    stale_seconds,
)

JOBS = "cp:visitors"  # sorted set: "client\nkey" of every live visitor job, scored by when its claim expires
# A visitor's admission (ARGV[2] the client, '' for the precomputation: never counted): past the client's limit
# (ARGV[3]) or the total (ARGV[4]) a refusal, else the job counted in JOBS until its claim expires
ADMIT = """
if ARGV[2] ~= '' then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[5])
  local members = redis.call('ZRANGE', KEYS[2], 0, -1)
  local prefix = ARGV[2] .. '\\n'
  local mine = 0
  for _, m in ipairs(members) do
    if string.sub(m, 1, #prefix) == prefix then mine = mine + 1 end
  end
  if tonumber(ARGV[3]) > 0 and mine >= tonumber(ARGV[3]) then return 'client-full' end
  if tonumber(ARGV[4]) > 0 and #members >= tonumber(ARGV[4]) then return 'queue-full' end
  redis.call('ZADD', KEYS[2], tonumber(ARGV[5]) + tonumber(ARGV[6]), ARGV[1])
end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[6])
"""
CLAIM_SCRIPT = (
    """
if redis.call('EXISTS', KEYS[1]) == 1 then return 'taken' end
"""
    + ADMIT
    + """
return 'won'
"""
)
# a job the precomputation queued (claim held by '', its note ARGV[7]) admitted as a visitor's, its note cleared
ADOPT_SCRIPT = (
    """
if redis.call('GET', KEYS[1]) ~= '' then return 'taken' end
local raw = redis.call('GET', KEYS[3])
if not raw then return 'taken' end
local job = cjson.decode(raw)
if job['state'] ~= 'queued' or job['note'] ~= ARGV[7] then return 'taken' end
"""
    + ADMIT
    + """
job['note'] = ''
job['updated'] = tonumber(ARGV[5])
redis.call('SET', KEYS[3], cjson.encode(job), 'EX', ARGV[6])
return 'won'
"""
)


RESULT = "cp:result:"  # a result's hash: its bytes and their digest
# per class of entries (`base.VISITORS`, `base.GAMES`): when each was last used (a sorted set), the bytes each holds
# (a hash) and their sum
CLASS_KEYS = {
    VISITORS: ["cp:visitor-used", "cp:visitor-sizes", "cp:visitor-bytes"],
    GAMES: ["cp:game-used", "cp:game-sizes", "cp:game-bytes"],
}
BUDGET_KEYS = [*CLASS_KEYS[VISITORS], *CLASS_KEYS[GAMES]]  # KEYS[2..7] of the scripts
FORGET = """
local function forget(key, at)
  local size = redis.call('HGET', KEYS[at + 1], key)
  if size then
    redis.call('HDEL', KEYS[at + 1], key)
    redis.call('ZREM', KEYS[at], key)
    return redis.call('DECRBY', KEYS[at + 2], size)
  end
  return tonumber(redis.call('GET', KEYS[at + 2]) or '0')
end
"""
# a result written (ARGV: key, bytes, digest, its class '1' kept, '0' a visitor's, '2' a game, now, that class's
# budget in bytes, the time before which an entry may be evicted, '1' when a game that does not fit is refused):
# counted in its class (a store of an earlier version's game leaves the visitors' class), and past the class's
# budget its least recently used others are deleted (their names made from RESULT: one Redis, not a cluster);
# -1 when refused (nothing written, nothing evicted: the idle games are counted before any goes)
WRITE_SCRIPT = (
    FORGET
    + f"""
local had = redis.call('EXISTS', KEYS[1]) == 1
forget(ARGV[1], 2)
forget(ARGV[1], 5)
if ARGV[4] == '1' then
  redis.call('HSET', KEYS[1], 'blob', ARGV[2], 'digest', ARGV[3])
  return 0
end
local at = ARGV[4] == '2' and 5 or 2
local size = string.len(ARGV[1]) + string.len(ARGV[2])
local total = tonumber(redis.call('GET', KEYS[at + 2]) or '0') + size
local budget = tonumber(ARGV[6])
local before = ARGV[7] == '+inf' and '+inf' or '(' .. ARGV[7]
if budget > 0 and total > budget and not had and ARGV[8] == '1' then
  local freeable = 0
  for _, idle in ipairs(redis.call('ZRANGEBYSCORE', KEYS[at], '-inf', before)) do
    freeable = freeable + tonumber(redis.call('HGET', KEYS[at + 1], idle) or '0')
  end
  if total - freeable > budget then return -1 end
end
while budget > 0 and total > budget do
  local oldest = redis.call('ZRANGEBYSCORE', KEYS[at], '-inf', before, 'LIMIT', 0, 1)
  local victim = oldest[1]
  if not victim then break end
  redis.call('DEL', '{RESULT}' .. victim)
  total = forget(victim, at) + size
end
redis.call('HSET', KEYS[1], 'blob', ARGV[2], 'digest', ARGV[3])
redis.call('HSET', KEYS[at + 1], ARGV[1], size)
redis.call('ZADD', KEYS[at], ARGV[5], ARGV[1])
return redis.call('INCRBY', KEYS[at + 2], size)
"""
)
DELETE_SCRIPT = FORGET + "forget(ARGV[1], 2)\nforget(ARGV[1], 5)\nredis.call('DEL', KEYS[1])\n"
GAMES_MOVED = "cp:games-class"  # set once a store's games counted as visitors' (an earlier version) are moved
# the games an earlier version counted in the visitors' class moved to their own, once (KEYS: BUDGET_KEYS, then
# GAMES_MOVED; ARGV[1]: now, the last use of a game that has none)
MOVE_GAMES_SCRIPT = """
if redis.call('EXISTS', KEYS[7]) == 1 then return 0 end
local moved, cursor = 0, '0'
repeat
  local page = redis.call('HSCAN', KEYS[2], cursor, 'MATCH', 'game:*', 'COUNT', 1000)
  cursor = page[1]
  for i = 1, #page[2], 2 do
    local key, size = page[2][i], page[2][i + 1]
    local used = redis.call('ZSCORE', KEYS[1], key) or ARGV[1]
    redis.call('HDEL', KEYS[2], key)
    redis.call('ZREM', KEYS[1], key)
    redis.call('DECRBY', KEYS[3], size)
    redis.call('HSET', KEYS[5], key, size)
    redis.call('ZADD', KEYS[4], used, key)
    redis.call('INCRBY', KEYS[6], size)
    moved = moved + 1
  end
until cursor == '0'
redis.call('SET', KEYS[7], '1')
return moved
"""


def _member(client: str, key: str) -> str:
    """A visitor job's entry in the sorted sets."""
    return f"{client}\n{key}"


class RedisStore(Store):
    """Redis: results as hashes, job claims by SET NX with an expiry, progress as hashes."""

    def __init__(self, url: str, secrets: Sequence[bytes], budget: Budget = KEEP_ALL) -> None:
        """Connect (lazily) to the server at url."""
        import redis

        super().__init__(url, secrets, budget)
        self._r: Any = redis.Redis.from_url(url)
        self._claim: Any = self._r.register_script(CLAIM_SCRIPT)
        self._adopt: Any = self._r.register_script(ADOPT_SCRIPT)
        self._write: Any = self._r.register_script(WRITE_SCRIPT)
        self._delete: Any = self._r.register_script(DELETE_SCRIPT)
        self._moved = False

    def _move_games(self) -> None:
        """Once per store (a marker key), before this process's first write: the games an earlier version counted as
        visitors' results moved to their own class, so that no flood of results evicts them."""
        if not self._moved:
            self._r.register_script(MOVE_GAMES_SCRIPT)(keys=[*BUDGET_KEYS, GAMES_MOVED], args=[time.time()])
            self._moved = True

    def _stored(self, key: str) -> tuple[bytes, str | None] | None:
        """The hash's bytes and digest (a visitor's entry or a game counted as used now)."""
        pipe = self._r.pipeline(transaction=False)
        pipe.hmget(f"{RESULT}{key}", "blob", "digest")
        pipe.zadd(CLASS_KEYS[GAMES if key.startswith(GAME_PREFIX) else VISITORS][0], {key: time.time()}, xx=True)
        (blob, digest), _ = pipe.execute()
        return None if blob is None else (bytes(blob), None if digest is None else digest.decode())

    def _written(self, key: str, blob: bytes, fresh: bool, client: Any = None) -> Any:
        """The write script (on the server: one step), run now or queued in a transaction (client)."""
        kind, now = self._budget.admit(key, len(key) + len(blob)), time.time()
        if client is None:
            self._move_games()
        budget = {KEPT: 0, VISITORS: self._budget.max_bytes, GAMES: self._budget.game_bytes}[kind]
        idle = now - self._budget.game_seconds if kind == GAMES else "+inf"
        args = [key, blob, self._signer.sign(key, blob), kind, now, budget, idle, int(fresh and kind == GAMES)]
        return self._write(keys=[f"{RESULT}{key}", *BUDGET_KEYS], args=args, client=client)

    def put(self, key: str, blob: bytes) -> None:
        """One script: both fields, the class's accounts and, past its budget, the evictions (GamesFull: a new
        game that does not fit)."""
        if self._written(key, blob, fresh=True) == -1:
            raise GamesFull(key)

    def delete(self, key: str) -> None:
        """Forget a key (and its share of the budget)."""
        self._delete(keys=[f"{RESULT}{key}", *BUDGET_KEYS], args=[key])

    def visitors_bytes(self) -> int:
        """The bytes the visitors' results hold."""
        return int(self._r.get(CLASS_KEYS[VISITORS][2]) or 0)

    def games_bytes(self) -> int:
        """The bytes the players' games hold."""
        return int(self._r.get(CLASS_KEYS[GAMES][2]) or 0)

    def swap(self, key: str, old: bytes | None, new: bytes) -> bool:
        """Compare and set with WATCH / MULTI (optimistic: fails if anyone changed the key meanwhile)."""
        import redis

        self._move_games()
        name = f"{RESULT}{key}"
        with self._r.pipeline() as pipe:
            try:
                pipe.watch(name)
                if self.get(key) != old:
                    pipe.unwatch()
                    return False
                pipe.multi()
                self._written(key, new, old is None, pipe)
                if pipe.execute()[-1] == -1:
                    raise GamesFull(key)
                return True
            except redis.WatchError:
                return False

    def claim(self, key: str, client: str = "", limits: Limits = NO_LIMITS) -> Claim:
        """One Lua script (atomic on the server): the claim by SET unless it exists; a visitor's claim is also
        counted, and refused past the limits, in a sorted set of live visitor jobs scored by their expiry."""
        now = time.time()
        won = self._claim(
            keys=[f"cp:claim:{key}", JOBS],
            args=[_member(client, key), client, limits.per_client, limits.total, now, int(CLAIM_SECONDS)],
        )
        verdict = one_of(won.decode() if isinstance(won, bytes) else str(won), CLAIMS, "claim")
        if verdict == "won":
            self._job(key, "queued", 0, 0, "", CLAIM_SECONDS)
        return verdict

    def adopt(self, key: str, client: str, limits: Limits, note: str) -> Claim:
        """One Lua script: a job still queued by the precomputation (its claim's holder '', its note `note`) becomes
        this visitor's, counted against the limits like a claim of their own; 'taken' if it is not such a job."""
        won = self._adopt(
            keys=[f"cp:claim:{key}", JOBS, f"cp:job:{key}"],
            args=[_member(client, key), client, limits.per_client, limits.total, time.time(), int(CLAIM_SECONDS), note],
        )
        return one_of(won.decode() if isinstance(won, bytes) else str(won), CLAIMS, "claim")

    def start(self, key: str, client: str) -> bool:
        """A visitor's running job holds cp:runner:<client> (SET NX, kept alive with the claim); another job of
        the same visitor finds it held and waits."""
        if client:
            runner = f"cp:runner:{client}"
            taken = self._r.set(runner, key, nx=True, ex=max(1, int(stale_seconds())))
            if not taken and self._r.get(runner) not in (None, key.encode()):
                return False
        self.report(key, "running", 0, 0, "")
        return True

    def stale_jobs(self) -> list[tuple[str, str]]:
        """Jobs whose progress says running but whose claim lapsed (its supervisor stopped keeping it alive); the
        client is not known any more once the claim is gone, so a revived job is nobody's."""
        out = []
        before = time.time() - stale_seconds()
        for name in self._r.scan_iter(match="cp:job:*"):
            raw = self._r.get(name)
            if raw is None:
                continue
            d = json.loads(raw)
            key = bytes(name).decode().removeprefix("cp:job:")
            if d["state"] == "running" and float(d["updated"]) < before and self._client(key) is None:
                out.append((key, ""))
        return out

    def revive(self, key: str) -> bool:
        """The claim taken again by SET NX (one caller wins), the progress marked queued."""
        if not self._r.set(f"cp:claim:{key}", "", nx=True, ex=int(CLAIM_SECONDS)):
            return False
        self._job(key, "queued", 0, 0, "", CLAIM_SECONDS)
        return True

    def client_jobs(self, client: str) -> list[str]:
        """The keys of a visitor's live jobs (queued or running)."""
        prefix = f"{client}\n"
        members = self._r.zrangebyscore(JOBS, time.time(), "+inf")
        return [m.decode()[len(prefix) :] for m in members if m.decode().startswith(prefix)]

    def _client(self, key: str) -> str | None:
        """The client that holds a key's claim ('' for the precomputation), None when no claim is held."""
        raw = self._r.get(f"cp:claim:{key}")
        return None if raw is None else bytes(raw).decode()

    def _job(self, key: str, state: str, done: int, total: int, note: str, seconds: float) -> None:
        """Store a job's progress for a while."""
        body = {"state": state, "done": done, "total": total, "note": note, "updated": time.time()}
        self._r.set(f"cp:job:{key}", json.dumps(body), ex=int(CLAIM_SECONDS if state != "failed" else seconds))

    def progress(self, key: str) -> Progress | None:
        """The job's progress."""
        raw = self._r.get(f"cp:job:{key}")
        if raw is None:
            return None
        d = json.loads(raw)
        return Progress(str(d["state"]), int(d["done"]), int(d["total"]), str(d["note"]), float(d["updated"]))

    def report(self, key: str, state: str, done: int, total: int, note: str) -> None:
        """Store progress and keep the claim alive (a running job's for STALE_SECONDS, a queued one's longer)."""
        self._job(key, state, done, total, note, CLAIM_SECONDS)
        self._keep(key, state)

    def touch(self, key: str) -> None:
        """Keep a running job's claim alive."""
        self._keep(key, "running")

    def _keep(self, key: str, state: str) -> None:
        """Extend the claim (and the client's entries) by the time a job of this state may go without news."""
        seconds = stale_seconds() if state == "running" else CLAIM_SECONDS
        client = self._client(key)
        pipe = self._r.pipeline()
        pipe.expire(f"cp:claim:{key}", max(1, int(seconds)))
        if client:
            pipe.zadd(JOBS, {_member(client, key): time.time() + seconds}, xx=True)
            if state == "running":
                pipe.set(f"cp:runner:{client}", key, ex=max(1, int(seconds)))
        pipe.execute()

    def _forget(self, key: str) -> None:
        """Drop the claim and the client's entries."""
        client = self._client(key)
        pipe = self._r.pipeline()
        pipe.delete(f"cp:claim:{key}")
        if client:
            pipe.zrem(JOBS, _member(client, key))
        pipe.execute()
        if client and self._r.get(f"cp:runner:{client}") == key.encode():
            self._r.delete(f"cp:runner:{client}")

    def fail(self, key: str, note: str) -> None:
        """The job's progress says failed, and its claim holds the key, for FAILED_SECONDS (no longer counted
        against its client's limits)."""
        self._forget(key)
        self._job(key, "failed", 0, 0, note, FAILED_SECONDS)
        self._r.set(f"cp:claim:{key}", "", ex=int(FAILED_SECONDS))

    def release(self, key: str) -> None:
        """Delete the claim and the progress."""
        self._forget(key)
        self._r.delete(f"cp:job:{key}")

    def count(self, prefix: str) -> int:
        """Results under a prefix."""
        return sum(1 for _ in self._r.scan_iter(match=f"{RESULT}{prefix}*"))
