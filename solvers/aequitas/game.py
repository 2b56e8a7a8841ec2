"""Æquitas positions, moves and Grundy values (Burke, Khovanova, Lee, Nowakowski, Rowland, Tennenhouse 2022).

Both players know the fake; each move is a weighing (equal numbers of coins per pan, padded with coins
known to be genuine) whose forced result gives the Observer new information. A position is the Observer's
knowledge as counts (unknown, light-destined, heavy-destined, genuine coins available) plus the class of the
real fake. By the mirror symmetry (swap light and heavy) the fake is always taken heavier: a heavy-destined
coin, or an unknown coin that is in fact heavier.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from solvers.errors import InputError
from solvers.weighing.problem import Goal, Split

Convention = Literal["normal", "misere-last-mover-loses", "misere-stop-before-reveal"]
CONVENTIONS: tuple[Convention, ...] = ("normal", "misere-last-mover-loses", "misere-stop-before-reveal")
FakeSide = Literal["left", "right", "off"]
AEQUITAS_MEMO = 1 << 18


@dataclass(frozen=True, order=True)
class Position:
    """Observer's counts (unknown, light-destined, heavy-destined, genuine available) and the fake's class."""

    u: int
    l: int  # noqa: E741 - the paper's l
    h: int
    g: int
    fake_unknown: bool  # True: the fake is an unknown coin (heavier); False: a heavy-destined coin

    @classmethod
    def make(cls, u: int, l: int, h: int, g: int, fake_unknown: bool) -> Position:  # noqa: E741
        """A position with the genuine count capped where more genuine coins add no move."""
        return cls(*_made(u, l, h, g, fake_unknown))

    @property
    def candidates(self) -> int:
        """Coins that may be the fake, for the Observer."""
        return self.u + self.l + self.h

    def goal_reached(self, goal: Goal) -> bool:
        """True when the Observer knows what the game asks (the coin; and its weight for identify)."""
        return _reached(_key(self), goal)

    def to_token(self) -> str:
        """Canonical compact string, e.g. 'u0.l4.h1.g1.fH'."""
        return f"u{self.u}.l{self.l}.h{self.h}.g{self.g}.f{'U' if self.fake_unknown else 'H'}"

    @classmethod
    def from_token(cls, token: str) -> Position:
        """Parse the canonical form; InputError if it is not one."""
        m = re.fullmatch(r"u([0-9]{1,4})\.l([0-9]{1,4})\.h([0-9]{1,4})\.g([0-9]{1,4})\.f([UH])", token)
        if not m:
            raise InputError("a position token looks like u0.l4.h1.g1.fH", token[:40])
        p = cls(int(m[1]), int(m[2]), int(m[3]), int(m[4]), m[5] == "U")
        if p != cls.make(p.u, p.l, p.h, p.g, p.fake_unknown):
            raise InputError("a position token keeps at most as many genuine coins as candidates", token[:40])
        return p

    def _classes(self, unknown: str, light: str, heavy: str) -> list[str]:
        """The classes that hold coins, each counted in its words ({n}: the count, {s}: a plural's s)."""
        counts = ((self.u, unknown), (self.l, light), (self.h, heavy))
        return [words.format(n=n, s="" if n == 1 else "s") for n, words in counts if n]

    def plain(self, mirrored: bool = False, genuine: int | None = None) -> str:
        """What the Observer knows, in plain words. Positions are kept with the fake heavier; `mirrored` (the fake
        is lighter) swaps light and heavy back to the table's own coins; `genuine`: the table's own count of known
        genuine coins (a position keeps only as many as a weighing can use)."""
        light, heavy = ("heavy", "light") if mirrored else ("light", "heavy")
        only = "{n} coin{s} that can only be "
        parts = self._classes("{n} coin{s} she knows nothing about", only + light, only + heavy)
        if self.candidates == 1:  # she knows which coin is the fake (game F asks no more)
            weight = (
                "heavier or lighter" if self.u else {"light": "lighter", "heavy": "heavier"}[light if self.l else heavy]
            )
            parts = [f"1 coin she knows is the fake ({weight})"]
        g = self.g if genuine is None else genuine
        return ", ".join([*parts, f"{g} known genuine" if g else "no coin known genuine"])

    def describe(self) -> str:
        """The position in words."""
        parts = self._classes("{n} unknown", "{n} only-light", "{n} only-heavy")
        fake = "an unknown coin (heavier)" if self.fake_unknown else "an only-heavy coin"
        return f"{', '.join(parts)}; {self.g} genuine available; the fake is {fake}"


@dataclass(frozen=True)
class AequitasMove:
    """A weighing (abstract counts per class and pan) and where the fake sits."""

    split: Split
    fake: FakeSide


def start(game: str, n: int, extra: bool, light: int = 0, fake_light: bool = False) -> Position:
    """The starting position of D(l, h), F_N or FI_N, with or without one extra genuine coin."""
    g = int(extra)
    if game == "D":
        heavy = n - light
        if fake_light:  # mirror: a light fake among l light-destined coins is a heavy fake among l
            light, heavy = heavy, light
        return Position.make(0, light, heavy, g, False)
    return Position.make(n, 0, 0, g, True)


def _balanced(parts: list[tuple[str, int]], g: int) -> tuple[dict[str, int], dict[str, int]] | None:
    """Split counts of coin kinds over two pans, pans differing by at most g."""
    total = sum(k for _, k in parts)
    if total % 2 and g < 1:
        return None
    left: dict[str, int] = {}
    right: dict[str, int] = {}
    room = (total + 1) // 2
    for name, k in parts:
        take = min(k, room)
        left[name], right[name] = take, k - take
        room -= take
    return left, right


def moves(p: Position) -> Iterator[tuple[Position, AequitasMove]]:
    """Every informative weighing as (position it leads to, a representative move)."""
    if p.fake_unknown:
        yield from _unknown_moves(p)
    else:
        yield from _destined_moves(p)


def _unknown_moves(p: Position) -> Iterator[tuple[Position, AequitasMove]]:
    """Moves from unknown coins: a balance excludes the weighed coins; an imbalance gives destinies."""
    u, g = p.u, p.g
    for m in range(1, u):  # balance: the fake stays off the scale
        pans = _balanced([("u", m)], g)
        if pans:
            s = Split(pans[0]["u"], 0, 0, pans[1]["u"], 0, 0)
            yield Position.make(u - m, 0, 0, g + m, True), AequitasMove(s, "off")
    for u1 in range(1, u + 1):  # imbalance: the fake (heavier) on the left pan
        for u2 in range(0, u - u1 + 1):
            if abs(u1 - u2) <= g:
                child = Position.make(0, u2, u1, g + u - u1 - u2, False)
                yield child, AequitasMove(Split(u1, 0, 0, u2, 0, 0), "left")


def _destined_moves(p: Position) -> Iterator[tuple[Position, AequitasMove]]:
    """Moves from destined coins (the fake heavy-destined)."""
    lt, hv, g = p.l, p.h, p.g
    for a in range(lt + 1):  # balance: a light and b heavy coins weighed, the fake off
        for b in range(hv):
            if a + b == 0:
                continue
            pans = _balanced([("l", a), ("h", b)], g)
            if pans:
                s = Split(0, pans[0]["l"], pans[0]["h"], 0, pans[1]["l"], pans[1]["h"])
                yield Position.make(0, lt - a, hv - b, g + a + b, False), AequitasMove(s, "off")
    for h1 in range(1, hv + 1):  # imbalance: fake on the left; h1 heavy left and l2 light right stay
        for l2 in range(lt + 1):
            if l2 + h1 == lt + hv:
                continue  # nothing excluded: no new information
            weighing = _imbalance_split(lt, hv, g, h1, l2)
            if weighing is not None:
                yield Position.make(0, l2, h1, g + lt + hv - l2 - h1, False), AequitasMove(weighing, "left")


def _imbalance_split(lt: int, hv: int, g: int, h1: int, l2: int) -> Split | None:
    """A weighing keeping h1 heavy (left) and l2 light (right) coins, padding with excluded ones."""
    diff = h1 - l2
    l1 = h2 = 0
    if diff > g:
        h2 = min(hv - h1, diff - g)
    elif diff < -g:
        l1 = min(lt - l2, -g - diff)
    if abs(h1 + l1 - l2 - h2) > g:
        return None
    return Split(0, l1, h1, 0, l2, h2)


Key = tuple[int, int, int, int, bool]  # a position's fields in order: the memo tables' keys (hashed in C)


def _key(p: Position) -> Key:
    return (p.u, p.l, p.h, p.g, p.fake_unknown)


def _made(u: int, l: int, h: int, g: int, fake_unknown: bool) -> Key:  # noqa: E741
    """The key of a position with the genuine count capped where more genuine coins add no move."""
    return (u, l, h, min(g, u + l + h), fake_unknown)


def _children(u: int, l: int, h: int, g: int, fake_unknown: bool) -> set[Key]:  # noqa: E741
    """The positions `moves` leads to, as keys, without building the weighings (the same conditions: a balance
    needs an even number of coins weighed or a genuine coin to pad; an imbalance keeps h1 heavy and l2 light coins
    when _imbalance_split finds pans within g of each other)."""
    out: set[Key] = set()
    if fake_unknown:
        out.update(_made(u - m, 0, 0, g + m, True) for m in range(1, u) if m % 2 == 0 or g >= 1)
        for u1 in range(1, u + 1):
            out.update(_made(0, u2, u1, g + u - u1 - u2, False) for u2 in range(u - u1 + 1) if abs(u1 - u2) <= g)
        return out
    for a in range(l + 1):
        out.update(_made(0, l - a, h - b, g + a + b, False) for b in range(h) if a + b and ((a + b) % 2 == 0 or g >= 1))
    for h1 in range(1, h + 1):
        for l2 in range(l + 1):
            diff = h1 - l2  # _imbalance_split's test: the pans after padding differ by at most g
            padded = diff - min(h - h1, diff - g) if diff > g else diff + min(l - l2, -g - diff) if diff < -g else 0
            if l2 + h1 != l + h and abs(padded) <= g:
                out.add(_made(0, l2, h1, g + l + h - l2 - h1, False))
    return out


def _reached(k: Key, goal: Goal) -> bool:
    """Whether the Observer knows what the game asks at a position's key: with the fake among the unknown coins,
    one unknown coin left (find only: its weight is not known); with a heavy-destined fake, one candidate left."""
    return (goal == "find" and k[0] == 1) if k[4] else k[1] + k[2] == 1


@lru_cache(maxsize=AEQUITAS_MEMO)
def _options(k: Key, goal: Goal) -> tuple[Key, ...]:
    return () if _reached(k, goal) else tuple(sorted(_children(*k)))


@lru_cache(maxsize=AEQUITAS_MEMO)
def options(p: Position, goal: Goal) -> tuple[Position, ...]:
    """The distinct positions one move leads to (none once the Observer's goal is reached), in order."""
    return tuple(Position(*k) for k in _options(_key(p), goal))


def mex(values: set[int]) -> int:
    """The least non-negative integer not in values."""
    k = 0
    while k in values:
        k += 1
    return k


@lru_cache(maxsize=AEQUITAS_MEMO)
def _grundy(k: Key, goal: Goal, convention: Convention) -> int:
    opts = _options(k, goal)
    if convention == "misere-last-mover-loses" and not opts:
        return 1
    if convention == "misere-stop-before-reveal":
        opts = tuple(o for o in opts if not _reached(o, goal))
    return mex({_grundy(o, goal, convention) for o in opts})


def grundy(p: Position, goal: Goal, convention: Convention) -> int:
    """The Grundy value under a play convention.

    normal: the player who reveals the last piece of information wins (no options: 0).
    misere-last-mover-loses: the revealing player loses; the paper's rule G(no options) = 1, else mex.
    misere-stop-before-reveal: the game ends when the next move would surely reveal everything: moves that
    reveal are not played, and a position whose every move reveals has value 0.
    (Memoised on the positions' fields as plain tuples, whose hashing and ordering run in C.)
    """
    return _grundy(_key(p), goal, convention)


def outcome(p: Position, goal: Goal, convention: Convention) -> str:
    """'P' (the player to move loses with best play) or 'N' (the player to move wins)."""
    return "P" if grundy(p, goal, convention) == 0 else "N"


def grouped_moves(p: Position, goal: Goal, convention: Convention) -> list[tuple[Position, int, AequitasMove, bool]]:
    """Each position reachable in one move, its Grundy value, a move that gets there, and if it reveals all."""
    seen: dict[Position, AequitasMove] = {}
    if not p.goal_reached(goal):
        for child, move in moves(p):
            seen.setdefault(child, move)
    return [(c, grundy(c, goal, convention), m, c.goal_reached(goal)) for c, m in sorted(seen.items())]


def playable(p: Position, goal: Goal, convention: Convention) -> list[tuple[Position, AequitasMove]]:
    """Moves a player may make under the convention (stop-before-reveal forbids revealing everything)."""
    out = [(c, m) for c, _, m, reveals in grouped_moves(p, goal, convention)]
    if convention == "misere-stop-before-reveal":
        out = [(c, m) for c, m in out if not c.goal_reached(goal)]
    return out


def best_move(p: Position, goal: Goal, convention: Convention) -> tuple[Position, AequitasMove] | None:
    """A move to a Grundy-0 position if there is one, otherwise the first legal move; None if none."""
    legal = playable(p, goal, convention)
    winning = [(c, m) for c, m in legal if grundy(c, goal, convention) == 0]
    choices = winning or legal
    return choices[0] if choices else None
