"""The weighing variants: a balance that may lie, two counterfeit coins, a balance with k pans.

A variant is the classic problem (N coins, find the counterfeit and, when its weight is unknown, whether it is
heavier or lighter) with one change at a time, This module holds the
physical rules, on concrete coins: what the scale shows for a weighing and a secret (`reading`), which readings
a lying scale may give, and the outcome alphabet with its letters for URLs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from math import comb

from solvers.errors import InputError, one_of, token_match
from solvers.weighing.problem import WEIGHTS, Outcome, Weight

MAX_LIES = 2
MAX_PANS = 5
VARIANT_MAX_COINS = 100
PAN_NAMES = "12345"
LIGHTER_LETTERS = "abcde"  # pan i lighter, in a k-pan path (k >= 3); pan i heavier is the digit i

Pans = tuple[tuple[int, ...], ...]  # the coins on each pan (genuine padding coins included), pan 1 first
_VARIANT_TOKEN = re.compile(r"([0-9]{1,3})-(unknown|lighter|heavier)-l([0-9])-f([0-9])-p([0-9])")


@dataclass(frozen=True)
class Variant:
    """N coins, one or two counterfeits of equal weight, a scale with k pans that lies at most L times."""

    coins: int
    weight: Weight = "unknown"
    lies: int = 0
    fakes: int = 1
    pans: int = 2

    def __post_init__(self) -> None:
        """Reject sizes out of range and combinations that are not offered."""
        for name in ("coins", "lies", "fakes", "pans"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int):
                raise InputError(f"{name} must be a whole number")
        if self.weight not in WEIGHTS:
            raise InputError(f"weight must be one of {', '.join(WEIGHTS)}")
        if not 0 <= self.lies <= MAX_LIES:
            raise InputError(f"lies must be 0 to {MAX_LIES}")
        if self.fakes not in (1, 2):
            raise InputError("fakes must be 1 or 2")
        if not 2 <= self.pans <= MAX_PANS:
            raise InputError(f"pans must be 2 to {MAX_PANS}")
        if self.lies and self.pans != 2:
            raise InputError(
                "a lying balance has two pans here (a balance that may lie and more than two pans are not combined)"
            )
        if self.fakes == 2 and (self.lies or self.pans != 2):
            raise InputError("two counterfeit coins are weighed on an honest two-pan balance (no lies, no more pans)")
        if not self.fakes <= self.coins <= VARIANT_MAX_COINS:
            raise InputError(f"the number of coins must be between {self.fakes} and {VARIANT_MAX_COINS} for a variant")

    @property
    def kind(self) -> str:
        """'lies', 'fakes' or 'pans' (the first that applies), or 'classic'."""
        return "fakes" if self.fakes == 2 else "lies" if self.lies else "pans" if self.pans > 2 else "classic"

    @property
    def directions(self) -> tuple[bool, ...]:
        """The counterfeits' possible weights (True: heavier)."""
        return {"unknown": (True, False), "heavier": (True,), "lighter": (False,)}[self.weight]

    @property
    def outcomes(self) -> tuple[str, ...]:
        """Every reading the scale can show, as path letters: L, B, R for two pans; B, then for each pan its
        digit (that pan heavier) and letter (lighter) for more."""
        if self.pans == 2:
            return ("L", "B", "R")
        return ("B", *PAN_NAMES[: self.pans], *LIGHTER_LETTERS[: self.pans])

    def to_token(self) -> str:
        """Canonical compact form, e.g. '12-unknown-l1-f1-p2'."""
        return f"{self.coins}-{self.weight}-l{self.lies}-f{self.fakes}-p{self.pans}"

    @classmethod
    def from_token(cls, token: str) -> Variant:
        """Parse the canonical form; InputError if it is not one."""
        m = token_match(_VARIANT_TOKEN, token, "variant", "12-unknown-l1-f1-p2")
        return cls(int(m[1]), one_of(m[2], WEIGHTS, "weight"), int(m[3]), int(m[4]), int(m[5]))

    def describe(self) -> str:
        """The variant in words."""
        fake = "two counterfeit coins" if self.fakes == 2 else "one counterfeit coin"
        weight = {"unknown": "heavier or lighter", "heavier": "heavier", "lighter": "lighter"}[self.weight]
        if self.fakes == 2 and self.weight == "unknown":
            weight = "both heavier or both lighter"
        scale = f"a {self.pans}-pan balance"
        if self.lies:
            scale += f" that may lie up to {self.lies} time{'s' if self.lies > 1 else ''}"
        return f"{self.coins} coins, {fake} ({weight}), {scale}"


