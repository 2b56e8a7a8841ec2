"""Plain-Python baselines for `benchmarks/startup.py`, each run as a whole process: the simplest correct solver of
the same problem, with no compiled code, no bounds and no symmetry.

    python benchmarks/baselines.py devil 8            # shortest sure win of the Devil's game (all heads)
    python benchmarks/baselines.py mastermind 3 4     # Mastermind's optimal total (average case)
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Hashable, Iterable
from functools import cache
from itertools import product
from typing import TypeVar

T = TypeVar("T", bound=Hashable)
M = TypeVar("M")


def breadth_first(start: T, moves: Iterable[M], step: Callable[[T, M], T]) -> int | None:
    """The fewest moves from start to an empty (falsy) belief, trying every move at every belief reached."""
    moves = list(moves)
    seen, frontier, depth = {start}, [start], 0
    while frontier:
        depth += 1
        following = []
        for belief in frontier:
            for m in moves:
                after = step(belief, m)
                if not after:
                    return depth
                if after not in seen:
                    seen.add(after)
                    following.append(after)
        frontier = following
    return None


def devil(n: int) -> int | None:
    """Breadth-first search over beliefs: bitmasks of the rotation classes (necklaces) of the configurations still
    possible. A move flips a set of positions after the Devil's rotation, so a configuration x becomes x ^ m' for
    any rotation m' of the move's mask; the game is won when only all heads (0) could remain."""
    full = (1 << n) - 1

    def rotate(x: int, r: int) -> int:
        return ((x << r) | (x >> (n - r))) & full

    canon = [min(rotate(x, r) for r in range(n)) for x in range(1 << n)]
    reps = sorted(set(canon))
    index = {c: i for i, c in enumerate(reps)}
    successors = [
        [sum(1 << index[c] for c in {canon[x ^ rotate(m, r)] for r in range(n)} if c) for x in reps] for m in reps[1:]
    ]
    start = ((1 << len(reps)) - 1) & ~1  # every class but all heads

    def step(belief: int, row: list[int]) -> int:
        after = 0
        while belief:
            low = belief & -belief
            after |= row[low.bit_length() - 1]
            belief ^= low
        return after

    return breadth_first(start, successors, step)


def mastermind(pegs: int, colours: int) -> int:
    """The least total number of guesses over every secret (Mastermind with black and white pegs), by trying every
    guess at every set of secrets still possible, memoised on the set (a bitmask)."""
    codes = list(product(range(colours), repeat=pegs))

    def score(g: tuple[int, ...], s: tuple[int, ...]) -> tuple[int, int]:
        black = sum(a == b for a, b in zip(g, s, strict=True))
        common = sum(min(g.count(c), s.count(c)) for c in range(colours))
        return black, common - black

    win = (pegs, 0)
    parts: list[dict[tuple[int, int], int]] = []
    for g in codes:
        masks: dict[tuple[int, int], int] = {}
        for i, s in enumerate(codes):
            o = score(g, s)
            masks[o] = masks.get(o, 0) | (1 << i)
        parts.append(masks)

    @cache
    def cost(alive: int) -> int:
        size = alive.bit_count()
        if size == 1:
            return 1
        best = 1 << 60
        for gi, masks in enumerate(parts):
            total, split = size, False
            for o, mask in masks.items():
                part = alive & mask
                if not part or o == win:
                    continue
                if part == alive:
                    break  # tells nothing
                split = True
                total += cost(part)
                if total >= best:
                    break
            else:
                if split or alive >> gi & 1:
                    best = min(best, total)
        return best

    return cost((1 << len(codes)) - 1)


if __name__ == "__main__":
    kind, *sizes = sys.argv[1:]
    print(devil(*map(int, sizes)) if kind == "devil" else mastermind(*map(int, sizes)))
