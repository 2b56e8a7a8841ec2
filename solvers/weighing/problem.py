"""Weighing problems, abstract beliefs (counts of coins by status) and weighings on them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Literal, NamedTuple

from solvers.errors import InputError, one_of, token_match

MAX_COINS = 1_000_000
MAX_EXTRA = 1_000_000

Weight = Literal["unknown", "lighter", "heavier"]
Goal = Literal["identify", "find"]
WEIGHTS: tuple[Weight, ...] = ("unknown", "lighter", "heavier")
GOALS: tuple[Goal, ...] = ("identify", "find")
_PROBLEM = re.compile(r"([0-9]{1,7})-(unknown|lighter|heavier)-(identify|find)-([0-9]{1,7})-([01])")
_BELIEF = re.compile(r"u([0-9]{1,7})\.l([0-9]{1,7})\.h([0-9]{1,7})\.g([0-9]{1,7})\.z([01])")


class Outcome(str, Enum):
    """The three results of a weighing, named as in the JSON API."""

    LEFT = "left-heavier"
    BALANCE = "balance"
    RIGHT = "right-heavier"

    @property
    def letter(self) -> str:
        """One-letter code used in plan paths: L, B or R."""
        return {"left-heavier": "L", "balance": "B", "right-heavier": "R"}[self.value]

    @property
    def words(self) -> str:
        """The outcome in a sentence: 'left heavier', 'balance', 'right heavier'."""
        return self.value.replace("-", " ")

    @property
    def label(self) -> str:
        """The outcome on a button: 'Left heavier', 'Balance', 'Right heavier'."""
        return self.words.capitalize()

    @classmethod
    def from_reading(cls, digit: int) -> Outcome:
        """The outcome a reading digit of Dyson's schemes stands for: +1 left heavier, 0 balance, -1 right heavier."""
        return cls.LEFT if digit > 0 else cls.RIGHT if digit < 0 else cls.BALANCE

    @classmethod
    def from_letter(cls, letter: str) -> Outcome:
        """The outcome for a path letter (L, B, R)."""
        for outcome in cls:
            if outcome.letter == letter:
                return outcome
        raise InputError(f"unknown outcome letter {letter!r}")


OUTCOMES: tuple[Outcome, ...] = (Outcome.LEFT, Outcome.BALANCE, Outcome.RIGHT)


@dataclass(frozen=True)
class Problem:
    """N coins, at most one counterfeit, and what is known and asked about it."""

    coins: int
    weight: Weight = "unknown"
    goal: Goal = "identify"
    extra: int = 0
    maybe_none: bool = False

    def __post_init__(self) -> None:
        """Reject out-of-range sizes and unknown variants."""
        if isinstance(self.coins, bool) or not isinstance(self.coins, int):
            raise InputError("the number of coins must be a whole number")
        if not 1 <= self.coins <= MAX_COINS:
            raise InputError(f"the number of coins must be between 1 and {MAX_COINS:,}")
        if isinstance(self.extra, bool) or not isinstance(self.extra, int) or not 0 <= self.extra <= MAX_EXTRA:
            raise InputError(f"extra genuine coins must be a whole number between 0 and {MAX_EXTRA:,}")
        if self.weight not in WEIGHTS:
            raise InputError(f"weight must be one of {', '.join(WEIGHTS)}")
        if self.goal not in GOALS:
            raise InputError(f"goal must be one of {', '.join(GOALS)}")

    @property
    def find(self) -> bool:
        """True when only the coin, not its weight, must be named."""
        return self.goal == "find" or self.weight != "unknown"

    @property
    def cases(self) -> int:
        """How many equally likely cases there are (coin and weight, or none)."""
        per_coin = 2 if self.weight == "unknown" else 1
        return per_coin * self.coins + int(self.maybe_none)

    @property
    def answers(self) -> int:
        """How many different answers the goal distinguishes."""
        return self.coins + int(self.maybe_none) if self.find else self.cases

    def root(self) -> Belief:
        """The abstract belief before any weighing."""
        n = self.coins
        if self.weight == "unknown":
            return Belief.make(n, 0, 0, self.extra, self.maybe_none)
        if self.weight == "lighter":
            return Belief.make(0, n, 0, self.extra, self.maybe_none)
        return Belief.make(0, 0, n, self.extra, self.maybe_none)

    def to_token(self) -> str:
        """Canonical compact string form, e.g. '12-unknown-identify-0-0'."""
        return f"{self.coins}-{self.weight}-{self.goal}-{self.extra}-{int(self.maybe_none)}"

    @classmethod
    def from_token(cls, token: str) -> Problem:
        """Parse the canonical form; InputError if it is not one."""
        m = token_match(_PROBLEM, token, "problem", "12-unknown-identify-0-0")
        return cls(int(m[1]), one_of(m[2], WEIGHTS, "weight"), one_of(m[3], GOALS, "goal"), int(m[4]), m[5] == "1")


