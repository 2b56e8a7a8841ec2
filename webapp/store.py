"""The result store: expensive, deterministic results kept under a key made of the computation's name, a digest
of the schema of what it stores and its canonical parameters, shared by every web worker and job process and
surviving restarts.

Two backends with one interface: one SQLite file under `instance/` (the embedded default), or Redis when
`COIN_PUZZLES_REDIS_URL` is set, so several hosts share one store. Every entry carries an HMAC-SHA256 of its
key and bytes under the app's secret: a partial, corrupt or forged entry is detected, dropped and recomputed,
never served. Jobs are claimed per key (one job per key across all workers and hosts) and report progress
here, where every page can read it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

from solvers.errors import one_of

from . import config
from .config import setting

CLAIM_SECONDS = 600.0  # a queued job not started for this long is presumed lost and may be claimed again
STALE_SECONDS = 30.0  # a running job whose supervisor has not reported for this long is dead: claimed again
FAILED_SECONDS = 60.0  # a job that failed (killed, past its time) is shown as failed this long, then retried

Claim = Literal["won", "taken", "client-full", "queue-full"]
CLAIMS: tuple[Claim, ...] = ("won", "taken", "client-full", "queue-full")


@dataclass(frozen=True)
class Limits:
    """How many visitor jobs (queued or running) one client, and all clients together, may have; 0: no limit."""

    per_client: int = 0
    total: int = 0


NO_LIMITS = Limits()


def stale_seconds() -> float:
    """STALE_SECONDS, or COIN_PUZZLES_JOB_STALE_SECONDS (tests shorten it)."""
    return float(setting("COIN_PUZZLES_JOB_STALE_SECONDS", int(STALE_SECONDS)) or STALE_SECONDS)


def live(state: str, age: float) -> bool:
    """Whether a job row of this state and age still holds its claim (a failed job holds it for FAILED_SECONDS,
    so that it is shown as failed before anyone may queue it again)."""
    if state == "running":
        return age < stale_seconds()
    if state == "failed":
        return age < FAILED_SECONDS
    return state == "queued" and age < CLAIM_SECONDS


@dataclass(frozen=True)
class Progress:
    """A job's state: queued or running, work done out of total (0 when unknown), and what it is doing."""

    state: str
    done: int
    total: int
    note: str
    updated: float

    @property
    def fraction(self) -> float:
        """Done as a fraction of the total (0 when the total is unknown)."""
        return self.done / self.total if self.total else 0.0


class Store(Protocol):
    """What the app and the jobs need from a store."""

    address: str

    def get(self, key: str) -> bytes | None:
        """The bytes stored under a key, if present and intact (a damaged entry is deleted)."""
        ...

    def put(self, key: str, blob: bytes) -> None:
        """Store bytes under a key, atomically."""
        ...

    def delete(self, key: str) -> None:
        """Forget a key."""
        ...

    def swap(self, key: str, old: bytes | None, new: bytes) -> bool:
        """Store new under key only if the key holds old (None: nothing yet), atomically; True if it did."""
        ...

    def claim(self, key: str, client: str = "", limits: Limits = NO_LIMITS) -> Claim:
        """'won' if this caller now owns the job for a key; 'taken' if a live job has it; 'client-full' or
        'queue-full' if a visitor's claim (client set) would pass the limits (nothing is claimed then)."""
        ...

    def start(self, key: str, client: str) -> bool:
        """Mark a job running, unless another job of the same client (a visitor) is running: then False."""
        ...

    def fail(self, key: str, note: str) -> None:
        """End a job's claim as failed, with why (shown for FAILED_SECONDS, then it may be claimed again)."""
        ...

    def progress(self, key: str) -> Progress | None:
        """The job's progress, if a job holds the key."""
        ...

    def report(self, key: str, state: str, done: int, total: int, note: str) -> None:
        """Record a job's progress (and keep its claim alive)."""
        ...

    def touch(self, key: str) -> None:
        """Keep a running job's claim alive (its supervisor's heartbeat)."""
        ...

    def release(self, key: str) -> None:
        """End a job's claim."""
        ...

    def count(self, prefix: str) -> int:
        """How many results are stored under keys starting with prefix."""
        ...


