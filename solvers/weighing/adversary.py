"""The "find the fake" game: the user weighs, and the scale answers as an adversary (or honestly).

The adversary never fixes a fake coin. For each weighing it gives the outcome that leaves the user worst
off: the one whose remaining cases need the most further weighings (by the solver), then the one leaving
the most cases, ties broken in the order balance, left heavier, right heavier. It only ever gives an
outcome that some case fits, so it stays consistent with every answer so far.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from solvers.errors import IllegalMoveError, InputError

from .plan import Coins, Weighing, numbers, realise, start, union
from .problem import Outcome, Problem
from .search import fewest, worst_split

Coin = int | str
UserWeighing = tuple[tuple[Coin, ...], tuple[Coin, ...]]
MAX_WEIGHINGS = 60
_COIN = re.compile(r"\s*(?:\d{1,7}|[Gg]\d{1,7})\s*")


@dataclass(frozen=True)
class Secret:
    """The honest scale's fake coin (None: all genuine) and whether it is heavier."""

    coin: int | None
    heavier: bool

    def sentence(self) -> str:
        """The secret in words."""
        if self.coin is None:
            return "All coins were genuine."
        return f"Coin {self.coin} was {'heavier' if self.heavier else 'lighter'}."


# ---------------------------------------------------------------- weighings as text


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
            if not all(_COIN.fullmatch(t) for t in tokens):
                raise IllegalMoveError(f"weighing {i}: coins are numbers like 7 or extra coins like G1")
            pans.append(tuple(_coin(t) for t in tokens))
        out.append((pans[0], pans[1]))
    if len(out) > MAX_WEIGHINGS:
        raise IllegalMoveError(f"at most {MAX_WEIGHINGS} weighings")
    return tuple(out)


def format_weighings(ws: Iterable[UserWeighing]) -> str:
    """The text form of weighings, as parse_weighings reads it."""
    return ";".join(",".join(map(str, left)) + "-" + ",".join(map(str, right)) for left, right in ws)


# ---------------------------------------------------------------- knowledge after a weighing


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


def need(c: Coins, find: bool) -> int | None:
    """The fewest further weighings that surely finish from here (None: never)."""
    return fewest(c.abstract(), find)


def _hardness(c: Coins, find: bool) -> tuple[int, int]:
    """How bad a position is for the user: (weighings needed, cases left); unsolvable counts as worst."""
    n = need(c, find)
    return (10**6 if n is None else n), c.abstract().cases


ADVERSARY_ORDER = (Outcome.BALANCE, Outcome.LEFT, Outcome.RIGHT)


def adversary_outcome(c: Coins, w: UserWeighing, find: bool) -> Outcome:
    """The outcome that leaves the user worst off, among those some case fits."""
    best: tuple[tuple[int, int], Outcome] | None = None
    for o in ADVERSARY_ORDER:
        after = apply(c, w, o)
        if after.abstract().cases == 0:
            continue
        score = _hardness(after, find)
        if best is None or score > best[0]:
            best = (score, o)
    assert best is not None, "every weighing has an outcome some case fits"
    return best[1]


def honest_outcome(w: UserWeighing, secret: Secret) -> Outcome:
    """What a real scale shows when the secret coin is counterfeit."""
    if secret.coin is None:
        return Outcome.BALANCE
    up = Outcome.LEFT if secret.heavier else Outcome.RIGHT
    down = Outcome.RIGHT if secret.heavier else Outcome.LEFT
    if secret.coin in w[0]:
        return up
    return down if secret.coin in w[1] else Outcome.BALANCE


# ---------------------------------------------------------------- a whole game


@dataclass(frozen=True)
class Step:
    """One weighing of the game and what followed."""

    weighing: UserWeighing
    outcome: Outcome
    after: Coins
    need_after: int | None


@dataclass(frozen=True)
class Replay:
    """A game replayed from its list of weighings."""

    problem: Problem
    budget: int
    start: Coins
    steps: tuple[Step, ...]

    @property
    def coins(self) -> Coins:
        """What is known now."""
        return self.steps[-1].after if self.steps else self.start

    @property
    def used(self) -> int:
        """Weighings made so far."""
        return len(self.steps)

    @property
    def left(self) -> int:
        """Weighings left in the budget."""
        return self.budget - self.used

    @property
    def need(self) -> int | None:
        """Further weighings that surely finish from here."""
        return self.steps[-1].need_after if self.steps else need(self.start, self.problem.find)

    @property
    def can_finish(self) -> bool:
        """True when the user can still be sure to finish within the budget."""
        return self.need is not None and self.need <= self.left

    def lost_at(self) -> int | None:
        """The 1-based weighing after which finishing within the budget was no longer sure."""
        before = need(self.start, self.problem.find)
        for i, step in enumerate(self.steps):
            was_ok = before is not None and before <= self.budget - i
            now_ok = step.need_after is not None and step.need_after <= self.budget - i - 1
            if was_ok and not now_ok:
                return i + 1
            before = step.need_after
        return None

    def coins_before(self, i: int) -> Coins:
        """What was known before the 1-based weighing i."""
        return self.start if i == 1 else self.steps[i - 2].after

    def better(self, i: int) -> Weighing | None:
        """The weighing the solver would have made instead of weighing i."""
        c = self.coins_before(i)
        s = worst_split(c.abstract(), self.budget - i + 1, self.problem.find)
        return None if s is None else realise(c, s)


