"""Embedded defaults shared by the web app, the job consumer and the command line, each overridable from the
environment: where the instance folder is, the secret key, the result store and the queue."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def instance_path() -> Path:
    """The instance folder: COIN_PUZZLES_INSTANCE, else instance/ beside the code."""
    return Path(os.environ.get("COIN_PUZZLES_INSTANCE") or ROOT / "instance")


def secret_key(folder: Path) -> str:
    """COIN_PUZZLES_SECRET, else a key kept (mode 0600) in the instance folder, made on first use."""
    if key := os.environ.get("COIN_PUZZLES_SECRET"):
        return key
    path = folder / "secret_key"
    folder.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_hex(32))
    if path.stat().st_mode & 0o077:
        path.chmod(0o600)  # a key file written readable by others (as older versions did) is closed up
    return path.read_text().strip()


def redis_url() -> str | None:
    """COIN_PUZZLES_REDIS_URL: one Redis for the queue and the store of several hosts (unset: SQLite here)."""
    return os.environ.get("COIN_PUZZLES_REDIS_URL") or None


def store_address(folder: Path) -> str:
    """Where results are kept: the Redis URL when set, else results.db in the instance folder."""
    return redis_url() or f"sqlite:{folder / 'results.db'}"


def job_memory_mb() -> int:
    """Each background job's memory budget (COIN_PUZZLES_JOB_MEMORY_MB, default 7,168 MB: the French board's
    d2 to a3 proof peaks at 5.6 GiB resident, its address space some 0.3 to 0.5 GB above; three job processes
    then stay within 21 GiB of the machine's 24)."""
    raw = os.environ.get("COIN_PUZZLES_JOB_MEMORY_MB", "7168")
    return int(raw) if raw.isascii() and raw.isdigit() else 7168
