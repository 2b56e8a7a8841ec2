"""The code-breaking report: a strategy's verified statistics (and its tree) for a game."""

from __future__ import annotations

from dataclasses import dataclass

from solvers.report import optional

from .solve import TreeRequest
from .strategy import OPTIMAL, Stats, to_dot, to_json
from .tree import Node


@dataclass(frozen=True)
class CodebreakReport:
    """Worst case, total and average number of experiments over all secrets, verified by playing each one."""

    game: str
    secrets: int
    strategy: str
    worst: int
    total: int
    average: str
    verified: bool
    proved: bool  # the strategy's criterion (worst case or total) is proved optimal by the complete search
    max_guesses: int | None = optional()  # the optimal average was asked within this many guesses
    possible_only: bool | None = optional()  # the optimum among strategies guessing only codes still possible
    tree: dict[str, object] | None = optional()
    dot: str | None = optional()

    def text(self) -> str:
        """The report in words (and the DOT text when asked)."""
        head = (
            f"{self.game} ({self.secrets} secrets), {self.strategy}: worst {self.worst}, total {self.total}, "
            f"average {self.average}, verified {self.verified}"
            + (", proved optimal" if self.proved else "")
            + (f" within {self.max_guesses} guesses" if self.max_guesses else "")
            + (", guessing possible codes only" if self.possible_only else "")
        )
        return f"{head}\n{self.dot}" if self.dot else head


def codebreak_report(
    name: str, asked: TreeRequest, solved: tuple[Node, Stats], tree: bool = False, dot: bool = False
) -> CodebreakReport:
    """The report for what was asked (the game, the strategy, a cap on the guesses, possible codes only) and its
    verified strategy tree, with the tree itself (as JSON, or as a Graphviz graph) when asked."""
    g, (root, stats) = asked.game, solved
    return CodebreakReport(
        name,
        len(g.secrets),
        asked.strategy,
        stats.worst,
        stats.total,
        str(stats.average),
        stats.verified,
        asked.strategy in OPTIMAL,
        asked.max_guesses,
        asked.possible_only or None,
        to_json(g, root) if tree else None,
        to_dot(g, root) if dot else None,
    )