def replay(
    p: Problem, budget: int, ws: Iterable[UserWeighing], answer: Callable[[Coins, UserWeighing], Outcome] | None = None
) -> Replay:
    """Replay weighings against the adversary (or another answerer), refusing illegal ones."""
    c0 = start(p)
    c, steps = c0, []
    for i, w in enumerate(ws, 1):
        try:
            check_weighing(c, w)
        except IllegalMoveError as e:
            raise IllegalMoveError(f"weighing {i}: {e}") from e
        if i > budget:
            raise IllegalMoveError(f"weighing {i} is beyond the budget of {budget}")
        o = answer(c, w) if answer else adversary_outcome(c, w, p.find)
        after = apply(c, w, o)
        if after.abstract().cases == 0:
            raise IllegalMoveError(f"weighing {i}: no coin fits the answer {o.value}")
        c = after
        steps.append(Step(w, o, c, need(c, p.find)))
    return Replay(p, budget, c0, tuple(steps))


def hint(r: Replay) -> Weighing | None:
    """The solver's next weighing: one after which the fewest weighings still surely finish."""
    n = r.need
    if n is None or n == 0:
        return None
    s = worst_split(r.coins.abstract(), n, r.problem.find)
    return None if s is None else realise(r.coins, s)


def as_user(w: Weighing) -> UserWeighing:
    """A solver weighing as the user's coin lists."""
    return tuple(w.left.labels()), tuple(w.right.labels())


# ---------------------------------------------------------------- ending the game


@dataclass(frozen=True)
class Guess:
    """The user's answer: a coin (and weight, when known or asked), or None for 'all genuine'."""

    coin: int | None
    heavier: bool | None = None

    def to_token(self) -> str:
        """'7h', '7l', '7' or 'none'."""
        if self.coin is None:
            return "none"
        return f"{self.coin}{'' if self.heavier is None else 'h' if self.heavier else 'l'}"

    @classmethod
    def from_token(cls, token: str) -> Guess:
        """Parse '7h', '7l', '7' or 'none'."""
        m = re.fullmatch(r"(none|(\d{1,7})([hl]?))", token.strip().lower())
        if not m:
            raise InputError("a guess is a coin number with h or l (like 7h), or 'none'")
        if m.group(1) == "none":
            return cls(None)
        return cls(int(m.group(2)), {"h": True, "l": False, "": None}[m.group(3)])


def cases_of(c: Coins) -> list[Secret]:
    """Every case that fits what is known, lowest coin first."""
    out = [Secret(x, False) for x in numbers(c.light)] + [Secret(x, True) for x in numbers(c.heavy)]
    out += [s for x in numbers(c.unknown) for s in (Secret(x, True), Secret(x, False))]
    out.sort(key=lambda s: (s.coin or 0, not s.heavier))
    return [*out, Secret(None, False)] if c.none_possible else out


def fits(guess: Guess, case: Secret, p: Problem) -> bool:
    """True when the guess names this case (the weight only matters when the goal asks for it)."""
    if guess.coin != case.coin:
        return False
    return case.coin is None or p.find or guess.heavier == case.heavier


def check_guess(guess: Guess, p: Problem) -> None:
    """Refuse guesses that name no coin of the problem or leave out a weight the goal asks for."""
    if guess.coin is not None and not 1 <= guess.coin <= p.coins:
        raise InputError(f"there is no coin {guess.coin}: coins are numbered 1 to {p.coins}")
    if guess.coin is None and not p.maybe_none:
        raise InputError("one coin is surely counterfeit in this game: name it")
    if not p.find and guess.coin is not None and guess.heavier is None:
        raise InputError("say whether the coin is heavier or lighter")


def judge(c: Coins, guess: Guess, p: Problem) -> Secret | None:
    """None if the guess is surely right; else a case that fits every answer but not the guess."""
    check_guess(guess, p)
    return next((case for case in cases_of(c) if not fits(guess, case, p)), None)
