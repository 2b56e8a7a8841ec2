"""Devil's game benchmarks: shortest strategy for N = 8, "no strategy" for N <= 15, exact check of N = 16.

Run with `python benchmarks/devil.py`. Not part of `make test`.
"""

from __future__ import annotations

import sys
import time
from itertools import product
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.baselines import breadth_first  # noqa: E402
from benchmarks.record import Record  # noqa: E402
from solvers import devil  # noqa: E402
from solvers.devil import DevilVariant, lamping, search, verify  # noqa: E402
from solvers.devil import variant as devil_variant  # noqa: E402


def clear() -> None:
    """Cold caches."""
    for fn in (devil.search, devil.solve, devil.classes, devil_variant.tables):
        fn.cache_clear()


def seed_style_search(n: int) -> int | None:
    """Baseline: the representation of Norvig's notebook "The Devil and the Coin Flip Game", beliefs as
    frozensets of canonical coin strings, breadth first."""

    def canon(s: str) -> str:
        return min(s[i:] + s[:i] for i in range(n))

    coins = sorted({canon("".join(p)) for p in product("HT", repeat=n)})
    goal = "H" * n
    start = frozenset(c for c in coins if c != goal)
    moves = [{i for i, ch in enumerate(c) if ch == "H"} for c in coins]

    def update(belief: frozenset[str], move: set[int]) -> frozenset[str]:
        out = set()
        for c in belief:
            for r in range(n):
                turned = c[r:] + c[:r]
                swapped = (("T" if ch == "H" else "H") if i in move else ch for i, ch in enumerate(turned))
                flipped = canon("".join(swapped))
                if flipped != goal:
                    out.add(flipped)
        return frozenset(out)

    return breadth_first(start, moves, update)


def main() -> None:
    """Print the figures."""
    record = Record("devil")
    clear()
    t = time.perf_counter()
    r = search(DevilVariant(8))
    ours = time.perf_counter() - t
    assert r.moves is not None
    t = time.perf_counter()
    base_len = seed_style_search(8)
    base = time.perf_counter() - t
    record.row(
        f"shortest sure win for N = 8 ({len(r.moves)} moves, {r.beliefs_explored:,} beliefs)",
        f"{ours * 1e3:.0f} ms",
        f"{base:.1f} s: Norvig's representation (sets of strings), {base_len} moves",
        f"{base / ours:.0f}x",
        "well under 1 s",
    )
    worst = 0.0
    for n in range(3, 16):
        if n & (n - 1) == 0:
            continue
        clear()
        t = time.perf_counter()
        sol = devil.solve(DevilVariant(n))
        took = time.perf_counter() - t
        how = "exhaustive belief search" if sol.method == "search" else "Lamping's argument, checked on p coins"
        t = time.perf_counter()
        full = devil.exhaust_configs(DevilVariant(n))
        took_full = time.perf_counter() - t
        assert full.exhausted and full.moves is None
        worst = max(worst, took_full)
        print(
            f"N = {n:2}: no sure win ({how}) in {took * 1e3:.1f} ms; exhaustive search on all {2**n:,} tables: "
            f"{full.beliefs_explored} reachable beliefs, none empty, in {took_full:.2f} s"
        )
    record.row(
        "'no sure win' by exhaustive search of every table, each N <= 15 not a power of two",
        f"at most {worst:.1f} s each",
    )
    moves = lamping(16)
    t = time.perf_counter()
    check = verify(DevilVariant(16), moves)
    took = time.perf_counter() - t
    assert check.ok
    record.row(
        f"exact verification of Lamping's {len(moves):,} moves for N = 16 on all 65,536 tables",
        f"{took:.1f} s",
        target="< 60 s",
    )
    record.save()


if __name__ == "__main__":
    main()
