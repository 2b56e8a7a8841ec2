"""The SQLite store's running total of the visitors' bytes: kept by triggers in the writing transaction, so that a
write need not sum every visitor's row; it must equal that sum after any mix of writes, rewrites, evictions and
deletes, and a store made before the total existed gets it from its rows."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from webapp.store import Budget
from webapp.store.sqlite import SqliteStore

SECRET = [b"unit-secret"]


def _summed(path: Path) -> int:
    """The visitors' bytes summed row by row (what the running total replaces)."""
    with sqlite3.connect(path) as db:
        return int(db.execute("SELECT COALESCE(SUM(size), 0) FROM results WHERE kept = 0").fetchone()[0])


def test_the_running_total_is_the_sum_after_any_mix_of_writes(tmp_path: Path) -> None:
    """2,000 random operations on visitors' keys (game:) and kept ones: new entries, rewrites of another size
    (the row updated in place), deletes and the budget's evictions; after each, the total is the rows' sum and
    within the budget but for the entry just written."""
    rng = random.Random(74)
    budget = Budget(20_000, lambda key: not key.startswith("game:"))
    path = tmp_path / "r.db"
    store = SqliteStore(path, SECRET, budget)
    for step in range(2_000):
        key = f"{rng.choice(['game:', 'kept:'])}{rng.randrange(60)}"
        if rng.random() < 0.15:
            store.delete(key)
        else:
            store.put(key, bytes(rng.randrange(1, 3_000)))
        if step % 50 == 0 or step > 1_950:
            assert store.visitors_bytes() == _summed(path), step
    assert 0 < store.visitors_bytes() <= 20_000 + 3_000 + 10
    assert store.swap("game:swapped", None, bytes(500)) and store.visitors_bytes() == _summed(path)


def test_a_store_made_before_the_total_gets_it_from_its_rows(tmp_path: Path) -> None:
    """A store file without the totals (as an earlier version left it) is opened: its total is its rows' sum, and
    writes keep it so."""
    path = tmp_path / "r.db"
    store = SqliteStore(path, SECRET, Budget(0, lambda key: not key.startswith("game:")))
    for n in range(10):
        store.put(f"game:{n}", bytes(100 + n))
        store.put(f"kept:{n}", bytes(1_000))
    with sqlite3.connect(path) as db:
        for trigger in ("visitors_in", "visitors_out", "visitors_changed"):
            db.execute(f"DROP TRIGGER {trigger}")
        db.execute("DROP TABLE totals")
    again = SqliteStore(path, SECRET, Budget(0, lambda key: not key.startswith("game:")))
    assert again.visitors_bytes() == _summed(path) > 0
    again.put("game:new", bytes(77))
    again.delete("game:0")
    assert again.visitors_bytes() == _summed(path)


def test_a_large_eviction_gives_the_logs_space_back(tmp_path: Path) -> None:
    """A 20 MB visitor's entry (kept alone past a 1 MB budget) evicted by the next write: the write-ahead log is
    checkpointed and truncated at once, instead of staying at the eviction's size."""
    path = tmp_path / "r.db"
    store = SqliteStore(path, SECRET, Budget(1 << 20, lambda key: False))
    store.put("game:large", bytes(20 << 20))
    assert store.get("game:large") is not None
    store.put("game:small", bytes(1_000))
    assert store.get("game:large") is None
    wal = path.with_name(path.name + "-wal")
    assert not wal.exists() or wal.stat().st_size < 1 << 20, wal.stat().st_size
