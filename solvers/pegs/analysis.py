"""What is known about a position: exact on small boards, by search on larger ones, by the invariant at once."""

from __future__ import annotations

from dataclasses import dataclass

from solvers.progress import Tick, quiet

from .board import Board, Move
from .exact import EXACT_MAX_HOLES, exact
from .fewest import IN_MEMORY, Means
from .invariant import class_finals
from .rules import jumps_to_moves, pegs, replay


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
SEARCH_BUDGET = 5_000_000  # compiled search nodes for a hint (a few seconds, in a background job)
THOROUGH_BUDGET = 200_000_000  # for the API, the CLI and the tables (minutes at most, in a background job)


def quick_exact(b: Board, pos: int) -> bool:
    """True when exact analysis of this position is quick enough for a request."""
    return b.size <= EXACT_QUICK_HOLES or (b.size <= EXACT_MAX_HOLES and pegs(pos) <= EXACT_QUICK_PEGS)


def analyse(
    b: Board,
    pos: int,
    thorough: bool = False,
    budget: int | None = None,
    finish: int | None = None,
    fewest: bool = False,
    tick: Tick = quiet,
    means: Means = IN_MEMORY,
) -> Analysis:
    """Exact analysis on small boards (all of them when thorough); depth-first search on larger ones. With a
    finish hole, only solutions whose last coin is there count; with fewest too, larger boards get the proved
    fewest moves by bidirectional search (solvers/pegs/meet.py) when its budget allows, with its progress
    (levels built for the limit being tried) on tick."""
    if pegs(pos) > 1 and (not class_finals(b, pos) or (finish is not None and finish not in class_finals(b, pos))):
        return Analysis(False, None, None, {}, [], "position class")
    if quick_exact(b, pos) or (thorough and b.size <= EXACT_MAX_HOLES):
        ex = exact(b.name)
        finals = ex.finals(pos)
        if finish is not None:
            finals = {finish: finals[finish]} if finish in finals else {}
        m = min(finals.values()) if finals else None
        solution = ex.solution(pos, finish if finish is not None else -1) if finals else []
        _check(b, pos, solution, finish)
        return Analysis(m is not None, m, pegs(pos) - 1 if m is not None else None, finals, solution, "exact")
    if pegs(pos) == 1:
        ok = finish is None or pos == 1 << finish
        return Analysis(ok, 0 if ok else None, 0 if ok else None, {pos.bit_length() - 1: 0} if ok else {}, [], "search")
    from .compiled import solve  # compiled (Numba): imported only for the boards that need them
    from .meet import MAX_STATES, fewest_meet

    if fewest and finish is not None:
        states = means.max_states or MAX_STATES
        best = fewest_meet(b, pos, finish, states, tick, spill=means.spill, start_limit=means.start_limit)
        if best.moves is not None:
            _check(b, pos, best.solution, finish)
            return Analysis(True, best.moves, pegs(pos) - 1, {finish: best.moves}, best.solution, "bidirectional")
        if best.proved:
            return Analysis(False, None, None, {}, [], "bidirectional")
    found = solve(b, pos, finish, budget or (THOROUGH_BUDGET if thorough else SEARCH_BUDGET))
    if found.jumps is not None:
        moves = jumps_to_moves(found.jumps)
        _check(b, pos, moves, finish)
        final = replay(b, pos, moves).bit_length() - 1
        return Analysis(True, None, pegs(pos) - 1, {final: len(moves)}, moves, "search")
    return Analysis(False if found.exhausted else None, None, None, None, [], "search")


def _check(b: Board, pos: int, moves: list[Move], finish: int | None) -> None:
    """A solution is replayed by the rules before it is shown: one coin left, on the finish hole if one is set."""
    if not moves:
        return
    end = replay(b, pos, moves)
    if pegs(end) != 1 or (finish is not None and end != 1 << finish):
        raise AssertionError("a peg solution failed its replay")
