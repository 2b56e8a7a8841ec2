"""The Devil's game report: what the API and the command line say about a variant."""

from __future__ import annotations

from dataclasses import dataclass

from solvers.errors import InputError
from solvers.report import optional

from .play import RING_LIMIT, adversarial_sizes, rings, won_at
from .search import DevilLesson, belief_classes, devil_lesson, search_from, searchable
from .solve import Solution, solve
from .variant import DevilVariant, digits, goal_configs, positions


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


def devil_report(v: DevilVariant, with_moves: bool = False, sol: Solution | None = None) -> DevilReport:
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
    first: int
    rows: tuple[tuple[int, tuple[int, ...], int], ...]
    move: tuple[int, ...]
    size_before: int
    size_after: int
    rings_before: tuple[tuple[int, ...], ...] | None
    rings_after: tuple[tuple[int, ...], ...] | None


@dataclass(frozen=True)
class Line:
    """A sure win to step through: its moves and the tables still possible after each, from move `first` (1-based;
    the moves before it are the player's own, already made)."""

    moves: tuple[int, ...]
    sizes: tuple[int, ...]
    first: int = 1
    restart: bool = False  # a construction followed again from its first move, from the player's position


def line_from(v: DevilVariant, sol: Solution, played: tuple[int, ...]) -> Line | None:
    """The sure win from the position after the player's moves: the solution itself at the start; from a later
    position the shortest sure win from what is known there (breadth-first search, small N), or, where only a
    construction is known, the construction again (it wins from any table). Verified against every table and every
    turn of the Devil; None where there is no sure win. (The construction's counts of tables are those of the
    game's start: recounting them after the player's moves takes seconds for 16 coins.)"""
    if sol.moves is None or not sol.solvable:
        return None
    if not played or not searchable(v):
        return Line(sol.moves, sol.sizes, restart=bool(played))
    rest = search_from(v, played).moves
    if rest is None:
        return None
    moves = (*played, *rest)
    sizes = adversarial_sizes(v, moves)
    if sizes[-1] != 0:
        raise AssertionError("a sure win from this position left a table possible")
    return Line(moves, sizes, len(played) + 1)


def solution_step(v: DevilVariant, line: Line, step: int) -> SolutionStep:
    """The page model of step `step` (1-based, counted from the start of the game) of a sure win."""
    moves, sizes = line.moves, line.sizes
    start = max((step - 1) // SOLUTION_PAGE * SOLUTION_PAGE, line.first - 1)
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
        line.first,
        rows,
        tuple(positions(v, moves[step - 1])),
        v.configs - len(goal_configs(v)) if step == 1 else sizes[step - 2],
        sizes[step - 1],
        rings(before),
        rings(after),
    )


@dataclass(frozen=True)
class DevilPlayPage:
    """The Devil's play page, without its links: the variant, the moves in effect, the move after which the game
    was won (None: not yet), the tables still possible, the solution, what the last move was worth, the rotation
    classes to draw when peeking, each move's places, the random Devil's table once beaten, and the places of the
    moves taken back."""

    variant: DevilVariant
    moves: tuple[int, ...]
    won: int | None
    possible: int
    sol: Solution
    lesson: DevilLesson | None
    rings: list[tuple[int, ...]] | None
    history: tuple[tuple[int, ...], ...]
    secret_coins: tuple[int, ...] | None
    taken_back: tuple[tuple[int, ...], ...]


def play_page(
    v: DevilVariant,
    moves: tuple[int, ...],
    sol: Solution,
    played: tuple[int | None, int | None],
    peek: bool,
    taken_back: tuple[int, ...] = (),
) -> DevilPlayPage:
    """The play page's model; played: the move that won against the random Devil and its table (its sealed game
    replayed), or (None, None) against the adversarial Devil, whose win is read from the tables left."""
    sizes = adversarial_sizes(v, moves)
    won, table = played if played != (None, None) else (won_at(sizes), None)
    if won is not None and won < len(moves):
        raise InputError(f"the game was already won after move {won}")
    return DevilPlayPage(
        v,
        moves,
        won,
        sizes[-1] if sizes else v.configs - len(goal_configs(v)),
        sol,
        devil_lesson(v, moves) if sol.solvable and won is None else None,
        rings(v, moves) if peek else None,
        tuple(tuple(positions(v, a)) for a in moves),
        digits(v, table) if table is not None and won is not None else None,
        tuple(tuple(positions(v, m)) for m in taken_back),
    )
