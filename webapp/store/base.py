"""The result store's interface (`Store`) and what its backends share: the job limits, progress, the signing of
entries. The store itself: `store`.

The result store: expensive, deterministic results kept under a key made of the computation's name, a digest
of the schema of what it stores and its canonical parameters, shared by every web worker and job process and
surviving restarts.

Two backends with one interface (`Store`): one SQLite file under `instance/` (the embedded default,
`sqlite`), or Redis when `COIN_PUZZLES_REDIS_URL` is set, so several hosts share one store (`redis`).
Every entry carries an HMAC-SHA256 of its key and bytes under the app's secret: a partial, corrupt or forged entry
is detected, dropped and recomputed, never served. Jobs are claimed per key (one job per key across all workers
and hosts) and report progress here, where every page can read it.
"""

from __future__ import annotations

import hashlib
import hmac
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from webapp.config import setting

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

BUDGET_MB = 1024  # the default of COIN_PUZZLES_STORE_BUDGET_MB
TOUCH_SECONDS = 300.0  # a visitor's entry read counts as used again at most this often (a rare write on a read)
ENTRY_SHARE = 8  # one visitor's result may hold at most this share of their budget (1/8): never the whole of it
GAME_PREFIX = "game:"  # a player's game: its record (latest history, latest token, how it ended), about 600 bytes
GAME_BUDGET_MB = 256  # the default of COIN_PUZZLES_GAME_BUDGET_MB: room for about 400,000 games
GAME_KEEP_DAYS = 7  # a game moved or viewed within this long is never evicted (COIN_PUZZLES_GAME_KEEP_DAYS)
KEPT, VISITORS, GAMES = 1, 0, 2  # an entry's class, as the stores record it: kept, a visitor's result, a game


def _everything_kept(key: str) -> bool:
    """No result is a visitor's (a store opened without a budget: commands, tests)."""
    return True


class TooLarge(Exception):  # noqa: N818 - a refusal: the store keeps the computation's refusal instead
    """A visitor's result larger than its share of the budget (ENTRY_SHARE): not stored."""


class GamesFull(Exception):  # noqa: N818 - an answer: the site holds all the games it can keep; come back later
    """A new game that would pass the games' budget while every game held was used within the promised time."""


@dataclass(frozen=True)
class Budget:
    """What the store holds for visitors, in bytes (keys and values; 0: no limit), in two classes that never
    evict each other:
    - results visitors caused (every key that `kept` does not name; `kept`: what the precomputation makes,
      held whatever the budget): within max_bytes, the least recently used evicted past it (an entry read counts
      as used, at most every TOUCH_SECONDS); one larger than max_bytes / ENTRY_SHARE is refused (TooLarge);
    - players' games (GAME_PREFIX): within game_bytes, evicting only games neither moved nor viewed for
      game_seconds, least recently used first; a new game that still does not fit is refused (GamesFull), a move
      on a held game never is."""

    max_bytes: int = 0
    kept: Callable[[str], bool] = _everything_kept
    game_bytes: int = 0
    game_seconds: float = GAME_KEEP_DAYS * 86400.0

    def kind(self, key: str) -> int:
        """The class of an entry: GAMES, KEPT or VISITORS."""
        return GAMES if key.startswith(GAME_PREFIX) else KEPT if self.kept(key) else VISITORS

    def admit(self, key: str, size: int) -> int:
        """The class of an entry about to be written; TooLarge for a visitor's result past its share."""
        kind = self.kind(key)
        if kind == VISITORS and self.max_bytes and size > self.max_bytes // ENTRY_SHARE:
            raise TooLarge(
                f"this result ({size / 1e6:.1f} MB) is larger than the share of the store one visitor's result may "
                f"hold ({self.max_bytes // ENTRY_SHARE / 1e6:.1f} MB), so it is not kept: ask for a smaller size"
            )
        return kind


KEEP_ALL = Budget()


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


