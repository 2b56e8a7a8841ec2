"""The result store: expensive, deterministic results kept under a key made of the computation's name, its
version and its canonical parameters, shared by every web worker and job process and surviving restarts.

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
from typing import Any, Protocol

CLAIM_SECONDS = 600.0  # a claimed job with no progress for this long is presumed dead and may be claimed again


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

    def claim(self, key: str) -> bool:
        """True if this caller now owns the job for a key (no live job had it)."""
        ...

    def progress(self, key: str) -> Progress | None:
        """The job's progress, if a job holds the key."""
        ...

    def report(self, key: str, state: str, done: int, total: int, note: str) -> None:
        """Record a job's progress (and keep its claim alive)."""
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
                "note TEXT, updated REAL)"
            )

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

    def claim(self, key: str) -> bool:
        """Insert the job row unless a live one exists (one transaction, so two workers cannot both win)."""
        now = time.time()
        with self._db() as db:
            db.execute("BEGIN IMMEDIATE")
            row = db.execute("SELECT updated FROM jobs WHERE key = ?", (key,)).fetchone()
            if row is not None and now - float(row[0]) < CLAIM_SECONDS:
                db.execute("COMMIT")
                return False
            db.execute("INSERT OR REPLACE INTO jobs VALUES (?, 'queued', 0, 0, '', ?)", (key, now))
            db.execute("COMMIT")
            return True

    def progress(self, key: str) -> Progress | None:
        """The job's row."""
        with self._db() as db:
            row = db.execute("SELECT state, done, total, note, updated FROM jobs WHERE key = ?", (key,)).fetchone()
        return None if row is None else Progress(str(row[0]), int(row[1]), int(row[2]), str(row[3]), float(row[4]))

    def report(self, key: str, state: str, done: int, total: int, note: str) -> None:
        """Update the job's row."""
        with self._db() as db:
            db.execute(
                "INSERT OR REPLACE INTO jobs VALUES (?, ?, ?, ?, ?, ?)", (key, state, done, total, note, time.time())
            )

    def release(self, key: str) -> None:
        """Delete the job's row."""
        with self._db() as db:
            db.execute("DELETE FROM jobs WHERE key = ?", (key,))

    def count(self, prefix: str) -> int:
        """Results under a prefix."""
        with self._db() as db:
            row = db.execute("SELECT COUNT(*) FROM results WHERE key LIKE ? || '%'", (prefix,)).fetchone()
        return int(row[0])


class RedisStore:
    """Redis: results as hashes, job claims by SET NX with an expiry, progress as hashes."""

    def __init__(self, url: str, secrets: Sequence[bytes]) -> None:
        """Connect (lazily) to the server at url."""
        import redis

        self.address = url
        self._r: Any = redis.Redis.from_url(url)
        self._signer = Signer(secrets)

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

    def claim(self, key: str) -> bool:
        """SET NX: exactly one caller wins until the claim expires or is released."""
        won = self._r.set(f"cp:claim:{key}", "1", nx=True, ex=int(CLAIM_SECONDS))
        if won:
            self.report(key, "queued", 0, 0, "")
        return bool(won)

    def progress(self, key: str) -> Progress | None:
        """The job's hash."""
        raw = self._r.get(f"cp:job:{key}")
        if raw is None:
            return None
        d = json.loads(raw)
        return Progress(str(d["state"]), int(d["done"]), int(d["total"]), str(d["note"]), float(d["updated"]))

    def report(self, key: str, state: str, done: int, total: int, note: str) -> None:
        """Store progress and keep the claim alive."""
        body = {"state": state, "done": done, "total": total, "note": note, "updated": time.time()}
        pipe = self._r.pipeline()
        pipe.set(f"cp:job:{key}", json.dumps(body), ex=int(CLAIM_SECONDS))
        pipe.expire(f"cp:claim:{key}", int(CLAIM_SECONDS))
        pipe.execute()

    def release(self, key: str) -> None:
        """Delete the claim and the progress."""
        self._r.delete(f"cp:claim:{key}", f"cp:job:{key}")

    def count(self, prefix: str) -> int:
        """Results under a prefix."""
        return sum(1 for _ in self._r.scan_iter(match=f"cp:result:{prefix}*"))


def open_store(address: str, secrets: Sequence[bytes]) -> Store:
    """A store from its address ('sqlite:/path/to/file' or a redis:// URL) and its keys (the current one first)."""
    if address.startswith("sqlite:"):
        return SqliteStore(Path(address.removeprefix("sqlite:")), secrets)
    return RedisStore(address, secrets)
