"""What a player learns from weighings of numbered coins: weighings as text, legality, knowledge after an
outcome, and what a real scale shows. Shared by the adversary game and Æquitas."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from solvers.errors import IllegalMoveError, LimitError

from .case import Case
from .plan import Coin, Coins, describe, numbers, union
from .problem import Outcome

UserWeighing = tuple[tuple[Coin, ...], tuple[Coin, ...]]
MAX_WEIGHINGS = 60
_COIN = re.compile(r"(?:[0-9]{1,7}|[Gg][0-9]{1,7})")


def _coin(token: str) -> Coin:
    """One coin from text: a number or G followed by a number."""
    token = token.strip()
    return f"G{int(token[1:])}" if token[:1] in "Gg" else int(token)


def parse_weighings(text: str) -> tuple[UserWeighing, ...]:
    """Parse '1,2,3,4-5,6,7,8;...' into weighings (left coins, right coins)."""
    if not text.strip():
        return ()
    out = []
    for i, part in enumerate(text.split(";"), 1):
        sides = part.split("-")
        if len(sides) != 2:
            raise IllegalMoveError(f"weighing {i}: write it as left coins, a '-', right coins (like 1,2-3,4)")
        pans = []
        for side in sides:
            tokens = [t for t in side.split(",") if t.strip()]
            if not all(_COIN.fullmatch(t.strip()) for t in tokens):
                raise IllegalMoveError(f"weighing {i}: coins are numbers like 7 or extra coins like G1")
            pans.append(tuple(_coin(t) for t in tokens))
        out.append((pans[0], pans[1]))
    if len(out) > MAX_WEIGHINGS:
        raise LimitError(f"at most {MAX_WEIGHINGS} weighings")
    return tuple(out)


def format_weighings(ws: Iterable[UserWeighing]) -> str:
    """The text form of weighings, as parse_weighings reads it."""
    return ";".join(",".join(map(str, left)) + "-" + ",".join(map(str, right)) for left, right in ws)


def from_set(coins: Iterable[int]) -> tuple[tuple[int, int], ...]:
    """A set of coin numbers as sorted ranges."""
    return union(*(((c, c + 1),) for c in coins))


def check_weighing(c: Coins, w: UserWeighing) -> None:
    """Refuse unequal pans, empty weighings, repeated coins and coins that are not in play."""
    left, right = w
    if not left and not right:
        raise IllegalMoveError("put at least one coin on each pan")
    if len(left) != len(right):
        raise IllegalMoveError(f"the pans must hold equal numbers of coins (left {len(left)}, right {len(right)})")
    every = [*left, *right]
    if len(set(every)) != len(every):
        raise IllegalMoveError("a coin can only be in one place at a time")
    for coin in every:
        if isinstance(coin, str):
            if not 1 <= int(coin[1:]) <= c.extra:
                raise IllegalMoveError(f"there is no extra coin {coin} (there are {c.extra})")
        elif not 1 <= coin <= c.n:
            raise IllegalMoveError(f"there is no coin {coin}: coins are numbered 1 to {c.n}")


def apply(c: Coins, w: UserWeighing, outcome: Outcome) -> Coins:
    """What is known after weighing w showed outcome."""
    left = {x for x in w[0] if isinstance(x, int)}
    right = {x for x in w[1] if isinstance(x, int)}
    unknown, light, heavy = set(numbers(c.unknown)), set(numbers(c.light)), set(numbers(c.heavy))
    if outcome is Outcome.BALANCE:
        on = left | right
        return Coins(c.n, c.extra, from_set(unknown - on), from_set(light - on), from_set(heavy - on), c.none_possible)
    up, down = (left, right) if outcome is Outcome.LEFT else (right, left)
    return Coins(c.n, c.extra, (), from_set((unknown | light) & down), from_set((unknown | heavy) & up), False)


def honest_outcome(w: UserWeighing, secret: Case) -> Outcome:
    """What a real scale shows when the secret coin is counterfeit."""
    if secret.coin is None:
        return Outcome.BALANCE
    up = Outcome.LEFT if secret.heavier else Outcome.RIGHT
    down = Outcome.RIGHT if secret.heavier else Outcome.LEFT
    if secret.coin in w[0]:
        return up
    return down if secret.coin in w[1] else Outcome.BALANCE


@dataclass(frozen=True)
class UserPan:
    """One pan of a player's weighing, shaped like the solver's Pan for the scale picture."""

    coins: tuple[Coin, ...]

    def __len__(self) -> int:
        """Number of coins on the pan."""
        return len(self.coins)

    def labels(self) -> list[Coin]:
        """The coins in order."""
        return list(self.coins)

    def describe(self) -> str:
        """The pan in words, e.g. '1-4, G1'."""
        numbered = describe(from_set(c for c in self.coins if isinstance(c, int)))
        extras = [c for c in self.coins if isinstance(c, str)]
        parts = ([numbered] if numbered != "none" else []) + extras
        return ", ".join(parts) or "nothing"


def pans(w: UserWeighing) -> tuple[UserPan, UserPan]:
    """A weighing's two pans for drawing."""
    return UserPan(w[0]), UserPan(w[1])


def placed_weighing(places: dict[str, str]) -> UserWeighing:
    """The weighing a player's placements describe (coin name -> 'off', 'left' or 'right')."""
    if any(v not in ("off", "left", "right") for v in places.values()):
        raise IllegalMoveError("each coin must be off, left or right")

    def side(name: str) -> tuple[Coin, ...]:
        return tuple(k if k.startswith("G") else int(k) for k, v in places.items() if v == name)

    return side("left"), side("right")
