"""Æquitas benchmarks: the whole comparison table (target < 30 s for N <= 30) and computer moves (< 200 ms).

Run with `python benchmarks/aequitas.py`. Not part of `make test`.
"""

from __future__ import annotations

import itertools
import statistics
import sys
import time
from functools import cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.record import Record  # noqa: E402
from solvers.aequitas import CONVENTIONS, agreement, best_move, cells, grundy  # noqa: E402
from solvers.aequitas import game as game_module  # noqa: E402
from solvers.aequitas.game import mex  # noqa: E402
from solvers.aequitas.play import realise, setup  # noqa: E402


def clear() -> None:
    """Cold caches."""
    for memo in (game_module.options, game_module._options, game_module._grundy):
        memo.cache_clear()


def concrete_grundy(n: int, fake: int) -> int:
    """Baseline: normal-play Grundy value of D(n, 0) searched over concrete coin sets and every weighing."""
    coins = tuple(range(1, n + 1))

    @cache
    def value(light: frozenset[int]) -> int:
        """Grundy value with these light-destined candidates (all others genuine)."""
        if len(light) == 1:
            return 0
        kids = set()
        for k in range(1, n // 2 + 1):
            for left in itertools.combinations(coins, k):
                rest = [c for c in coins if c not in left]
                for right in itertools.combinations(rest, k):
                    if left > right:
                        continue
                    if fake in left:
                        after = light & set(left)
                    elif fake in right:
                        after = light & set(right)
                    else:
                        after = light - set(left) - set(right)
                    if after != light:
                        kids.add(frozenset(after))
        return mex({value(c) for c in kids})

    return value(frozenset(coins))


def main() -> None:
    """Print the figures."""
    record = Record("aequitas")
    clear()
    t = time.perf_counter()
    table = cells(30)
    took = time.perf_counter() - t
    record.row(
        f"the whole comparison table, N = 1..30, 3 conventions ({len(table):,} cells)", f"{took:.1f} s", target="< 30 s"
    )
    for conv, (a, n) in agreement(table).items():
        print(f"  {conv}: {a} of {n} cells agree with the paper")
    moves = []
    for game in ("D", "F", "FI"):
        for n in (10, 20, 30):
            for conv in CONVENTIONS:
                clear()
                tb = setup(game, n, False, n, 1, True)
                t = time.perf_counter()
                pos, mirrored = tb.position()
                choice = best_move(pos, tb.goal, conv)
                if choice:
                    realise(tb, choice[1], mirrored)
                moves.append(time.perf_counter() - t)
    record.row(
        "the computer's move from cold caches (N = 10, 20, 30; D, F, FI; 3 conventions)",
        f"median {statistics.median(moves) * 1e3:.1f} ms, worst {max(moves) * 1e3:.0f} ms",
        target="< 200 ms",
    )
    for n in (6, 8):
        clear()
        p = setup("D", n, False, n, 1, True).position()[0]
        t = time.perf_counter()
        ours_value = grundy(p, "find", "normal")
        ours = time.perf_counter() - t
        t = time.perf_counter()
        base_value = concrete_grundy(n, 1)
        base = time.perf_counter() - t
        assert ours_value == base_value
        record.row(
            f"D({n},0)'s Grundy value ({ours_value}) from cold",
            f"{ours * 1e3:.2f} ms",
            f"{base * 1e3:.1f} ms: a search over concrete coin sets",
            f"{base / ours:,.0f}x",
        )
    record.save()


if __name__ == "__main__":
    main()