@dataclass(frozen=True, order=True)
class Secret:
    """The counterfeit coins (one or two, numbered from 1) and whether they are heavier."""

    fakes: tuple[int, ...]
    heavier: bool

    def sentence(self, verb: str = "is") -> str:
        """The secret in words."""
        weight = "heavier" if self.heavier else "lighter"
        if len(self.fakes) == 1:
            return f"Coin {self.fakes[0]} {verb} {weight}."
        are = "are" if verb == "is" else "were"
        return f"Coins {self.fakes[0]} and {self.fakes[1]} {are} {weight}."

    def to_json(self) -> dict[str, object]:
        """The API's shape: {"coins": [3, 7], "weight": "heavier"}."""
        return {"coins": list(self.fakes), "weight": "heavier" if self.heavier else "lighter"}


def reading(v: Variant, pans: Pans, s: Secret) -> str:
    """What an honest scale shows when the secret is true: the path letter of the outcome."""
    sign = 1 if s.heavier else -1
    load = [sign * sum(1 for c in pan if c in s.fakes) for pan in pans]
    if v.pans == 2:
        return "L" if load[0] > load[1] else "R" if load[0] < load[1] else "B"
    odd = [i for i, x in enumerate(load) if x != 0]
    if not odd:
        return "B"
    if len(odd) > 1:  # cannot happen with one counterfeit; two are weighed on two pans only
        raise InputError("more than one pan differs")
    return PAN_NAMES[odd[0]] if load[odd[0]] > 0 else LIGHTER_LETTERS[odd[0]]


def outcome_label(letter: str) -> str:
    """An outcome for people: 'Left heavier', 'Pan 2 lighter', 'Balance'."""
    if letter in ("L", "B", "R"):
        return Outcome.from_letter(letter).label
    if letter in PAN_NAMES:
        return f"Pan {letter} heavier"
    if letter in LIGHTER_LETTERS:
        return f"Pan {LIGHTER_LETTERS.index(letter) + 1} lighter"
    raise InputError(f"unknown outcome letter {letter!r}")


def secrets(v: Variant) -> list[Secret]:
    """Every secret of a variant, in order."""
    if v.fakes == 1:
        return [Secret((c,), d) for c in range(1, v.coins + 1) for d in v.directions]
    pairs = [(a, b) for a in range(1, v.coins + 1) for b in range(a + 1, v.coins + 1)]
    return [Secret(p, d) for p in pairs for d in v.directions]


def volume(lies_left: int, weighings: int, outcomes: int) -> int:
    """Berlekamp's volume: the readings a secret with `lies_left` lies to spend can produce in w weighings
    (each lie one of the other outcomes at one of the weighings)."""
    if lies_left < 0:
        return 0
    return sum(comb(weighings, j) * (outcomes - 1) ** j for j in range(min(lies_left, weighings) + 1))


def refuse_mixed(goal: str, extra: int | bool, maybe_none: bool, objective: str, scheme: bool) -> None:
    """The counterfeit-coin settings a variant (lies, two fakes, more pans) is not combined with: InputError
    naming them (the command line and the API ask the same)."""
    if goal != "identify" or extra or maybe_none:
        raise InputError("lies, fakes and pans are not combined with goal=find, extra or maybe_none")
    if objective != "worst" or scheme:
        raise InputError("the variants have worst-case plans only (no objective=average, no scheme)")
