"""Embedded defaults shared by the web app, the job consumer and the command line, each overridable from the
environment: where the instance folder is, the secret key, the result store and the queue."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import logging
import math
import os
import random
import secrets
import string
import tempfile
import zlib
from collections import Counter
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path

from solvers.errors import InputError
from solvers.numbers import whole_number

ROOT = Path(__file__).resolve().parent.parent
CERTIFICATES = ROOT / "webapp" / "data" / "certificates"  # `coin-puzzles certify` made them (docs/certificates)


class ConfigError(InputError):
    """A setting that cannot be used (the command line exits with status 2 and says why)."""


def instance_path() -> Path:
    """The instance folder: COIN_PUZZLES_INSTANCE, else instance/ beside the code."""
    return Path(os.environ.get("COIN_PUZZLES_INSTANCE") or ROOT / "instance")


# SHA-256 of the key that early versions shipped in git as instance/secret_key (the key itself is not kept here):
# everyone who cloned the repository holds it, so an instance folder that still has it is treated as compromised
PUBLISHED_KEY_SHA256 = frozenset({"4a202dc708e9d4a9135bf93907323ce820a71b7eab1c3ed6a13ceb943c482112"})
KEY_FILE = "secret_key"
FALLBACKS_FILE = "secret_key_fallbacks"  # older keys, one a line, newest first: still read, never used to sign

log = logging.getLogger("coin_puzzles")


@dataclass(frozen=True)
class Keys:
    """The secret key that signs and seals everything new, and the older keys still accepted when reading."""

    current: str
    fallbacks: tuple[str, ...] = ()

    @property
    def all(self) -> tuple[str, ...]:
        """Every accepted key, the current one first."""
        return (self.current, *self.fallbacks)

    def encoded(self) -> list[bytes]:
        """Every accepted key as bytes, the current one first (what the result store signs and checks with)."""
        return [k.encode() for k in self.all]


def published(key: str) -> bool:
    """True for a key that was once published in the repository."""
    return hashlib.sha256(key.strip().encode()).hexdigest() in PUBLISHED_KEY_SHA256


MIN_KEY_BITS = 256  # a key set by hand must carry at least 32 bytes of entropy (a new_key() carries exactly that)


# A key that compresses to less than this share of what a random key of its alphabet and length compresses to is
# repetitive or patterned ('abcdefgh' six times, 16 hex digits four times): its estimate shrinks with its size. Random
# keys compress to within 3% of the reference (zlib's Huffman coding of 64 random hex digits: 392 to 408 bits).
PATTERN_SHARE = 0.85
# An ordered or strided alphabet ('A…Za…z0…9+/', 'acegikmo…', or such runs interleaved: 'aA0bB1cC2…') does not
# repeat, so it compresses like a random key; its characters step by one difference, between neighbours or between
# characters 2 to 4 apart. Past this share of equal steps (a random key of 64 hex digits has at most about a fifth),
# only the other steps count. (Patterns of other kinds, a keyboard's rows, are not caught: keys are made by
# `rotate-key`; this check is for a key typed by hand.)
STRIDE_SHARE = 0.4


def key_bits(key: str) -> float:
    """A generous estimate of a key's entropy: its length times the bits of the smallest alphabet it is drawn
    from (hex digits 4, base64 6, any printable character 6.5), scaled down by how much better than a random key
    of that alphabet and length it compresses (repetition and patterns: `PATTERN_SHARE`) and by the share of its
    steps that are one stride (an ordered alphabet: `STRIDE_SHARE`); nothing for a key of fewer than 8 distinct
    characters."""
    key = key.strip()
    if len(set(key)) < 8:
        return 0.0
    if all(ch in string.hexdigits for ch in key):
        per, alphabet = 4.0, string.hexdigits[:16]
    elif all(ch in string.ascii_letters + string.digits + "+/-_=" for ch in key):
        per, alphabet = 6.0, string.ascii_letters + string.digits + "-_"
    else:
        per, alphabet = math.log2(95), "".join(chr(c) for c in range(32, 127))
    rng = random.Random(len(key))  # the same reference in every process
    reference = "".join(rng.choice(alphabet) for _ in key)
    share = _compressed(key) / (PATTERN_SHARE * _compressed(reference))
    stride = max(  # the largest share of equal steps between characters 1 to 4 apart (an interleave: 3 apart)
        Counter(ord(b) - ord(a) for a, b in zip(key, key[lag:], strict=False)).most_common(1)[0][1] / (len(key) - lag)
        for lag in range(1, 5)
    )
    return len(key) * per * min(1.0, share) * (1.0 - stride if stride > STRIDE_SHARE else 1.0)


def _compressed(text: str) -> int:
    """The bytes zlib's best compression adds for text (the empty string's overhead taken off)."""
    return len(zlib.compress(text.encode(), 9)) - len(zlib.compress(b"", 9))


def refused_key(key: str, where: str) -> str | None:
    """Why a key set by hand cannot be used (published in git, or too weak), or None."""
    if published(key):
        return f"{where} is the key once published in the project's git repository: set a new one"
    bits = key_bits(key)
    if bits < MIN_KEY_BITS:
        return (
            f"{where} is too weak to sign results and seal games (about {bits:.0f} bits; at least {MIN_KEY_BITS}, "
            "such as 64 random hex digits, are needed)"
        )
    return None


def new_key() -> str:
    """A fresh random key (256 bits, hex)."""
    return secrets.token_hex(32)


def write_private(path: Path, text: str) -> None:
    """Replace a file atomically with text, mode 0600 from the start: written whole beside it under a name of its
    own (each process and thread: one complete file wins), then renamed; nothing is left behind when it fails."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")  # (mode 0600)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


