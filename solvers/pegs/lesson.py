"""What a hint teaches on the peg board: the fewest moves still needed, and what the last jump cost.

A move is a chain of jumps by one coin, so the jump just made may be continued for free: the fewest moves from a
position after a jump is the least of a fresh start from there and of going on with the same coin
(`fewest_continuing`). The last jump's cost is how much it raised the best total the game can still reach (moves
made plus fewest moves still needed): 0 for a best jump. Both need the fewest moves of positions (`FewestMoves`: None
when unknown), which the exact analysis gives on small boards and late positions."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .play import PegGame
from .rules import apply_jump, jumps_to_moves, legal_jumps

# The fewest moves from a position with a fresh move (-1: it cannot be finished; None: not known).
FewestMoves = Callable[[int], "int | None"]
IMPOSSIBLE = -1


@dataclass(frozen=True)
class PegLesson:
    """The fewest moves still needed from here (None: unknown, -1: cannot be finished), and the last jump's cost
    in moves against the best jump (None: no jump yet, or unknown; -1: it made a solvable game unsolvable)."""

    fewest_here: int | None
    best_total: int | None  # moves made plus fewest_here
    last_cost: int | None
    best_total_before: int | None


def fewest_continuing(g: PegGame, pos: int, hole: int | None, fewest: FewestMoves) -> int | None:
    """The fewest moves to finish from pos when the coin on hole (None: no coin) may go on jumping as part of the
    move just made."""
    best = fewest(pos)
    if best is None:
        return None
    for f, o, t in legal_jumps(g.board, pos):
        if f == hole:
            then = fewest_continuing(g, apply_jump(pos, (f, o, t)), t, fewest)
            if then is None:
                return None
            if then != IMPOSSIBLE and (best == IMPOSSIBLE or then < best):
                best = then
    return best


def _standing(g: PegGame, fewest: FewestMoves) -> tuple[int | None, int | None]:
    """(fewest moves still needed, best total reachable) for a game."""
    last = g.jumps[-1][2] if g.jumps else None
    here = fewest_continuing(g, g.position(), last, fewest)
    if here is None or here == IMPOSSIBLE:
        return here, None
    return here, len(jumps_to_moves(g.jumps)) + here


def lesson(g: PegGame, fewest: FewestMoves) -> PegLesson:
    """The fewest moves from here and the best total, and what the last jump cost against the best one."""
    here, total = _standing(g, fewest)
    if not g.jumps:
        return PegLesson(here, total, None, None)
    before_here, before = _standing(g.back(), fewest)
    if before_here is None or here is None:
        cost = None
    elif before_here == IMPOSSIBLE:
        cost = 0  # nothing left to lose
    elif here == IMPOSSIBLE:
        cost = IMPOSSIBLE
    else:
        assert total is not None and before is not None
        cost = total - before
    return PegLesson(here, total, cost, before)
