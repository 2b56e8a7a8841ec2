"""One case of the counterfeit-coin family: which coin is counterfeit (or none) and whether it is heavier.

The same type is a secret (the honest scale's fake, Æquitas's known fake), an answer at a plan's leaf, a
player's guess (where the weight may be left unsaid) and a row of Dyson's decoding table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from solvers.errors import InputError

from .problem import Problem, Weight

DIRECTIONS: dict[Weight, tuple[bool, ...]] = {"unknown": (True, False), "heavier": (True,), "lighter": (False,)}
_TOKEN = re.compile(r"none|([0-9]{1,7})([hl]?)")


@dataclass(frozen=True)
class Case:
    """A counterfeit coin (None: all coins genuine) and whether it is heavier (None: not known or not said)."""

    coin: int | None
    heavier: bool | None = None

    @property
    def weight(self) -> str | None:
        """'heavier', 'lighter' or None."""
        return None if self.heavier is None or self.coin is None else "heavier" if self.heavier else "lighter"

    def to_token(self) -> str:
        """'7h', '7l', '7' (weight not said) or 'none'."""
        if self.coin is None:
            return "none"
        return f"{self.coin}{'' if self.heavier is None else 'h' if self.heavier else 'l'}"

    @classmethod
    def from_token(cls, token: str) -> Case:
        """Parse '7h', '7l', '7' or 'none' (ASCII digits only)."""
        m = _TOKEN.fullmatch(token.strip().lower())
        if not m:
            raise InputError("a case is a coin number with h or l (like 7h), or 'none'", token[:20])
        if m.group(0) == "none":
            return cls(None)
        return cls(int(m.group(1)), {"h": True, "l": False, "": None}[m.group(2)])

    def sentence(self, verb: str = "is") -> str:
        """The case in words, e.g. 'Coin 7 is heavier.' (verb 'was' once a game is over)."""
        if self.coin is None:
            return f"All coins {'are' if verb == 'is' else 'were'} genuine."
        if self.weight is None:
            return f"Coin {self.coin} {verb} counterfeit."
        return f"Coin {self.coin} {verb} {self.weight}."

    def to_json(self) -> dict[str, object]:
        """The API's shape: {"coin": 7, "weight": "heavier"} or {"coin": null}."""
        return {"coin": None} if self.coin is None else {"coin": self.coin, "weight": self.weight}

    def names(self, truth: Case, find: bool) -> bool:
        """True when this answer names the true case (the weight only counts when the goal asks for it)."""
        if self.coin != truth.coin:
            return False
        return truth.coin is None or find or self.heavier == truth.heavier


def all_cases(p: Problem) -> list[Case]:
    """Every possible case of a problem: each coin heavier and/or lighter, then none if allowed."""
    cases = [Case(coin, heavy) for coin in range(1, p.coins + 1) for heavy in DIRECTIONS[p.weight]]
    return [*cases, Case(None)] if p.maybe_none else cases