class Belief(NamedTuple):
    """What is known, as counts: unknown, maybe-light, maybe-heavy, known-genuine coins, none possible."""

    u: int
    l: int  # noqa: E741 - the seed's own name for the maybe-light class
    h: int
    g: int
    z: bool

    @classmethod
    def make(cls, u: int, l: int, h: int, g: int, z: bool) -> Belief:  # noqa: E741
        """A belief with the genuine count capped where more genuine coins cannot help."""
        return cls(u, l, h, min(g, u + l + h), z)

    @property
    def candidates(self) -> int:
        """Coins that may still be the counterfeit."""
        return self.u + self.l + self.h

    @property
    def cases(self) -> int:
        """Cases (coin and weight, or none) still consistent with the answers."""
        return 2 * self.u + self.l + self.h + int(self.z)

    def answers(self, find: bool) -> int:
        """Distinct answers still possible for the goal."""
        return self.candidates + int(self.z) if find else self.cases

    def is_leaf(self, find: bool) -> bool:
        """True when the goal is reached (or nothing is possible)."""
        return self.answers(find) <= 1

    def to_token(self) -> str:
        """Canonical compact string form, e.g. 'u12.l0.h0.g0.z0'."""
        return f"u{self.u}.l{self.l}.h{self.h}.g{self.g}.z{int(self.z)}"

    @classmethod
    def from_token(cls, token: str) -> Belief:
        """Parse the canonical form; InputError if it is not one (or not canonical: too many genuine coins)."""
        m = token_match(_BELIEF, token, "belief", "u12.l0.h0.g0.z0")
        b = cls(int(m[1]), int(m[2]), int(m[3]), int(m[4]), m[5] == "1")
        if b != cls.make(*b):
            raise InputError("a belief token keeps at most as many genuine coins as candidates", token[:40])
        return b


class Split(NamedTuple):
    """An abstract weighing: how many coins of each class go on the left and on the right pan."""

    u1: int
    l1: int
    h1: int
    u2: int
    l2: int
    h2: int

    @property
    def left(self) -> int:
        """Candidate coins on the left pan."""
        return self.u1 + self.l1 + self.h1

    @property
    def right(self) -> int:
        """Candidate coins on the right pan."""
        return self.u2 + self.l2 + self.h2

    @property
    def pad_left(self) -> int:
        """Genuine coins added to the left pan to equalise the counts."""
        return max(0, self.right - self.left)

    @property
    def pad_right(self) -> int:
        """Genuine coins added to the right pan to equalise the counts."""
        return max(0, self.left - self.right)

    def fits(self, b: Belief) -> bool:
        """True when the belief has the coins this weighing uses."""
        return (
            min(self) >= 0
            and self.u1 + self.u2 <= b.u
            and self.l1 + self.l2 <= b.l
            and self.h1 + self.h2 <= b.h
            and abs(self.left - self.right) <= b.g
            and self.left + self.right > 0
        )


def child(b: Belief, s: Split, outcome: Outcome) -> Belief:
    """The belief after weighing s gives outcome."""
    if outcome is Outcome.LEFT:
        u, lt, hv, z = 0, s.u2 + s.l2, s.u1 + s.h1, False
    elif outcome is Outcome.RIGHT:
        u, lt, hv, z = 0, s.u1 + s.l1, s.u2 + s.h2, False
    else:
        u, lt, hv, z = b.u - s.u1 - s.u2, b.l - s.l1 - s.l2, b.h - s.h1 - s.h2, b.z
    return Belief.make(u, lt, hv, b.g + b.candidates - (u + lt + hv), z)


def children(b: Belief, s: Split) -> tuple[Belief, Belief, Belief]:
    """The beliefs after each outcome, in the order left-heavier, balance, right-heavier."""
    return child(b, s, Outcome.LEFT), child(b, s, Outcome.BALANCE), child(b, s, Outcome.RIGHT)


def pow3(w: int) -> int:
    """3 to the power w (0 for negative w)."""
    return 3**w if w >= 0 else 0
