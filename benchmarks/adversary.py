"""Adversary benchmarks: time per answer (target < 50 ms for N up to 1,000), against a baseline.

Run with `python benchmarks/adversary.py`. Not part of `make test`.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.record import Record  # noqa: E402
from solvers.weighing import (  # noqa: E402
    Problem,
    min_weighings,
    search,  # noqa: E402
)
from solvers.weighing.adversary import adversary_outcome, as_user, hint, replay  # noqa: E402
from solvers.weighing.knowledge import UserWeighing, apply  # noqa: E402
from solvers.weighing.plan import Coins, start  # noqa: E402
from solvers.weighing.problem import OUTCOMES  # noqa: E402


def clear() -> None:
    """Cold caches for every timing."""
    for fn in (search.solvable, search.worst_split, search.all_splits, search.solvable_by_search):
        fn.cache_clear()


def games(p: Problem, rng: random.Random) -> list[list[UserWeighing]]:
    """Two games: one following the solver's hints, one of random legal weighings."""
    m = min_weighings(p).weighings or 1
    hinted: list[UserWeighing] = []
    while (h := hint(replay(p, m, hinted))) is not None:
        hinted.append(as_user(h))
    coins: list[int | str] = list(range(1, p.coins + 1))
    wild = []
    for _ in range(m):
        rng.shuffle(coins)
        k = rng.randint(1, p.coins // 2)
        wild.append((tuple(coins[:k]), tuple(coins[k : 2 * k])))
    return [hinted, wild]


def answer_times(p: Problem, ws: list[UserWeighing], exhaustive: bool = False) -> list[float]:
    """Seconds for each answer of a game, from cold caches."""
    c: Coins = start(p)
    out = []
    for w in ws:
        clear()
        t = time.perf_counter()
        o = baseline_outcome(c, w, p.find) if exhaustive else adversary_outcome(c, w, p.find)
        out.append(time.perf_counter() - t)
        c = apply(c, w, o)
    return out


def baseline_outcome(c: Coins, w: UserWeighing, find: bool) -> object:
    """The same rule, with 'weighings needed' found by exhaustive search (no counting rules)."""
    best = None
    for o in OUTCOMES:
        after = apply(c, w, o)
        b = after.abstract()
        if b.cases == 0:
            continue
        need = next(k for k in range(0, 2 * b.cases + 2) if search.solvable_by_search(b, k, find))
        score = (need, b.cases)
        if best is None or score > best[0]:
            best = (score, o)
    assert best is not None
    return best[1]


def main() -> None:
    """Print median and worst time per answer."""
    record = Record("adversary")
    rng = random.Random(2026)
    for n in (12, 100, 1000):
        p = Problem(n)
        times = [t for g in games(p, rng) for t in answer_times(p, g)]
        record.row(
            f"the adversary's answer, N = {n:,} ({len(times)} answers: a hinted and a random game)",
            f"median {statistics.median(times) * 1e3:.2f} ms, worst {max(times) * 1e3:.2f} ms",
            target="< 50 ms",
        )
    p = Problem(12)
    ours = [t for g in games(p, rng) for t in answer_times(p, g)]
    base = [t for g in games(p, rng) for t in answer_times(p, g, exhaustive=True)]
    record.row(
        "the adversary's answer, N = 12, against a baseline",
        f"median {statistics.median(ours) * 1e3:.2f} ms",
        f"median {statistics.median(base) * 1e3:.2f} ms: 'weighings needed' by exhaustive search",
        f"{statistics.median(base) / statistics.median(ours):.0f}x",
    )
    p = Problem(1000)
    game = games(p, rng)[0]
    clear()
    t = time.perf_counter()
    replay(p, len(game), game)
    took = (time.perf_counter() - t) * 1e3
    record.row(f"replay a whole {len(game)}-weighing game of 1,000 coins from its URL", f"{took:.1f} ms")
    record.save()


if __name__ == "__main__":
    main()
