"""The result store's format: JSON decoded against each result's type (msgspec) beside pickle, the format it
replaced, on representative stored results: bytes, encode and decode times (median of 5 in this process)."""

from __future__ import annotations

import os
import pickle
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("COIN_PUZZLES_SECRET", "benchmark")  # pragma: allowlist secret

from webapp.catalogue import REGISTRY, codebreak_params, pegs_problem  # noqa: E402
from webapp.computations import dumps, loads, run  # noqa: E402

CASES = [
    ("codebreak.game", {"game": "mastermind", "pegs": 4, "colours": 6, "coins": None}),
    ("codebreak.tree", codebreak_params("mastermind", (4, 6, None), "knuth")),
    ("codebreak.tree", codebreak_params("bulls-and-cows", (4, 10, None), "knuth")),
    ("aequitas.table", {"max": 30}),
    ("variants.plan", {"variant": "40-unknown-l1-f1-p2"}),
    ("pegs.table", {"board": "english"}),
    ("pegs.report", pegs_problem("triangle-5", "1", "1")),
]


def median_seconds(f: Callable[[], object]) -> float:
    """The median of five timed calls."""
    times = []
    for _ in range(5):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def row(name: str, params: dict[str, object]) -> str:
    """One result's figures."""
    c = REGISTRY[name]
    value = run(c, params, lambda done, total: None)
    stored = c.dump(value)  # the stored form either way (a plan without its search)
    blob, old = dumps(c, value), pickle.dumps(stored)
    loads(c, blob)  # msgspec builds its decoder for the type once per process
    enc, dec = median_seconds(lambda: dumps(c, value)), median_seconds(lambda: loads(c, blob))
    penc, pdec = median_seconds(lambda: pickle.dumps(stored)), median_seconds(lambda: pickle.loads(old))
    return (
        f"{c.title(params)[:58]:<58} {len(blob):>11,} {len(old):>12,} {enc * 1e3:>7.1f}/{dec * 1e3:<8.1f} "
        f"{penc * 1e3:>8.1f}/{pdec * 1e3:<8.1f}"
    )


def main() -> None:
    """Print one row a result."""
    print(f"{'result':<58} {'JSON bytes':>11} {'pickle bytes':>12} {'JSON enc/dec ms':>16} {'pickle enc/dec ms':>18}")
    for name, params in CASES:
        print(row(name, params))


if __name__ == "__main__":
    main()
