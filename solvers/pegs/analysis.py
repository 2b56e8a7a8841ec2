"""What is known about a position: exact on small boards, by search on larger ones, by the invariant at once."""

from __future__ import annotations

from dataclasses import dataclass

from .board import Board, Move
from .exact import EXACT_MAX_HOLES, exact
from .invariant import class_finals
from .rules import jumps_to_moves, pegs, replay
from .search import DFS_NODE_LIMIT, find_solution


@dataclass(frozen=True)
class Analysis:
    """What is known about a position."""

    solvable: bool | None
    min_moves: int | None
    min_jumps: int | None
    finals: dict[int, int] | None  # final hole -> fewest moves (exact boards only)
    solution: list[Move]
    method: str


EXACT_QUICK_HOLES = 21  # exact analysis in a web request: boards this small, or positions with few coins


EXACT_QUICK_PEGS = 16


def quick_exact(b: Board, pos: int) -> bool:
    """True when exact analysis of this position is quick enough for a request."""
    return b.size <= EXACT_QUICK_HOLES or (b.size <= EXACT_MAX_HOLES and pegs(pos) <= EXACT_QUICK_PEGS)


def analyse(b: Board, pos: int, thorough: bool = False, node_limit: int = DFS_NODE_LIMIT) -> Analysis:
    """Exact analysis on small boards (all of them when thorough); depth-first search on larger ones."""
    if pegs(pos) > 1 and not class_finals(b, pos):
        return Analysis(False, None, None, {}, [], "position class")
    if quick_exact(b, pos) or (thorough and b.size <= EXACT_MAX_HOLES):
        ex = exact(b.name)
        m = ex.min_moves(pos)
        finals = ex.finals(pos) if m is not None else {}
        return Analysis(m is not None, m, pegs(pos) - 1 if m is not None else None, finals, ex.solution(pos), "exact")
    found = find_solution(b, pos, node_limit * (20 if thorough else 1))
    if found.jumps is not None:
        moves = jumps_to_moves(found.jumps)
        final = replay(b, pos, moves).bit_length() - 1
        return Analysis(True, None, pegs(pos) - 1, {final: len(moves)}, moves, "search")
    return Analysis(False if found.exhausted else None, None, None, None, [], "search")
