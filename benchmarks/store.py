"""The result store's format: JSON decoded against each result's type (msgspec) beside pickle, the format it
replaced, on representative stored results: bytes, encode and decode times (median of 5 in this process). And the
store's budget: a visitor's write that evicts, in stores holding 2,000, 40,000 and 200,000 visitors' entries,
beside the row-by-row sum each such write added before the running total."""

from __future__ import annotations

import os
import pickle
import secrets
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("COIN_PUZZLES_SECRET", secrets.token_hex(32))

from record import Record  # noqa: E402

from webapp.results.catalogue import (  # noqa: E402
    AEQUITAS,
    PEGS_REPORT,
    PEGS_TABLE,
    VARIANT_PLAN,
    AequitasParams,
    BoardParams,
    VariantParams,
    pegs_problem,
)
from webapp.results.codebreak_results import CODEBREAK, GAME, codebreak_params, game_params  # noqa: E402
from webapp.results.computations import Computation, Params, dumps, loads, run  # noqa: E402

CASES: list[tuple[Computation[Any, Any], Params]] = [
    (GAME, game_params("mastermind", (4, 6, None))),
    (CODEBREAK, codebreak_params("mastermind", (4, 6, None), "knuth")),
    (CODEBREAK, codebreak_params("bulls-and-cows", (4, 10, None), "knuth")),
    (AEQUITAS, AequitasParams(30)),
    (VARIANT_PLAN, VariantParams("40-unknown-l1-f1-p2")),
    (PEGS_TABLE, BoardParams("english")),
    (PEGS_REPORT, pegs_problem("triangle-5", "1", "1")),
]


def median_seconds(f: Callable[[], object]) -> float:
    """The median of five timed calls."""
    times = []
    for _ in range(5):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def row(record: Record, c: Computation[Any, Any], params: Params) -> None:
    """One result's figures."""
    value = run(c, params, lambda done, total: None)
    stored = c.dump(value)  # the stored form either way (a plan without its search)
    blob, old = dumps(c, value), pickle.dumps(stored)
    loads(c, blob)  # msgspec builds its decoder for the type once per process
    enc, dec = median_seconds(lambda: dumps(c, value)), median_seconds(lambda: loads(c, blob))
    penc, pdec = median_seconds(lambda: pickle.dumps(stored)), median_seconds(lambda: pickle.loads(old))
    record.row(
        f"the result store as typed JSON (msgspec): {c.title(params)}, encode / decode",
        f"{enc * 1e3:.2f} / {dec * 1e3:.2f} ms ({len(blob):,} bytes)",
        f"{penc * 1e3:.2f} / {pdec * 1e3:.2f} ms ({len(old):,} bytes): pickle, same process",
        f"decode {pdec / dec:.1f}x",
    )


HELD, ENTRY = (2_000, 40_000, 200_000), 500  # the visitors' entries a store holds, and the bytes of each


def budget_row(record: Record) -> None:
    """The median time of a visitor's write (200 of them, each a new key of ENTRY bytes) in a SQLite store holding
    each of HELD visitors' entries under a budget they fill (each write evicts the least recently used), beside
    what the visitors' bytes summed row by row cost at that size (every such write paid it before the running
    total, 4b9619a), measured in the same run."""
    import sqlite3
    import tempfile

    from webapp.store import Budget
    from webapp.store.sqlite import SqliteStore

    for held in HELD:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "results.db"
            store = SqliteStore(path, [b"benchmark-key"], Budget(held * (ENTRY + 16), lambda key: False))
            with sqlite3.connect(path) as db:  # filled in one transaction (the triggers keep the total)
                rows = ((f"visitor:{n:08d}", bytes(ENTRY), "", float(n), 16 + ENTRY) for n in range(held))
                db.executemany("INSERT INTO results VALUES (?, ?, ?, ?, ?, 0)", rows)
            times = []
            for n in range(200):
                t = time.perf_counter()
                store.put(f"new:{n:08d}", bytes(ENTRY))
                times.append(time.perf_counter() - t)
            with sqlite3.connect(path) as db:
                t = time.perf_counter()
                db.execute("SELECT COALESCE(SUM(size), 0) FROM results WHERE kept = 0").fetchone()
                summed = time.perf_counter() - t
        record.row(
            f"a visitor's write under the store's budget (SQLite, {held:,} visitors' entries of {ENTRY:,} bytes held, "
            "each write evicting the least recently used)",
            f"{statistics.median(times) * 1e3:.2f} ms",
            f"{summed * 1e3:.2f} ms: the visitors' bytes summed row by row, which each such write added before",
            target="the same at every size; < 50 ms",
        )


def main() -> None:
    """Record one row a result, then the budget's."""
    record = Record("store")
    for c, params in CASES:
        row(record, c, params)
    budget_row(record)
    record.save()


if __name__ == "__main__":
    main()