class Store(ABC):
    """What the app and the jobs need from a store; each backend is a subclass (`sqlite.SqliteStore`,
    `redis.RedisStore`). What every backend does alike is done here once: its address, its keys (`Signer`) and its
    budget, and `get`, which reads an entry through the backend (`_stored`) and drops one whose signature fails."""

    def __init__(self, address: str, secrets: Sequence[bytes], budget: Budget) -> None:
        self.address = address
        self._signer, self._budget = Signer(secrets), budget

    def get(self, key: str) -> bytes | None:
        """The bytes stored under a key, if present and intact (a damaged entry is deleted)."""
        found = self._stored(key)
        if found is None:
            return None
        blob, digest = found
        if not self._intact(key, blob, digest):
            self.delete(key)
            return None
        return blob

    def _intact(self, key: str, blob: bytes, digest: str | None) -> bool:
        """Whether an entry's bytes carry the signature of one of the store's keys."""
        return digest is not None and self._signer.intact(key, blob, digest)

    @abstractmethod
    def _stored(self, key: str) -> tuple[bytes, str | None] | None:
        """An entry's bytes and signature as the backend holds them (a visitor's entry or a game counts as used)."""

    @abstractmethod
    def put(self, key: str, blob: bytes) -> None:
        """Store bytes under a key, atomically, within the budget (`Budget`: TooLarge or GamesFull when refused)."""

    @abstractmethod
    def delete(self, key: str) -> None:
        """Forget a key."""

    @abstractmethod
    def swap(self, key: str, old: bytes | None, new: bytes) -> bool:
        """Store new under key only if the key holds old (None: nothing yet), atomically; True if it did (within
        the budget, as put)."""

    @abstractmethod
    def claim(self, key: str, client: str = "", limits: Limits = NO_LIMITS) -> Claim:
        """'won' if this caller now owns the job for a key; 'taken' if a live job has it; 'client-full' or
        'queue-full' if a visitor's claim (client set) would pass the limits (nothing is claimed then)."""

    @abstractmethod
    def adopt(self, key: str, client: str, limits: Limits, note: str) -> Claim:
        """A job still queued by the precomputation (no client, its progress note `note`) becomes this visitor's,
        counted against the limits like a claim of their own: 'won' (the caller queues it for the visitor),
        'client-full' or 'queue-full' (nothing changed), 'taken' if it is not such a job (someone adopted it)."""

    @abstractmethod
    def stale_jobs(self) -> list[tuple[str, str]]:
        """(key, client) of every job marked running whose supervisor has not reported for stale_seconds() (its
        consumer died): what `revive` may queue again."""

    @abstractmethod
    def revive(self, key: str) -> bool:
        """Mark a stale running job queued again, atomically (True for the one caller that did it)."""

    @abstractmethod
    def client_jobs(self, client: str) -> list[str]:
        """The keys of a visitor's live jobs (queued or running), for the answer that refuses another."""

    @abstractmethod
    def start(self, key: str, client: str) -> bool:
        """Mark a job running, unless another job of the same client (a visitor) is running: then False."""

    @abstractmethod
    def fail(self, key: str, note: str) -> None:
        """End a job's claim as failed, with why (shown for FAILED_SECONDS, then it may be claimed again)."""

    @abstractmethod
    def progress(self, key: str) -> Progress | None:
        """The job's progress, if a job holds the key."""

    @abstractmethod
    def report(self, key: str, state: str, done: int, total: int, note: str) -> None:
        """Record a job's progress (and keep its claim alive)."""

    @abstractmethod
    def touch(self, key: str) -> None:
        """Keep a running job's claim alive (its supervisor's heartbeat)."""

    @abstractmethod
    def release(self, key: str) -> None:
        """End a job's claim."""

    @abstractmethod
    def count(self, prefix: str) -> int:
        """How many results are stored under keys starting with prefix."""

    @abstractmethod
    def visitors_bytes(self) -> int:
        """The bytes (keys and values) held by the results visitors caused, which the budget bounds."""

    @abstractmethod
    def games_bytes(self) -> int:
        """The bytes (keys and values) held by players' games, which the games' budget bounds."""


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
