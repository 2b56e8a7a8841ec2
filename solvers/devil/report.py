"""The Devil's game report: what the API and the command line say about a variant."""

from __future__ import annotations

from dataclasses import dataclass

from solvers.report import optional

from .play import RING_LIMIT
from .search import belief_classes, searchable
from .solve import Solution, solve
from .variant import Variant, digits, goal_configs, positions


@dataclass(frozen=True)
class DevilReport:
    """The shortest sure win (its length, how it was found, verified) or why there is none; moves if asked."""

    coins: int
    goal: str
    reflections: bool
    states: int
    solvable: bool | None
    length: int | None
    method: str | None
    verified: bool
    reason: str | None = optional()
    moves: tuple[object, ...] | None = optional()

    def text(self) -> str:
        """The report in words."""
        if not self.solvable:
            head = f"{self.coins} coins: no sure win." if self.solvable is False else f"{self.coins} coins: unknown."
            return f"{head} {self.reason or ''}".rstrip()
        lines = [f"{self.coins} coins: a sure win in {self.length} moves ({self.method}, verified: {self.verified})"]
        lines += [f"{i}: {move}" for i, move in enumerate(self.moves or (), 1)]
        return "\n".join(lines)


def devil_report(v: Variant, with_moves: bool = False, sol: Solution | None = None) -> DevilReport:
    """The variant solved (or its given solution); moves are the places flipped (coins) or [place, amount] pairs
    (dials)."""
    sol = solve(v) if sol is None else sol
    moves: tuple[object, ...] | None = None
    if with_moves and sol.moves is not None:
        if v.states == 2:
            moves = tuple(positions(v, a) for a in sol.moves)
        else:
            moves = tuple([[i, d] for i, d in enumerate(digits(v, a)) if d] for a in sol.moves)
    return DevilReport(
        v.n, v.goal, v.reflections, v.states, sol.solvable, sol.length, sol.method, sol.verified, sol.reason, moves
    )


SOLUTION_PAGE = 32  # moves listed on one page of the solution


@dataclass(frozen=True)
class SolutionStep:
    """One step of a sure win as the solution page shows it: the moves of its page (number, places, tables still
    possible after it), the step's move, the tables possible before and after it, and (small N) the rotation
    classes before and after, as rings."""

    step: int
    total: int
    rows: tuple[tuple[int, tuple[int, ...], int], ...]
    move: tuple[int, ...]
    size_before: int
    size_after: int
    rings_before: tuple[tuple[int, ...], ...] | None
    rings_after: tuple[tuple[int, ...], ...] | None


def solution_step(v: Variant, moves: tuple[int, ...], sizes: tuple[int, ...], step: int) -> SolutionStep:
    """The page model of step `step` (1-based) of a sure win with these moves and belief sizes."""
    start = (step - 1) // SOLUTION_PAGE * SOLUTION_PAGE
    rows = tuple(
        (i + 1, tuple(positions(v, moves[i])), sizes[i]) for i in range(start, min(len(moves), start + SOLUTION_PAGE))
    )
    small = searchable(v)
    before = belief_classes(v, moves[: step - 1])[-1] if small else None
    after = belief_classes(v, moves[:step])[-1] if small else None

    def rings(classes: list[int] | None) -> tuple[tuple[int, ...], ...] | None:
        return None if classes is None or len(classes) > RING_LIMIT else tuple(digits(v, c) for c in classes)

    return SolutionStep(
        step,
        len(moves),
        rows,
        tuple(positions(v, moves[step - 1])),
        v.configs - len(goal_configs(v)) if step == 1 else sizes[step - 2],
        sizes[step - 1],
        rings(before),
        rings(after),
    )
