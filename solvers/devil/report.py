"""The Devil's game report: what the API and the command line say about a variant."""

from __future__ import annotations

from dataclasses import dataclass

from solvers.report import optional

from .solve import Solution, solve
from .variant import Variant, digits, positions


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
