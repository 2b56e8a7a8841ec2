"""Æquitas on numbered coins: the Observer's knowledge, the known fake, and moves mapped to real weighings."""

from __future__ import annotations

from dataclasses import dataclass

from solvers.weighing.case import Case
from solvers.weighing.knowledge import UserWeighing, apply, check_weighing, honest_outcome
from solvers.weighing.plan import Coins, Ranges, numbers, take
from solvers.weighing.problem import Goal

from .game import AequitasMove, Convention, Position


def setup(game: str, n: int, extra: bool, light: int, fake: int, heavier: bool) -> AequitasTable:
    """The start of a game on numbered coins: D puts coins 1..light light-destined, the rest heavy-destined."""
    every: Ranges = ((1, n + 1),)
    if game == "D":
        coins = Coins(
            n, int(extra), (), ((1, light + 1),) if light else (), ((light + 1, n + 1),) if light < n else (), False
        )
        heavier = fake > light
    else:
        coins = Coins(n, int(extra), every, (), (), False)
    return AequitasTable(coins, Case(fake, heavier), "identify" if game == "FI" else "find")


@dataclass(frozen=True)
class AequitasTable:
    """A game in progress: what the Observer knows and where the fake really is."""

    coins: Coins
    fake: Case
    goal: Goal

    def position(self) -> tuple[Position, bool]:
        """The canonical position, and whether light and heavy were swapped to make the fake heavier."""
        c, mirrored = self.coins, not self.fake.heavier
        lt, hv = len(numbers(c.light)), len(numbers(c.heavy))
        if mirrored:
            lt, hv = hv, lt
        u = len(numbers(c.unknown))
        fake_unknown = self.fake.coin in numbers(c.unknown)
        return Position.make(u, lt, hv, c.n + c.extra - u - lt - hv, fake_unknown), mirrored

    def plain(self) -> str:
        """What the Observer knows, in plain words, counting every coin she knows to be genuine."""
        c = self.coins
        pos, mirrored = self.position()
        known = c.n + c.extra - sum(len(numbers(k)) for k in (c.unknown, c.light, c.heavy))
        return pos.plain(mirrored, genuine=known)

    def after(self, w: UserWeighing) -> AequitasTable:
        """The game after a weighing (its result is forced by the fake)."""
        return AequitasTable(apply(self.coins, w, honest_outcome(w, self.fake)), self.fake, self.goal)

    def refusal(self, w: UserWeighing, convention: Convention) -> str | None:
        """Why a weighing is not a move here (IllegalMoveError for a malformed one), or None if it is one."""
        check_weighing(self.coins, w)
        if self.position()[0].goal_reached(self.goal):
            return "the game is over"
        nxt = self.after(w)
        if nxt.cases() >= self.cases():
            return "this weighing gives the Observer no new information"
        if convention == "misere-stop-before-reveal" and nxt.position()[0].goal_reached(self.goal):
            return "under stop-before-reveal a weighing that reveals everything is not a move"
        return None

    def cases(self) -> int:
        """Cases the Observer still considers possible."""
        return self.coins.abstract().cases


def realise(t: AequitasTable, move: AequitasMove, mirrored: bool) -> UserWeighing:
    """A concrete weighing for an abstract move: lowest-numbered coins, the fake where the move puts it."""
    c, fake = t.coins, t.fake.coin or 0
    light, heavy = list(numbers(t.coins.light)), list(numbers(t.coins.heavy))
    if mirrored:
        light, heavy = heavy, light
    s = move.split
    left: list[int] = []
    right: list[int] = []
    for pool, k1, k2 in ((list(numbers(c.unknown)), s.u1, s.u2), (light, s.l1, s.l2), (heavy, s.h1, s.h2)):
        has_fake = fake in pool
        others = [x for x in pool if x != fake]
        lhs = others[: k1 - 1] + [fake] if has_fake and move.fake == "left" else others[:k1]
        rest = [x for x in others if x not in lhs]
        rhs = rest[: k2 - 1] + [fake] if has_fake and move.fake == "right" else rest[:k2]
        left += lhs
        right += rhs
    pads_needed = abs(len(left) - len(right))
    genuine_real, _ = take(c.genuine(), pads_needed)
    extras: list[int | str] = [f"G{i}" for i in range(1, c.extra + 1)]
    pads: list[int | str] = [*numbers(genuine_real), *extras][:pads_needed]
    short, long_ = (left, right) if len(left) < len(right) else (right, left)
    padded: list[int | str] = [*sorted(short), *pads]
    pans = (padded, list(long_)) if short is left else (list(long_), padded)
    return tuple(sorted(pans[0], key=_order)), tuple(sorted(pans[1], key=_order))


def _order(x: int | str) -> tuple[int, int]:
    """Numbered coins first, then extra coins."""
    return (1, int(x[1:])) if isinstance(x, str) else (0, x)
