"""An Æquitas match between a player and the computer: whose turn it is, legal moves, the computer's reply
and the verdict, on numbered coins."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NamedTuple

from solvers.errors import IllegalMoveError
from solvers.weighing.knowledge import UserWeighing, honest_outcome, learned
from solvers.weighing.problem import Outcome

from .game import Convention, best_move, playable
from .play import AequitasTable, realise, setup

Player = Literal["you", "computer"]
OTHER: dict[Player, Player] = {"you": "computer", "computer": "you"}


class MatchVerdict(NamedTuple):
    """The end of a match: who won and why."""

    winner: Player
    why: str


class MatchStep(NamedTuple):
    """One weighing of a match: who made it, what the scale showed, and what the Observer learned."""

    mover: Player
    weighing: UserWeighing
    outcome: Outcome
    cases_before: int
    cases_after: int
    learned: str


@dataclass(frozen=True)
class Match:
    """A match's fixed settings: the game, its coins, where the fake is, the convention, who moves first."""

    game: str
    n: int
    extra: bool
    light: int
    fake: int
    heavier: bool
    convention: Convention
    first: Player

    def start(self) -> AequitasTable:
        """The table before any weighing."""
        return setup(self.game, self.n, self.extra, self.light, self.fake, self.heavier)

    def mover(self, i: int) -> Player:
        """Who makes the i-th (0-based) weighing."""
        return self.first if i % 2 == 0 else OTHER[self.first]

    def replay(self, ws: tuple[UserWeighing, ...]) -> list[AequitasTable]:
        """The tables after each weighing; IllegalMoveError if a weighing is not a legal move."""
        tables = [self.start()]
        for i, w in enumerate(ws, 1):
            try:
                why = tables[-1].refusal(w, self.convention)
            except IllegalMoveError as e:
                raise IllegalMoveError(f"weighing {i}: {e}") from e
            if why:
                raise IllegalMoveError(f"weighing {i} is not a move: {why}")
            tables.append(tables[-1].after(w))
        return tables

    def steps(self, ws: tuple[UserWeighing, ...]) -> list[MatchStep]:
        """Each weighing with its mover, the scale's outcome (forced by the fake) and the Observer's lesson."""
        tables = self.replay(ws)
        return [
            MatchStep(
                self.mover(i),
                w,
                honest_outcome(w, tables[i].fake),
                tables[i].cases(),
                tables[i + 1].cases(),
                learned(tables[i].coins, tables[i + 1].coins),
            )
            for i, w in enumerate(ws)
        ]

    def verdict(self, t: AequitasTable, moves_made: int) -> MatchVerdict | None:
        """The winner and why once the game is over; None while it goes on."""
        pos, _ = t.position()
        to_move = self.mover(moves_made)
        if pos.goal_reached(t.goal):
            last = self.mover(moves_made - 1)
            winner = last if self.convention == "normal" else OTHER[last]
            why = (
                "revealed the last piece of information"
                if self.convention == "normal"
                else "revealed everything, and under misère play the revealing player loses"
            )
            return MatchVerdict(winner, f"{'You' if last == 'you' else 'The computer'} {why}.")
        if playable(pos, t.goal, self.convention):
            return None
        if self.convention == "misere-last-mover-loses":
            return MatchVerdict(
                to_move,
                "No weighing gives the Observer anything new: the player to move cannot move, which under misère "
                "play wins.",
            )
        why = (
            "every weighing left would reveal everything, and the player who has to make it loses"
            if self.convention == "misere-stop-before-reveal"
            else "no weighing gives the Observer anything new"
        )
        return MatchVerdict(
            OTHER[to_move], f"{'You are' if to_move == 'you' else 'The computer is'} to move, but {why}."
        )

    def reply(self, t: AequitasTable) -> UserWeighing | None:
        """The computer's weighing: to a Grundy-0 position when it can, else the first legal move."""
        pos, mirrored = t.position()
        choice = best_move(pos, t.goal, self.convention)
        return None if choice is None else realise(t, choice[1], mirrored)

    def advance(self, ws: tuple[UserWeighing, ...]) -> tuple[UserWeighing, ...]:
        """Let the computer move while it is its turn and the game goes on."""
        tables = self.replay(ws)
        while self.mover(len(ws)) == "computer" and self.verdict(tables[-1], len(ws)) is None:
            w = self.reply(tables[-1])
            if w is None:
                break
            ws = (*ws, w)
            tables.append(tables[-1].after(w))
        return ws

    def play(self, ws: tuple[UserWeighing, ...], new: UserWeighing) -> tuple[UserWeighing, ...]:
        """The player's weighing, checked (IllegalMoveError with the reason), then the computer's replies."""
        t = self.replay(ws)[-1]
        if self.verdict(t, len(ws)) or self.mover(len(ws)) != "you":
            raise IllegalMoveError("it is not your turn")
        why = t.refusal(new, self.convention)
        if why:
            raise IllegalMoveError(why)
        return self.advance((*ws, new))
