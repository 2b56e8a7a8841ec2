"""The result store in one SQLite file (`store.Store`; the embedded default)."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from webapp.config import file_lock
from webapp.store.base import (
    GAMES,
    KEEP_ALL,
    KEPT,
    NO_LIMITS,
    TOUCH_SECONDS,
    VISITORS,
    Budget,
    Claim,
    GamesFull,
    Limits,
    Progress,
    Store,
    live,
    stale_seconds,
)

# a result's row: its bytes, their digest, when it was last written or read (a visitor's or game's: within
# TOUCH_SECONDS), the bytes it holds (key and value) and its class (`base.KEPT`, `VISITORS` or `GAMES`)
RESULTS = "key TEXT PRIMARY KEY, blob BLOB, digest TEXT, at REAL, size INTEGER NOT NULL DEFAULT 0, kept INTEGER"
VISITOR_PREFIXES = ("rendered:", "game:")  # a store of an earlier version: its entries counted as visitors' or kept
# the bytes of the visitors' results and of the players' games, running totals that triggers keep in the writing
# transaction (a write costs the same at a thousand entries and at a million: summing them took 524 ms at a
# million); a row replaced is updated, never replaced (REPLACE would delete it without its trigger)
TOTALS = "name TEXT PRIMARY KEY, bytes INTEGER NOT NULL"
_TOTAL = (
    "UPDATE totals SET bytes = bytes {sign} {row}.size "
    "WHERE {row}.kept != 1 AND name = CASE {row}.kept WHEN 2 THEN 'games' ELSE 'visitors' END;"
)
TRIGGERS = {
    "entries_in": f"AFTER INSERT ON results BEGIN {_TOTAL.format(sign='+', row='NEW')} END",
    "entries_out": f"AFTER DELETE ON results BEGIN {_TOTAL.format(sign='-', row='OLD')} END",
    "entries_changed": "AFTER UPDATE OF size, kept ON results BEGIN "
    f"{_TOTAL.format(sign='-', row='OLD')} {_TOTAL.format(sign='+', row='NEW')} END",
}
OLD_TRIGGERS = ("visitors_in", "visitors_out", "visitors_changed")  # before games had their own total
WAL_LIMIT = 64 << 20  # the write-ahead log is truncated to this after a checkpoint (it stayed at a 124 MB eviction's)
LARGE_EVICTION = 16 << 20  # an eviction this large is checkpointed at once, so the log gives its space back


class SqliteStore(Store):
    """One SQLite file (write-ahead log, so readers never wait for a writer)."""

    def __init__(self, path: Path, secrets: Sequence[bytes], budget: Budget = KEEP_ALL) -> None:
        """Open (and create) the file and its tables."""
        path.parent.mkdir(parents=True, exist_ok=True)
        super().__init__(f"sqlite:{path}", secrets, budget)
        self._path = path
        # one process at a time: workers opening a new file together each found it not yet in WAL mode, and one
        # switching it while another did got 'database is locked' at once
        with file_lock(path.with_name(f"{path.name}.lock")), self._db() as db:
            if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":  # set once: setting it again needs the file
                db.execute("PRAGMA journal_mode=WAL")  # to itself, and another writer makes that 'database is locked'
            db.execute(f"CREATE TABLE IF NOT EXISTS results ({RESULTS})")
            if "kept" not in {row[1] for row in db.execute("PRAGMA table_info(results)")}:
                self._account_old(db)
            db.execute("CREATE INDEX IF NOT EXISTS results_visitors ON results (kept, at, size)")
            if not self._totals_kept(db):
                self._make_totals(db)
            db.execute(
                "CREATE TABLE IF NOT EXISTS jobs (key TEXT PRIMARY KEY, state TEXT, done INTEGER, total INTEGER, "
                "note TEXT, updated REAL, client TEXT NOT NULL DEFAULT '')"
            )
            columns = {row[1] for row in db.execute("PRAGMA table_info(jobs)")}
            if "client" not in columns:  # a store made by an earlier version
                db.execute("ALTER TABLE jobs ADD COLUMN client TEXT NOT NULL DEFAULT ''")

    @staticmethod
    def _totals_kept(db: sqlite3.Connection) -> bool:
        """Whether this version's triggers, and only they, keep the totals (an earlier version opening the file
        adds its own beside them, which would count every visitor's write twice: then they are made again)."""
        triggers = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")}
        return set(TRIGGERS) <= triggers and not triggers & set(OLD_TRIGGERS)

    @staticmethod
    def _make_totals(db: sqlite3.Connection) -> None:
        """The running totals made once, from the rows, with their triggers, a store of an earlier version's games
        moved to their own class (in one transaction: the first process to open the file makes them, the others
        find them)."""
        db.execute("BEGIN IMMEDIATE")
        if SqliteStore._totals_kept(db):
            db.execute("COMMIT")  # another process made them meanwhile
            return
        for name in (*OLD_TRIGGERS, *TRIGGERS):
            db.execute(f"DROP TRIGGER IF EXISTS {name}")
        db.execute(f"CREATE TABLE IF NOT EXISTS totals ({TOTALS})")
        db.execute("UPDATE results SET kept = 2 WHERE substr(key, 1, 5) = 'game:'")
        for name, kind in (("visitors", 0), ("games", 2)):
            db.execute(
                "INSERT OR REPLACE INTO totals SELECT ?, COALESCE(SUM(size), 0) FROM results WHERE kept = ?",
                (name, kind),
            )
        for name, body in TRIGGERS.items():
            db.execute(f"CREATE TRIGGER {name} {body}")
        db.execute("COMMIT")

    @staticmethod
    def _account_old(db: sqlite3.Connection) -> None:
        """A results table made by an earlier version gets its sizes, and its rendered answers and games count as
        visitors' (everything else is kept)."""
        db.execute("BEGIN IMMEDIATE")
        db.execute("ALTER TABLE results ADD COLUMN size INTEGER NOT NULL DEFAULT 0")
        db.execute("ALTER TABLE results ADD COLUMN kept INTEGER")
        visitors = " OR ".join("substr(key, 1, ?) = ?" for _ in VISITOR_PREFIXES)
        db.execute(
            f"UPDATE results SET size = length(key) + length(blob), kept = NOT ({visitors})",
            [v for p in VISITOR_PREFIXES for v in (len(p), p)],
        )
        db.execute("COMMIT")

    @contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        """A connection for one use (safe across forks and threads), closed after it: a transaction left open by an
        error rolled back. Closed here, not when collected: a connection and its statement cache refer to each
        other, so only the cycle collector would close it, and one still open when a consumer forks its workers
        is carried into them (with it, the precomputation's consumer corrupted the file)."""
        db = sqlite3.connect(self._path, timeout=30, isolation_level=None)
        try:
            db.execute("PRAGMA busy_timeout=30000")
            db.execute(f"PRAGMA journal_size_limit={WAL_LIMIT}")
            yield db
        except BaseException:
            if db.in_transaction:
                db.rollback()
            raise
        finally:
            db.close()

    def _stored(self, key: str) -> tuple[bytes, str | None] | None:
        """The row's bytes and digest (a visitor's or a game's row counted as used, at most every TOUCH_SECONDS)."""
        with self._db() as db:
            row = db.execute("SELECT blob, digest, kept, at FROM results WHERE key = ?", (key,)).fetchone()
            if row is not None and row[2] != KEPT and time.time() - float(row[3]) > TOUCH_SECONDS:
                db.execute("UPDATE results SET at = ? WHERE key = ?", (time.time(), key))  # used: evicted later
        return None if row is None else (bytes(row[0]), None if row[1] is None else str(row[1]))

    def put(self, key: str, blob: bytes) -> None:
        """Store bytes and their digest, within the budget, in one transaction."""
        kind = self._budget.admit(key, len(key) + len(blob))
        with self._db() as db:
            db.execute("BEGIN IMMEDIATE")
            evicted = self._write(db, key, blob, kind, fresh=True)
            db.execute("COMMIT")
            self._after(db, evicted)

    @staticmethod
    def _after(db: sqlite3.Connection, evicted: int) -> None:
        """After a large eviction, the log checkpointed and truncated, so the file gives back its space: waiting at
        most 0.1 s for readers (a busy reader leaves it to the next checkpoint, which truncates to WAL_LIMIT)."""
        if evicted >= LARGE_EVICTION:
            db.execute("PRAGMA busy_timeout=100")
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()

    def _write(self, db: sqlite3.Connection, key: str, blob: bytes, kind: int, fresh: bool) -> int:
        """Write an entry of a class (in the caller's transaction) and keep its class within the budget; the bytes
        evicted. A new game that does not fit (fresh: a put, not a move) rolls the transaction back: GamesFull."""
        held = db.execute("SELECT 1 FROM results WHERE key = ?", (key,)).fetchone() if fresh else True
        new_game = kind == GAMES and held is None
        db.execute(
            "INSERT INTO results VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET blob = excluded.blob, "
            "digest = excluded.digest, at = excluded.at, size = excluded.size, kept = excluded.kept",
            (key, blob, self._signer.sign(key, blob), time.time(), len(key) + len(blob), kind),
        )
        limit = {KEPT: 0, VISITORS: self._budget.max_bytes, GAMES: self._budget.game_bytes}[kind]
        if not limit:
            return 0
        over = self._total(db, kind) - limit
        idle = time.time() - self._budget.game_seconds if kind == GAMES else float("inf")
        oldest = db.execute(
            "SELECT key, size FROM results WHERE kept = ? AND key != ? AND at < ? ORDER BY at", (kind, key, idle)
        )
        victims, evicted = [], 0
        while over > 0 and (row := oldest.fetchone()) is not None:
            victims.append((str(row[0]),))
            over -= int(row[1])
            evicted += int(row[1])
        oldest.close()
        if over > 0 and new_game:
            db.execute("ROLLBACK")
            raise GamesFull(key)
        db.executemany("DELETE FROM results WHERE key = ?", victims)
        return evicted

    @staticmethod
    def _total(db: sqlite3.Connection, kind: int) -> int:
        """The bytes of a class: its running total (`TRIGGERS`)."""
        name = "games" if kind == GAMES else "visitors"
        return int(db.execute("SELECT bytes FROM totals WHERE name = ?", (name,)).fetchone()[0])

    def visitors_bytes(self) -> int:
        """The bytes the visitors' results hold."""
        with self._db() as db:
            return self._total(db, VISITORS)

    def games_bytes(self) -> int:
        """The bytes the players' games hold."""
        with self._db() as db:
            return self._total(db, GAMES)

    def delete(self, key: str) -> None:
        """Forget a key."""
        with self._db() as db:
            db.execute("DELETE FROM results WHERE key = ?", (key,))

    def swap(self, key: str, old: bytes | None, new: bytes) -> bool:
        """Compare and set in one transaction."""
        kind = self._budget.admit(key, len(key) + len(new))
        with self._db() as db:
            db.execute("BEGIN IMMEDIATE")
            row = db.execute("SELECT blob, digest FROM results WHERE key = ?", (key,)).fetchone()
            now = None if row is None else bytes(row[0])
            if now is not None and not self._intact(key, now, None if row[1] is None else str(row[1])):
                now = None  # a damaged entry counts as none
            if now != old:
                db.execute("COMMIT")
                return False
            evicted = self._write(db, key, new, kind, fresh=old is None)
            db.execute("COMMIT")
            self._after(db, evicted)
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
                verdict = self._within(db, client, limits, now)
            if verdict == "won":
                db.execute(
                    "INSERT OR REPLACE INTO jobs (key, state, done, total, note, updated, client) "
                    "VALUES (?, 'queued', 0, 0, '', ?, ?)",
                    (key, now, client),
                )
            db.execute("COMMIT")
            return verdict

    @staticmethod
    def _within(db: sqlite3.Connection, client: str, limits: Limits, now: float) -> Claim:
        """'won' if one more live job of this client stays within the limits, else which limit it passes."""
        jobs = [
            str(r[0])
            for r in db.execute("SELECT client, state, updated FROM jobs WHERE client != '' AND state != 'failed'")
            if live(str(r[1]), now - float(r[2]))
        ]
        if limits.per_client and jobs.count(client) >= limits.per_client:
            return "client-full"
        if limits.total and len(jobs) >= limits.total:
            return "queue-full"
        return "won"

    def adopt(self, key: str, client: str, limits: Limits, note: str) -> Claim:
        """A job still queued by the precomputation (no client, its note `note`) becomes this visitor's, counted
        against the limits like a claim of their own (one transaction); 'taken' if it is not such a job."""
        now = time.time()
        with self._db() as db:
            db.execute("BEGIN IMMEDIATE")
            row = db.execute("SELECT state, updated, note, client FROM jobs WHERE key = ?", (key,)).fetchone()
            verdict: Claim = "taken"
            if row is not None and row[0] == "queued" and row[2] == note and not row[3]:
                verdict = self._within(db, client, limits, now) if client else "won"
            if verdict == "won":
                db.execute("UPDATE jobs SET client = ?, note = '', updated = ? WHERE key = ?", (client, now, key))
            db.execute("COMMIT")
            return verdict

    def stale_jobs(self) -> list[tuple[str, str]]:
        """Running jobs whose supervisor stopped reporting."""
        before = time.time() - stale_seconds()
        with self._db() as db:
            rows = db.execute("SELECT key, client FROM jobs WHERE state = 'running' AND updated < ?", (before,))
            return [(str(k), str(c)) for k, c in rows]

    def revive(self, key: str) -> bool:
        """One UPDATE: only the caller that finds the job still stale marks it queued."""
        now = time.time()
        with self._db() as db:
            done = db.execute(
                "UPDATE jobs SET state = 'queued', done = 0, total = 0, note = '', updated = ? "
                "WHERE key = ? AND state = 'running' AND updated < ?",
                (now, key, now - stale_seconds()),
            )
            return done.rowcount == 1

    def client_jobs(self, client: str) -> list[str]:
        """The keys of a visitor's live jobs (queued or running)."""
        now = time.time()
        with self._db() as db:
            rows = db.execute("SELECT key, state, updated FROM jobs WHERE client = ? ORDER BY updated", (client,))
            return [str(k) for k, st, at in rows if st != "failed" and live(str(st), now - float(at))]

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

    def count(self, prefix: str) -> int:
        """Results under a prefix."""
        with self._db() as db:
            row = db.execute("SELECT COUNT(*) FROM results WHERE key LIKE ? || '%'", (prefix,)).fetchone()
        return int(row[0])
