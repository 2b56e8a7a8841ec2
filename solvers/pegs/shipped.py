"""Proved fewest-move solutions kept in the package: starts whose proofs take an hour of both cores on disk, so
that a fresh install's showcase games follow a proved solution from the first visit, before `make precompute`
has proved them again in the instance's store.

Each entry is a solution the proof found; the claim that none is shorter rests on the proofs recorded in
docs/results.md and is repeated by `make proofs` (tests/unit/test_peg_spill.py). A solution is replayed by the
rules before it is used, so a corrupt entry fails loudly instead of showing a wrong move."""

from __future__ import annotations

from typing import NamedTuple

from .analysis import Analysis
from .board import Board, Move
from .rules import pegs, replay


class ShippedProof(NamedTuple):
    """A start and finish, the proved fewest-move solution as moves of hole labels ('a4-c4-c6': one coin's chain
    of jumps), and whether it is also the fewest finishing anywhere (every finish the start's class allows proved
    to need at least as many moves)."""

    board: str
    hole: str
    finish: str
    solution: str
    anywhere: bool


# French d3 to a5: 21 moves, found by the on-disk bidirectional search from limit 20 on 2026-11-26 (no solution
# within 20 moves, so 21 is the fewest). d3's other finishes, d5 and d2 (up to symmetry), also need 21 moves, proved
# by the same search (docs/results.md), so 21 is the fewest finishing anywhere too.
SHIPPED = (
    ShippedProof(
        "french",
        "d3",
        "a5",
        "b3-d3 c5-c3 c7-c5 a4-c4-c6 e7-c7-c5 d5-d7 f6-d6 d3-b3 c1-c3 e4-e6-c6-c4-c2 a5-c5 b2-b4 e1-c1-c3 "
        "e2-e4-c4-c6 b6-d6 g5-e5 g3-e3 d7-d5-f5-f3 f2-f4 g4-e4-e2-c2-c4-a4 a3-a5",
        anywhere=True,
    ),
)


def shipped_moves(b: Board, proof: ShippedProof) -> list[Move]:
    """A shipped solution as moves of hole indices."""
    return [tuple(b.index(h) for h in move.split("-")) for move in proof.solution.split()]


def shipped_start(b: Board, hole: str, finish: str | None) -> Analysis | None:
    """The proved fewest-move solution of a start (finishing on a hole, or anywhere) that a shipped proof gives,
    mapped by the board's symmetry that takes the proof's start (and finish) onto this one; None when none does."""
    h = b.index(hole)
    for proof in SHIPPED:
        if proof.board != b.name or (finish is None and not proof.anywhere):
            continue
        ph, pf = b.index(proof.hole), b.index(proof.finish)
        for sym in b.symmetries:
            if sym[ph] != h or (finish is not None and sym[pf] != b.index(finish)):
                continue
            moves = [tuple(sym[x] for x in move) for move in shipped_moves(b, proof)]
            end = replay(b, b.start(hole), moves)
            if end != 1 << sym[pf] or pegs(end) != 1:
                raise AssertionError("a shipped peg solution failed its replay")
            return Analysis(True, len(moves), None, {sym[pf]: len(moves)}, moves, "bidirectional")
    return None
