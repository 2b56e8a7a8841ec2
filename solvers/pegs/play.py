"""A peg game in progress: the board, the starting hole and the jumps made, with its text form for URLs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from solvers.errors import InputError, LimitError
from solvers.history import Chain, chain_from_text

from .board import Board, Jump
from .invariant import class_finals
from .rules import apply_jump, checked_jump, legal_jumps, pegs

MAX_JUMPS = 40


@dataclass(frozen=True)
class PegGame:
    """A game: board, starting hole (its label), the jumps made so far, and the goal's finish hole (its label;
    empty: the last coin may be anywhere)."""

    board: Board
    hole: str
    jumps: tuple[Jump, ...] = ()
    finish: str = ""

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

    def then(self, *jumps: Jump) -> PegGame:
        """The game with more jumps made."""
        return PegGame(self.board, self.hole, (*self.jumps, *jumps), self.finish)

    def back(self, k: int = 1) -> PegGame:
        """The game with its last k jumps taken back."""
        return PegGame(self.board, self.hole, self.jumps[: max(0, len(self.jumps) - k)], self.finish)

    def text(self) -> str:
        """The jumps as URLs carry them: from-to by hole labels, comma-separated (e.g. '4-1,6-4')."""
        labels = self.board.labels
        return ",".join(f"{labels[f]}-{labels[t]}" for f, _, t in self.jumps)

    @property
    def finish_hole(self) -> int | None:
        """The hole the last coin must end on, or None for anywhere."""
        return self.board.index(self.finish) if self.finish else None

    @property
    def won(self) -> bool:
        """One coin left, on the finish hole if the goal names one."""
        pos = self.position()
        return pegs(pos) == 1 and (self.finish_hole is None or pos == 1 << self.finish_hole)

    @property
    def missed(self) -> bool:
        """One coin left, but not on the finish hole."""
        return pegs(self.position()) == 1 and not self.won

    @property
    def dead(self) -> bool:
        """More than one coin and no jump left."""
        pos = self.position()
        return pegs(pos) > 1 and next(legal_jumps(self.board, pos), None) is None


CENTRES = {"english": "d4", "french": "d4"}
# The classic single-vacancy problems whose fewest moves are precomputed (start hole, finish hole): on the English
# board all 21 that its starts and the finishes their position classes allow make up to symmetry, the centre game
# and the starts finishing in their own hole first; on the French board, where no start can finish in its own
# hole, all ten its starts and finishes make up to symmetry, quickest first: d3 to a5, the last, takes most of an
# hour of both cores with its levels on disk (tests/unit/test_pegs.py counts both).
PROBLEMS: dict[str, tuple[tuple[str, str], ...]] = {
    "english": (
        ("d4", "d4"),
        ("c1", "c1"),
        ("d1", "d1"),
        ("c2", "c2"),
        ("d2", "d2"),
        ("c3", "c3"),
        ("d3", "d3"),
        ("c1", "c4"),
        ("c1", "f4"),
        ("c1", "c7"),
        ("d1", "a4"),
        ("d1", "d4"),
        ("d1", "d7"),
        ("c2", "c5"),
        ("c2", "f5"),
        ("d2", "a5"),
        ("d2", "d5"),
        ("c3", "f3"),
        ("d3", "a3"),
        ("d3", "d6"),
        ("d4", "d1"),
    ),
    "french": (
        ("c1", "b4"),
        ("c1", "e4"),
        ("d2", "d3"),
        ("d2", "d6"),
        ("c1", "e1"),
        ("d3", "d5"),
        ("d3", "d2"),
        ("c1", "e7"),
        ("d2", "a3"),
        ("d3", "a5"),
    ),
}


def listed_problem(b: Board, hole: str, finish: str) -> tuple[str, str] | None:
    """The listed problem (`PROBLEMS`) that a symmetry of the board maps this start and finish onto, if any: both
    have the same fewest moves."""
    h, f = b.index(hole), b.index(finish)
    images = {(b.labels[sym[h]], b.labels[sym[f]]) for sym in b.symmetries}
    return next((p for p in PROBLEMS.get(b.name, ()) if p in images), None)


def fewest_anywhere(b: Board, hole: str, settled: Mapping[tuple[str, str], int | None]) -> int | None:
    """The fewest moves from a start to one coin anywhere, from settled listed problems (their fewest moves, None
    when proved impossible): the least over every finish the start's position class allows (the last coin can be
    nowhere else), once every one of them is a settled problem up to symmetry; None otherwise or with no solution."""
    counts = []
    for f in class_finals(b, b.start(hole)):
        listed = listed_problem(b, hole, b.labels[f])
        if listed is None or listed not in settled:
            return None
        counts.append(settled[listed])
    found = [c for c in counts if c is not None]
    return min(found) if found else None


def finish_label(b: Board, hole: str, finish: str) -> str:
    """The finish hole's label from a goal: '' or 'any' (anywhere), 'start' (the start hole), 'centre', a label."""
    if finish in ("", "any"):
        return ""
    if finish == "start":
        return b.labels[b.index(hole)]
    if finish == "centre":
        if b.name not in CENTRES:
            raise InputError(f"the {b.name} board has no centre hole: give a hole, 'start' or 'any'")
        return CENTRES[b.name]
    return b.labels[b.index(finish)]


def game_from_text(b: Board, hole: str, text: str, finish: str = "") -> PegGame:
    """A game from its start hole, jump text and goal (see finish_label); every jump is checked by the rules."""
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
    return PegGame(b, b.labels[b.index(hole)], tuple(jumps), finish_label(b, hole, finish))


@dataclass(frozen=True)
class Session:
    """A game with its undo chain: the position in effect, and every move and restart behind and ahead of it."""

    game: PegGame
    chain: Chain

    def then(self, *jumps: Jump) -> Session:
        """The session after jumps made now (what could have been redone is dropped)."""
        chain = self.chain
        for f, _, t in jumps:
            chain = chain.play(f"{self.game.board.labels[f]}-{self.game.board.labels[t]}")
        return Session(self.game.then(*jumps), chain)

    def moved(self, chain: Chain) -> Session:
        """The session at another point of its chain (an undo, a redo or a restart)."""
        g = self.game
        return Session(game_from_text(g.board, g.hole, ",".join(chain.applied), g.finish), chain)

    def with_goal(self, finish: str) -> Session:
        """The same moves towards another goal."""
        return Session(PegGame(self.game.board, self.game.hole, self.game.jumps, finish), self.chain)


def session_from_text(b: Board, hole: str, text: str, finish: str = "", at: str = "", undos: str = "") -> Session:
    """A session from its URL fields: every state of the chain is checked by the rules, so a redo never fails."""
    chain = chain_from_text(text, at, undos)
    for applied in {*chain.states()}:
        game_from_text(b, hole, ",".join(applied), finish)
    return Session(game_from_text(b, hole, ",".join(chain.applied), finish), chain)