def _digest(secret: bytes, key: str, blob: bytes) -> str:
    """The entry's HMAC: binds the bytes to their key under one of the app's secrets."""
    return hmac.new(secret, key.encode() + b"\0" + blob, hashlib.sha256).hexdigest()


class Signer:
    """Signs entries with the current key; accepts an entry signed with it or with an older key still accepted."""

    def __init__(self, secrets: Sequence[bytes]) -> None:
        """The current key first, then the fallbacks."""
        if not secrets:
            raise ValueError("the store needs a secret key")
        self._secrets = tuple(secrets)

    def sign(self, key: str, blob: bytes) -> str:
        """The digest of a new entry."""
        return _digest(self._secrets[0], key, blob)

    def intact(self, key: str, blob: bytes, digest: str) -> bool:
        """True if one of the accepted keys made this digest of this entry."""
        return any(hmac.compare_digest(digest, _digest(s, key, blob)) for s in self._secrets)


class SqliteStore:
    """One SQLite file (write-ahead log, so readers never wait for a writer)."""

    def __init__(self, path: Path, secrets: Sequence[bytes]) -> None:
        """Open (and create) the file and its tables."""
        path.parent.mkdir(parents=True, exist_ok=True)
        self.address = f"sqlite:{path}"
        self._path, self._signer = path, Signer(secrets)
        with self._db() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("CREATE TABLE IF NOT EXISTS results (key TEXT PRIMARY KEY, blob BLOB, digest TEXT, at REAL)")
            db.execute(
                "CREATE TABLE IF NOT EXISTS jobs (key TEXT PRIMARY KEY, state TEXT, done INTEGER, total INTEGER, "
                "note TEXT, updated REAL, client TEXT NOT NULL DEFAULT '')"
            )
            columns = {row[1] for row in db.execute("PRAGMA table_info(jobs)")}
            if "client" not in columns:  # a store made by an earlier version
                db.execute("ALTER TABLE jobs ADD COLUMN client TEXT NOT NULL DEFAULT ''")

    def _db(self) -> sqlite3.Connection:
        """A connection (one per call: safe across forks and threads)."""
        db = sqlite3.connect(self._path, timeout=30, isolation_level=None)
        db.execute("PRAGMA busy_timeout=30000")
        return db

    def get(self, key: str) -> bytes | None:
        """The bytes under a key, if intact."""
        with self._db() as db:
            row = db.execute("SELECT blob, digest FROM results WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        blob, digest = bytes(row[0]), str(row[1])
        if not self._signer.intact(key, blob, digest):
            self.delete(key)
            return None
        return blob

    def put(self, key: str, blob: bytes) -> None:
        """Store bytes and their digest in one statement (atomic)."""
        with self._db() as db:
            db.execute(
                "INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?)",
                (key, blob, self._signer.sign(key, blob), time.time()),
            )

    def delete(self, key: str) -> None:
        """Forget a key."""
        with self._db() as db:
            db.execute("DELETE FROM results WHERE key = ?", (key,))

    def swap(self, key: str, old: bytes | None, new: bytes) -> bool:
        """Compare and set in one transaction."""
        with self._db() as db:
            db.execute("BEGIN IMMEDIATE")
            row = db.execute("SELECT blob, digest FROM results WHERE key = ?", (key,)).fetchone()
            now = None if row is None else bytes(row[0])
            if now is not None and not self._signer.intact(key, now, str(row[1])):
                now = None  # a damaged entry counts as none
            if now != old:
                db.execute("COMMIT")
                return False
            db.execute(
                "INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?)",
                (key, new, self._signer.sign(key, new), time.time()),
            )
            db.execute("COMMIT")
            return True

    def claim(self, key: str, client: str = "", limits: Limits = NO_LIMITS) -> Claim:
        """Insert the job row unless a live one exists or the limits forbid it (one transaction, so two workers
        cannot both win, nor pass a limit together)."""
        now = time.time()
        with self._db() as db:
            db.execute("BEGIN IMMEDIATE")
            row = db.execute("SELECT state, updated FROM jobs WHERE key = ?", (key,)).fetchone()
            verdict: Claim = "won"
            if row is not None and live(str(row[0]), now - float(row[1])):
                verdict = "taken"
            elif client:
                jobs = [
                    str(r[0])
                    for r in db.execute(
                        "SELECT client, state, updated FROM jobs WHERE client != '' AND state != 'failed'"
                    )
                    if live(str(r[1]), now - float(r[2]))
                ]
                if limits.per_client and jobs.count(client) >= limits.per_client:
                    verdict = "client-full"
                elif limits.total and len(jobs) >= limits.total:
                    verdict = "queue-full"
            if verdict == "won":
                db.execute(
                    "INSERT OR REPLACE INTO jobs (key, state, done, total, note, updated, client) "
                    "VALUES (?, 'queued', 0, 0, '', ?, ?)",
                    (key, now, client),
                )
            db.execute("COMMIT")
            return verdict

    def start(self, key: str, client: str) -> bool:
        """One transaction: refuse if the client has another live running job, else mark this one running."""
        now = time.time()
        with self._db() as db:
            db.execute("BEGIN IMMEDIATE")
            if client:
                rows = db.execute(
                    "SELECT updated FROM jobs WHERE client = ? AND state = 'running' AND key != ?", (client, key)
                ).fetchall()
                if any(live("running", now - float(updated)) for (updated,) in rows):
                    db.execute("COMMIT")
                    return False
            db.execute(
                "INSERT INTO jobs (key, state, done, total, note, updated, client) "
                "VALUES (?, 'running', 0, 0, '', ?, ?) "
                "ON CONFLICT(key) DO UPDATE SET state = 'running', done = 0, total = 0, note = '', updated = ?",
                (key, now, client, now),
            )
            db.execute("COMMIT")
            return True

    def progress(self, key: str) -> Progress | None:
        """The job's row."""
        with self._db() as db:
            row = db.execute("SELECT state, done, total, note, updated FROM jobs WHERE key = ?", (key,)).fetchone()
        return None if row is None else Progress(str(row[0]), int(row[1]), int(row[2]), str(row[3]), float(row[4]))

    def report(self, key: str, state: str, done: int, total: int, note: str) -> None:
        """Update the job's row (keeping the client that claimed it)."""
        with self._db() as db:
            db.execute(
                "INSERT INTO jobs (key, state, done, total, note, updated) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(key) DO UPDATE SET state = excluded.state, done = excluded.done, "
                "total = excluded.total, note = excluded.note, updated = excluded.updated",
                (key, state, done, total, note, time.time()),
            )

    def touch(self, key: str) -> None:
        """Keep a running job's claim alive without changing its progress."""
        with self._db() as db:
            db.execute("UPDATE jobs SET updated = ? WHERE key = ?", (time.time(), key))

    def fail(self, key: str, note: str) -> None:
        """Mark the job failed (its row holds the key for FAILED_SECONDS, counted against no limit)."""
        self.report(key, "failed", 0, 0, note)

    def release(self, key: str) -> None:
        """Delete the job's row."""
        with self._db() as db:
            db.execute("DELETE FROM jobs WHERE key = ?", (key,))

    def integrity(self) -> str:
        """SQLite's PRAGMA integrity_check ('ok' when the file is sound)."""
        with self._db() as db:
            return "; ".join(str(r[0]) for r in db.execute("PRAGMA integrity_check"))

    def count(self, prefix: str) -> int:
        """Results under a prefix."""
        with self._db() as db:
            row = db.execute("SELECT COUNT(*) FROM results WHERE key LIKE ? || '%'", (prefix,)).fetchone()
        return int(row[0])


VISITORS = "cp:visitors"  # sorted set: "client\nkey" of every live visitor job, scored by when its claim expires
CLAIM_SCRIPT = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 'taken' end
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
return 'won'
"""


def _member(client: str, key: str) -> str:
    """A visitor job's entry in the sorted sets."""
    return f"{client}\n{key}"


class RedisStore:
    """Redis: results as hashes, job claims by SET NX with an expiry, progress as hashes."""

    def __init__(self, url: str, secrets: Sequence[bytes]) -> None:
        """Connect (lazily) to the server at url."""
        import redis

        self.address = url
        self._r: Any = redis.Redis.from_url(url)
        self._signer = Signer(secrets)
        self._claim: Any = self._r.register_script(CLAIM_SCRIPT)

    def get(self, key: str) -> bytes | None:
        """The bytes under a key, if intact."""
        blob, digest = self._r.hmget(f"cp:result:{key}", "blob", "digest")
        if blob is None:
            return None
        if digest is None or not self._signer.intact(key, bytes(blob), digest.decode()):
            self.delete(key)
            return None
        return bytes(blob)

    def put(self, key: str, blob: bytes) -> None:
        """HSET of both fields is one command (atomic)."""
        self._r.hset(f"cp:result:{key}", mapping={"blob": blob, "digest": self._signer.sign(key, blob)})

    def delete(self, key: str) -> None:
        """Forget a key."""
        self._r.delete(f"cp:result:{key}")

    def swap(self, key: str, old: bytes | None, new: bytes) -> bool:
        """Compare and set with WATCH / MULTI (optimistic: fails if anyone changed the key meanwhile)."""
        import redis

        name = f"cp:result:{key}"
        with self._r.pipeline() as pipe:
            try:
                pipe.watch(name)
                if self.get(key) != old:
                    pipe.unwatch()
                    return False
                pipe.multi()
                pipe.hset(name, mapping={"blob": new, "digest": self._signer.sign(key, new)})
                pipe.execute()
                return True
            except redis.WatchError:
                return False

    def claim(self, key: str, client: str = "", limits: Limits = NO_LIMITS) -> Claim:
        """One Lua script (atomic on the server): the claim by SET unless it exists; a visitor's claim is also
        counted, and refused past the limits, in a sorted set of live visitor jobs scored by their expiry."""
        now = time.time()
        won = self._claim(
            keys=[f"cp:claim:{key}", VISITORS],
            args=[_member(client, key), client, limits.per_client, limits.total, now, int(CLAIM_SECONDS)],
        )
        verdict = one_of(won.decode() if isinstance(won, bytes) else str(won), CLAIMS, "claim")
        if verdict == "won":
            self._job(key, "queued", 0, 0, "", CLAIM_SECONDS)
        return verdict

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
            pipe.zadd(VISITORS, {_member(client, key): time.time() + seconds}, xx=True)
            if state == "running":
                pipe.set(f"cp:runner:{client}", key, ex=max(1, int(seconds)))
        pipe.execute()

    def _forget(self, key: str) -> None:
        """Drop the claim and the client's entries."""
        client = self._client(key)
        pipe = self._r.pipeline()
        pipe.delete(f"cp:claim:{key}")
        if client:
            pipe.zrem(VISITORS, _member(client, key))
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
        return sum(1 for _ in self._r.scan_iter(match=f"cp:result:{prefix}*"))


def open_store(address: str, secrets: Sequence[bytes]) -> Store:
    """A store from its address ('sqlite:/path/to/file' or a redis:// URL) and its keys (the current one first)."""
    if address.startswith("sqlite:"):
        return SqliteStore(Path(address.removeprefix("sqlite:")), secrets)
    return RedisStore(address, secrets)


def default_store() -> Store:
    """The store the app uses by default (outside a request: the CLI and the consumer)."""
    folder = config.instance_path()
    return open_store(config.store_address(folder), config.keys(folder).encoded())
