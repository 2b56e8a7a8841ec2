"""The Devil's hint that teaches: the fewest moves still surely winning before and after the last move, against a
brute force written here over sets of concrete tables (every rotation the Devil may make), along random games."""

from __future__ import annotations

import itertools
import random
from functools import cache

import pytest

from solvers.devil import DevilVariant
from solvers.devil.search import devil_lesson, search_from

Table = tuple[int, ...]


def brute(n: int, goal: str):  # type: ignore[no-untyped-def]
    """fewest(tables): the fewest moves surely reaching the goal from a set of tables still possible, by
    breadth-first search over sets of tables; step(tables, flips): the tables possible after a move."""
    every = list(itertools.product((0, 1), repeat=n))
    won = {t for t in every if (set(t) == {0} if goal == "all-heads" else len(set(t)) == 1)}
    moves = every

    def step(tables: frozenset[Table], flips: Table) -> frozenset[Table]:
        out = set()
        for t in tables:
            for r in range(n):  # the Devil turns the table by r places, then the flips are made
                turned = t[r:] + t[:r]
                after = tuple(a ^ b for a, b in zip(turned, flips, strict=True))
                if after not in won:
                    out.add(after)
        return frozenset(out)

    @cache
    def fewest(tables: frozenset[Table]) -> int | None:
        seen, frontier, depth = {tables}, [tables], 0
        while frontier:
            if frozenset() in frontier:
                return depth
            depth += 1
            nxt = []
            for b in frontier:
                for m in moves:
                    a = step(b, m)
                    if a not in seen:
                        seen.add(a)
                        nxt.append(a)
            frontier = nxt
        return None

    start = frozenset(t for t in every if t not in won)
    return fewest, step, start


def turned(tables: frozenset[Table]) -> int:
    """How many tables are possible once the Devil has turned the table (as he may before every move)."""
    return len({t[r:] + t[:r] for t in tables for r in range(len(t))})


def flips(n: int, move: int) -> Table:
    """A move's bitmask as the places it flips."""
    return tuple(move >> i & 1 for i in range(n))


# 4 coins to all heads takes the brute force 11 s: make proofs (4 coins to all equal stays in make test)
@pytest.mark.parametrize(
    ("n", "goal"),
    [(3, "all-heads"), pytest.param(4, "all-heads", marks=pytest.mark.proof), (4, "all-equal"), (3, "all-equal")],
)
def test_the_lesson_matches_the_brute_force(n: int, goal: str) -> None:
    """Along 20 random games of 6 moves: before and after each move, the fewest moves still surely winning (none
    ever with 3 coins), the tables still possible, the fewest tables a best move would have left, and the shortest
    sure win from the position (as long as the brute force's fewest, and winning against every table)."""
    fewest, step, start = brute(n, goal)
    v = DevilVariant(n, goal)
    rng = random.Random(n)
    seen_costs = set()
    for _ in range(20):
        moves: list[int] = []
        belief = start
        for _ in range(6):
            if not belief:
                break
            m = rng.randrange(1 << n)
            after = step(belief, flips(n, m))
            moves.append(m)
            got = devil_lesson(v, moves)
            assert got is not None
            assert (got.before, got.after) == (fewest(belief), fewest(after)), moves
            assert (got.tables_before, got.tables_after) == (turned(belief), turned(after)), moves
            best = fewest(belief)
            lefts = [turned(step(belief, flips(n, b))) for b in range(1 << n)]
            wins = [fewest(step(belief, flips(n, b))) for b in range(1 << n)]
            best_left = min(
                (k for k, w in zip(lefts, wins, strict=True) if best is not None and w == best - 1), default=None
            )
            assert got.best_left == best_left, moves
            if got.after is not None:  # the shortest sure win from here: as long as the brute force says, and it wins
                rest = search_from(v, moves).moves
                assert rest is not None and len(rest) == got.after
                final = after
                for r in rest:
                    final = step(final, flips(n, r))
                assert final == frozenset(), moves
            seen_costs.add(got.cost)
            belief = after
    if n == 4:
        assert len(seen_costs) > 1  # best moves and poorer ones were met
    else:
        assert seen_costs == {None}  # no sure win with 3 coins (only powers of two have one: Lamping)