_HELD: set[int] = set()  # the lock files this process holds or waits on (a child forked meanwhile closes them)


def _forked() -> None:
    """In a child forked while a thread of its parent held a lock file: the child's copies closed, so that its own
    next lock waits only for other processes, not for itself, and the others never wait for it."""
    for fd in _HELD:
        with contextlib.suppress(OSError):
            os.close(fd)
    _HELD.clear()


os.register_at_fork(after_in_child=_forked)


@contextmanager
def file_lock(lock: Path) -> Iterator[None]:
    """Hold a lock file (made if missing, private) while one process at a time does what others must not do at
    once (the instance's key made, a store's tables made, a proof's parts file written). flock, not lockf: it also
    excludes threads. Its descriptor is listed before it is locked, so that a fork while it waits leaves no copy."""
    lock.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    _HELD.add(fd)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        _HELD.discard(fd)
        os.close(fd)


def _locked(folder: Path) -> AbstractContextManager[None]:
    """Hold the instance folder's key lock (so processes starting together agree on one key)."""
    return file_lock(folder / ".secret_key.lock")


def _file_key(folder: Path) -> str:
    """The instance folder's key, made on first use; a key once published in git is replaced (with a warning)."""
    path = folder / KEY_FILE
    with _locked(folder):
        key = path.read_text().strip() if path.exists() else ""
        if key and published(key):
            log.warning(
                "coin-puzzles: %s holds the secret key once published in the project's git repository; it was "
                "replaced by a new random key (sessions, forms and game links made with the old one no longer work)",
                path,
            )
            key = ""
        if not key:
            key = new_key()
            write_private(path, key + "\n")
        elif path.stat().st_mode & 0o077:
            path.chmod(0o600)  # a key file written readable by others (as older versions did) is closed up
    return key


def _split(raw: str) -> list[str]:
    """Keys from a comma- or line-separated list."""
    return [k.strip() for k in raw.replace("\n", ",").split(",") if k.strip()]


