"""A peg game in progress: the board, the starting hole and the jumps made, with its text form for URLs."""

from __future__ import annotations

from dataclasses import dataclass

from solvers.errors import InputError, LimitError

from .board import Board, Jump
from .rules import apply_jump, checked_jump, legal_jumps, pegs

MAX_JUMPS = 40


@dataclass(frozen=True)
class Game:
    """A game: board, starting hole (its label) and the jumps made so far."""

    board: Board
    hole: str
    jumps: tuple[Jump, ...] = ()

    @property
    def start(self) -> int:
        """The starting position."""
        return self.board.start(self.hole)

    def position(self) -> int:
        """The position after the jumps."""
        pos = self.start
        for j in self.jumps:
            pos = apply_jump(pos, j)
        return pos

    def then(self, *jumps: Jump) -> Game:
        """The game with more jumps made."""
        return Game(self.board, self.hole, (*self.jumps, *jumps))

    def back(self, k: int = 1) -> Game:
        """The game with its last k jumps taken back."""
        return Game(self.board, self.hole, self.jumps[: max(0, len(self.jumps) - k)])

    def text(self) -> str:
        """The jumps as URLs carry them: from-to by hole labels, comma-separated (e.g. '4-1,6-4')."""
        labels = self.board.labels
        return ",".join(f"{labels[f]}-{labels[t]}" for f, _, t in self.jumps)

    @property
    def won(self) -> bool:
        """One coin left."""
        return pegs(self.position()) == 1

    @property
    def dead(self) -> bool:
        """More than one coin and no jump left."""
        pos = self.position()
        return pegs(pos) > 1 and next(legal_jumps(self.board, pos), None) is None


def game_from_text(b: Board, hole: str, text: str) -> Game:
    """A game from its start hole and jump text; every jump is checked by the rules."""
    start = b.start(hole)
    parts = [x for x in text.split(",") if x.strip()]
    if len(parts) > MAX_JUMPS:
        raise LimitError(f"at most {MAX_JUMPS} jumps")
    pos, jumps = start, []
    for part in parts:
        labels = part.split("-")
        if len(labels) != 2:
            raise InputError(f"{part[:20]!r} is not a jump: write it as from-to, like 4-1")
        j = checked_jump(b, pos, b.index(labels[0]), b.index(labels[1]))
        pos = apply_jump(pos, j)
        jumps.append(j)
    return Game(b, b.labels[b.index(hole)], tuple(jumps))
