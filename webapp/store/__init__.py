"""The result store: one SQLite file by default (`sqlite`), or Redis shared by several hosts (`redis`), behind one
interface (`base.Store`); see `base` for what every store guarantees. `codec` is the format of what it keeps.

May import: config. Everything else in webapp may import the store; it imports none of them."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from webapp import config
from webapp.store.base import (
    BUDGET_MB,
    CLAIM_SECONDS,
    CLAIMS,
    FAILED_SECONDS,
    GAME_BUDGET_MB,
    GAME_KEEP_DAYS,
    GAME_PREFIX,
    KEEP_ALL,
    NO_LIMITS,
    STALE_SECONDS,
    Budget,
    Claim,
    GamesFull,
    Limits,
    Progress,
    Signer,
    Store,
    TooLarge,
    live,
    stale_seconds,
)

__all__ = [
    "BUDGET_MB",
    "CLAIM_SECONDS",
    "CLAIMS",
    "FAILED_SECONDS",
    "GAME_BUDGET_MB",
    "GAME_KEEP_DAYS",
    "GAME_PREFIX",
    "KEEP_ALL",
    "NO_LIMITS",
    "STALE_SECONDS",
    "Budget",
    "Claim",
    "GamesFull",
    "Limits",
    "Progress",
    "Signer",
    "Store",
    "TooLarge",
    "default_store",
    "live",
    "open_store",
    "stale_seconds",
]


def open_store(address: str, secrets: Sequence[bytes], budget: Budget = KEEP_ALL) -> Store:
    """A store from its address ('sqlite:/path/to/file' or a redis:// URL), its keys (the current one first) and
    the budget of what visitors cause (the app's and its jobs': `precompute.store_budget`; none by default)."""
    if address.startswith("sqlite:"):
        from webapp.store.sqlite import SqliteStore

        return SqliteStore(Path(address.removeprefix("sqlite:")), secrets, budget)
    from webapp.store.redis import RedisStore

    return RedisStore(address, secrets, budget)


def default_store() -> Store:
    """The store the app uses by default (outside a request: the CLI and the consumer)."""
    folder = config.instance_path()
    return open_store(config.store_address(folder), config.keys(folder).encoded())