def keys(folder: Path) -> Keys:
    """COIN_PUZZLES_SECRET (else the instance folder's key file), and the fallbacks: COIN_PUZZLES_SECRET_FALLBACKS
    (comma-separated) and the instance folder's secret_key_fallbacks. A published key is never accepted."""
    current = os.environ.get("COIN_PUZZLES_SECRET", "").strip()
    why = refused_key(current, "COIN_PUZZLES_SECRET") if current else None
    if why:
        raise ConfigError(f"{why} (`coin-puzzles rotate-key` prints one)")
    current = current or _file_key(folder)
    olds = _split(os.environ.get("COIN_PUZZLES_SECRET_FALLBACKS", ""))
    path = folder / FALLBACKS_FILE
    if path.exists():
        olds += _split(path.read_text())
    weak = [k for k in olds if k != current and refused_key(k, "")]  # never accepted, not even for reading
    fallbacks = tuple(dict.fromkeys(k for k in olds if k != current and k not in weak))
    return Keys(current, fallbacks)


def secret_key(folder: Path) -> str:
    """The current secret key (see keys)."""
    return keys(folder).current


def rotate(folder: Path, keep: int = 3) -> Keys:
    """Make a new key in the instance folder and move the old one to the front of its fallbacks (at most keep
    of them are kept); the keys now in force there."""
    old = _file_key(folder)
    with _locked(folder):
        path = folder / FALLBACKS_FILE
        olds = _split(path.read_text()) if path.exists() else []
        fallbacks = tuple(dict.fromkeys([old, *olds]))[:keep]
        key = new_key()
        write_private(path, "".join(k + "\n" for k in fallbacks))
        write_private(folder / KEY_FILE, key + "\n")
    return Keys(key, fallbacks)


def forget_fallbacks(folder: Path) -> int:
    """Drop the instance folder's fallback keys (once everything made with them may stop working); how many."""
    path = folder / FALLBACKS_FILE
    with _locked(folder):
        count = len(_split(path.read_text())) if path.exists() else 0
        path.unlink(missing_ok=True)
    return count


def redis_url() -> str | None:
    """COIN_PUZZLES_REDIS_URL: one Redis for the queue and the store of several hosts (unset: SQLite here)."""
    return os.environ.get("COIN_PUZZLES_REDIS_URL") or None


def store_address(folder: Path) -> str:
    """Where results are kept: the Redis URL when set, else results.db in the instance folder."""
    return redis_url() or f"sqlite:{folder / 'results.db'}"


def setting(name: str, default: int) -> int:
    """A whole-number setting from the environment (the default when unset or not a whole number)."""
    value = whole_number(os.environ.get(name, ""), most_digits=18)
    return default if value is None else value


def precomputing() -> bool:
    """Whether the site fills its result store itself (COIN_PUZZLES_PRECOMPUTE, on unless 0): gunicorn's master
    stores what is shipped before the site listens (`webapp.served_app`), and the precomputation's consumer queues
    the rest of what the site lists."""
    return os.environ.get("COIN_PUZZLES_PRECOMPUTE", "1") != "0"


def job_seconds(queue: str) -> int:
    """A job's wall-clock limit: COIN_PUZZLES_JOB_SECONDS for visitors' jobs (default an hour: the largest
    searches offered to visitors stop at their work budgets within about half an hour), and
    COIN_PUZZLES_PRECOMPUTE_JOB_SECONDS for the precomputation's (default six hours: the French board's longest
    proof takes about two), COIN_PUZZLES_QUICK_JOB_SECONDS for the quick lane's (default five minutes: its jobs
    take seconds, and their searches stop at their budgets well before)."""
    if queue == "precompute":
        return setting("COIN_PUZZLES_PRECOMPUTE_JOB_SECONDS", 6 * 3600)
    if queue == "quick":
        return setting("COIN_PUZZLES_QUICK_JOB_SECONDS", 300)
    return setting("COIN_PUZZLES_JOB_SECONDS", 3600)


def job_memory_mb() -> int:
    """Each background job's memory budget (COIN_PUZZLES_JOB_MEMORY_MB, default 7,168 MB: the French board's
    d2 to a3 proof peaks at 5.6 GiB resident, its address space some 0.3 to 0.5 GB above; the visitors' two job
    processes then stay within 14 GiB of the machine's 24, and the precomputation's two in `make run` hold no
    French problem, which is left to `make precompute`)."""
    return setting("COIN_PUZZLES_JOB_MEMORY_MB", 7168)
