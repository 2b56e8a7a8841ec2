"""Weighing variants: the largest N each variant answers (fewest weighings proved, first weighing shown) in under
100 ms, beside a plain explicit-set search run in the same process; and whole plans for a few sizes.

Run with `python benchmarks/variants.py`. Not part of `make test`.
"""

from __future__ import annotations

import sys
import time
from functools import cache
from itertools import product
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.record import Record  # noqa: E402
from solvers.variants.model import Secret, Variant, reading, secrets  # noqa: E402
from solvers.variants.plan import make_plan, verify  # noqa: E402

LIMIT = 0.1  # seconds
CONFIGS = [
    ("one lie, weight unknown", {"lies": 1}),
    ("one lie, heavier", {"lies": 1, "weight": "heavier"}),
    ("two lies, weight unknown", {"lies": 2}),
    ("two lies, heavier", {"lies": 2, "weight": "heavier"}),
    ("two fakes, heavier", {"fakes": 2, "weight": "heavier"}),
    ("two fakes, weight unknown", {"fakes": 2}),
    ("3 pans, weight unknown", {"pans": 3}),
    ("4 pans, weight unknown", {"pans": 4}),
    ("5 pans, weight unknown", {"pans": 5}),
]


def ours(v: Variant) -> tuple[int | None, float]:
    """Fewest weighings and the first weighing, with the time taken (a fresh search)."""
    t = time.perf_counter()
    plan = make_plan(v)
    if plan.solvable:
        plan.node("")
    return plan.weighings, time.perf_counter() - t


def plain(v: Variant, deadline: float) -> int | None:
    """Baseline: iterative deepening on explicit sets of (secret, lies used), every weighing as an assignment of
    each coin to a pan or off the scale (equal pans), memoised on the set. None past the deadline."""
    all_w = []
    for a in product(range(v.pans + 1), repeat=v.coins):
        sizes = [a.count(p) for p in range(1, v.pans + 1)]
        if sizes[0] and len(set(sizes)) == 1:
            all_w.append(tuple(tuple(c + 1 for c, x in enumerate(a) if x == p) for p in range(1, v.pans + 1)))

    @cache
    def ok(state: frozenset[tuple[Secret, int]], w: int) -> bool:
        if time.perf_counter() > deadline:
            raise TimeoutError
        if len({s for s, _ in state}) <= 1:
            return True
        if w == 0:
            return False
        for pans in all_w:
            kids = []
            for o in v.outcomes:
                moved = ((s, e + (o != reading(v, pans, s))) for s, e in state)
                kids.append(frozenset((s, e) for s, e in moved if e <= v.lies))
            if all(ok(k, w - 1) for k in kids):
                return True
        return False

    start = frozenset((s, 0) for s in secrets(v))
    try:
        for w in range(12):
            if ok(start, w):
                return w
    except TimeoutError:
        return None
    return None


def largest(kw: dict[str, object], fn: str) -> tuple[int, int | None, float]:
    """The largest N (scanning up from the smallest) answered within LIMIT, its figure and time."""
    best: tuple[int, int | None, float] = (0, None, 0.0)
    fakes = int(kw.get("fakes", 1))  # type: ignore[call-overload]
    for n in range(fakes, 101):
        v = Variant(n, **kw)  # type: ignore[arg-type]
        if fn == "ours":
            w, dt = ours(v)
            if dt > LIMIT:
                break
        else:
            t = time.perf_counter()
            w = plain(v, t + LIMIT)
            dt = time.perf_counter() - t
            if dt > LIMIT or n > 9:
                break
        best = (n, w, dt)
    return best


def main() -> None:
    """Print the table of largest N within 100 ms, ours beside the baseline, and a few whole plans."""
    record = Record("variants")
    for name, kw in CONFIGS:
        n1, w1, t1 = largest(kw, "ours")
        n2, w2, t2 = largest(kw, "plain")
        record.row(
            f"{name}: the largest N such that every N up to it gets its fewest weighings (proved) and first weighing "
            "within 100 ms",
            f"N = {n1} ({w1} weighings, {t1 * 1000:.0f} ms)",
            f"N = {n2} ({w2} weighings, {t2 * 1000:.0f} ms): explicit-set search over every weighing of concrete coins",
            target="100 ms",
        )
    wholes = (
        Variant(12, lies=1),
        Variant(12, lies=2),
        Variant(100, lies=1),
        Variant(30, fakes=2),
        Variant(100, pans=5),
    )
    for v in wholes:
        t = time.perf_counter()
        plan = make_plan(v)
        t1 = time.perf_counter() - t
        check = verify(plan)
        t2 = time.perf_counter() - t - t1
        assert check.ok, check.message
        record.row(
            f"{v.describe()}: whole plan ({plan.weighings} weighings) searched, then verified on every secret and "
            "every way the scale may lie",
            f"{t1:.2f} s + {t2:.2f} s",
        )
    record.save()


if __name__ == "__main__":
    main()
