"""What a player learns from weighings of numbered coins: weighings as text, legality, knowledge after an
outcome, and what a real scale shows. Shared by the adversary game and Æquitas."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from solvers.errors import IllegalMoveError, LimitError

from .case import Case
from .plan import Coin, Coins, describe, numbers, union
from .problem import Outcome

UserWeighing = tuple[tuple[Coin, ...], tuple[Coin, ...]]
MAX_WEIGHINGS = 60
_COIN = re.compile(r"(?:[0-9]{1,7}|[Gg][0-9]{1,7})")
_RANGE = re.compile(r"([0-9]{1,7})\.\.([0-9]{1,7})")
_LONG = re.compile(r"[Gg]?[0-9]+|[0-9]+\.\.[0-9]+")  # a coin or a range, its numbers too long for the two above
MAX_COINS_READ = 2_000_000  # coins named in all the weighings of one game, ranges counted in full


def _pan(i: int, side: str, budget: list[int]) -> tuple[Coin, ...]:
    """One pan from text: numbers, ranges of numbers (a..b) and extra coins (G1); budget caps the coins read."""
    coins: list[Coin] = []
    for raw in side.split(","):
        token = raw.strip()
        if not token:
            continue
        m = _RANGE.fullmatch(token)
        if m:
            lo, hi = int(m[1]), int(m[2])
            if lo > hi:
                raise IllegalMoveError(f"weighing {i}: a range goes up, like 1..4")
            budget[0] -= hi - lo + 1
            if budget[0] < 0:
                raise LimitError(f"at most {MAX_COINS_READ:,} coins in all the weighings of one game")
            coins += range(lo, hi + 1)
        elif _COIN.fullmatch(token):
            budget[0] -= 1
            coins.append(f"G{int(token[1:])}" if token[0] in "Gg" else int(token))
        elif _LONG.fullmatch(token):
            raise IllegalMoveError(f"weighing {i}: {token[:20]}: a coin's number has at most 7 digits")
        else:
            raise IllegalMoveError(f"weighing {i}: coins are numbers like 7, ranges like 1..4, or extra coins like G1")
    return tuple(coins)


def parse_weighings(text: str) -> tuple[UserWeighing, ...]:
    """Parse '1..4-5..8;9-10' (or '1,2,3,4-5,6,7,8;9-10') into weighings (left coins, right coins)."""
    if not text.strip():
        return ()
    parts = text.split(";")
    if len(parts) > MAX_WEIGHINGS:
        raise LimitError(f"at most {MAX_WEIGHINGS} weighings")
    out = []
    budget = [MAX_COINS_READ]
    for i, part in enumerate(parts, 1):
        sides = part.split("-")
        if len(sides) != 2:
            raise IllegalMoveError(f"weighing {i}: write it as left coins, a '-', right coins (like 1,2-3,4)")
        out.append((_pan(i, sides[0], budget), _pan(i, sides[1], budget)))
    return tuple(out)


def _runs(coins: tuple[Coin, ...]) -> str:
    """A pan as text, runs of three or more consecutive numbers written as ranges (a..b)."""
    out: list[str] = []
    i = 0
    while i < len(coins):
        c = coins[i]
        j = i
        while j + 1 < len(coins):
            here, after = coins[j], coins[j + 1]
            if not (isinstance(here, int) and isinstance(after, int) and after == here + 1):
                break
            j += 1
        out.append(f"{c}..{coins[j]}" if j - i >= 2 else ",".join(map(str, coins[i : j + 1])))
        i = j + 1
    return ",".join(out)


def format_weighings(ws: Iterable[UserWeighing]) -> str:
    """The compact text form of weighings (URL-safe, ranges for runs), as parse_weighings reads it."""
    return ";".join(_runs(left) + "-" + _runs(right) for left, right in ws)


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


def learned(before: Coins, after: Coins) -> str:
    """What one weighing taught, in words: which coins became known genuine, only possibly heavy or only possibly
    light (e.g. 'coins 1–4 are genuine; 5, 6 can only be heavy')."""
    old = {"genuine": set(numbers(before.genuine())), "light": set(numbers(before.light))}
    old["heavy"] = set(numbers(before.heavy))
    new = {"genuine": set(numbers(after.genuine())), "light": set(numbers(after.light))}
    new["heavy"] = set(numbers(after.heavy))
    said = {"genuine": "{} {} known genuine", "heavy": "{} can only be heavy", "light": "{} can only be light"}
    parts = []
    for kind, words in said.items():
        fresh = from_set(new[kind] - old[kind])
        if fresh:
            one = len(fresh) == 1 and fresh[0][1] - fresh[0][0] == 1
            subject = ("coin " if one else "coins ") + describe(fresh)
            parts.append(words.format(subject, "is" if one else "are"))
    return "; ".join(parts) if parts else "nothing new"


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


_TYPED_RANGE = re.compile(r"([0-9]{1,7})-([0-9]{1,7})")


def typed_pan(text: str, names: Iterable[str]) -> list[str]:
    """The coins a player typed for one pan, as names ('7', 'G1'): numbers, ranges written 1-4 or 1..4, and extra
    coins, separated by commas or spaces; IllegalMoveError naming the first that is not one of `names`."""
    known = set(names)
    out: list[str] = []
    tidy = re.sub(r"\s*(?:-|\.\.|–)\s*", "-", text.strip())  # '1 .. 4' and '1 – 4' as 1-4
    for token in re.split(r"[,\s]+", tidy):
        if not token:
            continue
        m = _TYPED_RANGE.fullmatch(token)
        if m:
            lo, hi = int(m[1]), int(m[2])
            if lo > hi or str(lo) not in known or str(hi) not in known:
                count = sum(1 for k in known if k.isdigit())
                raise IllegalMoveError(f"{token[:20]} is not a range of this game's coins (1 to {count})")
            out += [str(c) for c in range(lo, hi + 1)]
        elif token.upper() in known or token.lstrip("0") in known:
            out.append(token.upper() if token.upper() in known else token.lstrip("0"))
        else:
            raise IllegalMoveError(
                f"coin {token[:20]} is not in this game: type numbers like 7, ranges like 1-4, or G1"
            )
    return list(dict.fromkeys(out))


def placements(names: Iterable[str], form: Mapping[str, str]) -> dict[str, str]:
    """Where a player put each coin: from the pans typed as text ('left' and 'right', such as '1-4, 9') when
    either is filled in, else from each coin's own control ('c7': off, left or right)."""
    names = list(names)
    left_text, right_text = form.get("left", ""), form.get("right", "")
    if not (left_text.strip() or right_text.strip()):
        return {name: form.get(f"c{name}", "off") for name in names}
    left, right = typed_pan(left_text, names), typed_pan(right_text, names)
    both = sorted(set(left) & set(right), key=lambda c: (c.startswith("G"), int(c.lstrip("G"))))
    if both:
        raise IllegalMoveError(f"coin {both[0]} is typed on both pans")
    places = dict.fromkeys(names, "off")
    places.update(dict.fromkeys(left, "left"))
    places.update(dict.fromkeys(right, "right"))
    return places


def placed_weighing(places: dict[str, str]) -> UserWeighing:
    """The weighing a player's placements describe (coin name -> 'off', 'left' or 'right')."""
    if any(v not in ("off", "left", "right") for v in places.values()):
        raise IllegalMoveError("each coin must be off, left or right")

    def side(name: str) -> tuple[Coin, ...]:
        return tuple(k if k.startswith("G") else int(k) for k, v in places.items() if v == name)

    return side("left"), side("right")
