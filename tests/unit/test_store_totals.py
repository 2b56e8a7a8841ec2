"""The SQLite store's running totals of the visitors' and the games' bytes: kept by triggers in the writing
transaction, so that a write need not sum every row of its class; each must equal that sum after any mix of
writes, rewrites, evictions and deletes, and a store made before the totals existed gets them from its rows."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from webapp.store import Budget
from webapp.store.sqlite import SqliteStore

SECRET = [b"unit-secret"]


def _summed(path: Path, kind: int = 0) -> int:
    """The visitors' bytes (or the games', kind 2) summed row by row (what the running total replaces)."""
    with sqlite3.connect(path) as db:
        return int(db.execute("SELECT COALESCE(SUM(size), 0) FROM results WHERE kept = ?", (kind,)).fetchone()[0])


def test_the_running_total_is_the_sum_after_any_mix_of_writes(tmp_path: Path) -> None:
    """2,000 random operations on visitors' keys, games and kept ones: new entries, rewrites of another size
    (the row updated in place), deletes and the budgets' evictions; after each, each total is its rows' sum and
    within its budget."""
    rng = random.Random(74)
    budget = Budget(20_000, lambda key: key.startswith("kept:"), 30_000, 0.0)
    path = tmp_path / "r.db"
    store = SqliteStore(path, SECRET, budget)
    for step in range(2_000):
        key = f"{rng.choice(['visitor:', 'game:', 'kept:'])}{rng.randrange(60)}"
        if rng.random() < 0.15:
            store.delete(key)
        else:
            store.put(key, bytes(rng.randrange(1, 2_400)))
        if step % 50 == 0 or step > 1_950:
            assert store.visitors_bytes() == _summed(path), step
            assert store.games_bytes() == _summed(path, 2), step
    assert 0 < store.visitors_bytes() <= 20_000 and 0 < store.games_bytes() <= 30_000
    assert store.swap("visitor:swapped", None, bytes(500)) and store.visitors_bytes() == _summed(path)
    assert store.swap("game:swapped", None, bytes(500)) and store.games_bytes() == _summed(path, 2)


def test_a_store_made_before_the_total_gets_it_from_its_rows(tmp_path: Path) -> None:
    """A store file without the totals (as an earlier version left it) is opened: its total is its rows' sum, and
    writes keep it so."""
    path = tmp_path / "r.db"
    store = SqliteStore(path, SECRET, Budget(0, lambda key: key.startswith("kept:")))
    for n in range(10):
        store.put(f"visitor:{n}", bytes(100 + n))
        store.put(f"game:{n}", bytes(200 + n))
        store.put(f"kept:{n}", bytes(1_000))
    with sqlite3.connect(path) as db:  # as the version before games' own total left it: games were visitors'
        for trigger in ("entries_in", "entries_out", "entries_changed"):
            db.execute(f"DROP TRIGGER {trigger}")
        db.execute("UPDATE results SET kept = 0 WHERE key LIKE 'game:%'")
        db.execute("DROP TABLE totals")
    again = SqliteStore(path, SECRET, Budget(0, lambda key: key.startswith("kept:")))
    assert again.visitors_bytes() == _summed(path) == sum(len(f"visitor:{n}") + 100 + n for n in range(10))
    assert again.games_bytes() == _summed(path, 2) == sum(len(f"game:{n}") + 200 + n for n in range(10))
    again.put("visitor:new", bytes(77))
    again.delete("visitor:0")
    again.delete("game:0")
    assert again.visitors_bytes() == _summed(path) and again.games_bytes() == _summed(path, 2)


def test_a_large_eviction_gives_the_logs_space_back(tmp_path: Path) -> None:
    """20 MB of visitors' entries (within a 200 MB budget) evicted by the next write once the budget is lowered:
    the write-ahead log is checkpointed and truncated at once, instead of staying at the eviction's size."""
    path = tmp_path / "r.db"
    store = SqliteStore(path, SECRET, Budget(200 << 20, lambda key: False))
    store.put("visitor:large", bytes(20 << 20))
    assert store.get("visitor:large") is not None
    store = SqliteStore(path, SECRET, Budget(1 << 20, lambda key: False))
    store.put("visitor:small", bytes(1_000))
    assert store.get("visitor:large") is None
    wal = path.with_name(path.name + "-wal")
    assert not wal.exists() or wal.stat().st_size < 1 << 20, wal.stat().st_size


def test_an_earlier_versions_trigger_beside_ours_is_cleared_at_the_next_open(tmp_path: Path) -> None:
    """An earlier version opening the file adds its own trigger beside ours (during a deploy), which counts every
    visitor's write twice: the next open of this version drops it and makes the totals again from the rows."""
    path = tmp_path / "r.db"
    store = SqliteStore(path, SECRET, Budget(0, lambda key: key.startswith("kept:")))
    store.put("visitor:1", bytes(100))
    with sqlite3.connect(path) as db:  # the earlier version's trigger, as it made it
        db.execute(
            "CREATE TRIGGER visitors_in AFTER INSERT ON results WHEN NEW.kept = 0 BEGIN "
            "UPDATE totals SET bytes = bytes + NEW.size WHERE name = 'visitors'; END"
        )
    store.put("visitor:2", bytes(100))
    assert store.visitors_bytes() > _summed(path)  # counted twice while both run
    again = SqliteStore(path, SECRET, Budget(0, lambda key: key.startswith("kept:")))
    assert again.visitors_bytes() == _summed(path)
    again.put("visitor:3", bytes(100))
    assert again.visitors_bytes() == _summed(path)
