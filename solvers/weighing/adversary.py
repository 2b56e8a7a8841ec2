"""The "find the fake" game: the user weighs, and the scale answers as an adversary (or honestly).

The adversary never fixes a fake coin. For each weighing it gives the outcome that leaves the user worst
off: the one whose remaining cases need the most further weighings (by the solver), then the one leaving
the most cases, ties broken in the order balance, left heavier, right heavier. It only ever gives an
outcome that some case fits, so it stays consistent with every answer so far.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from solvers.errors import IllegalMoveError, InputError

from .case import Case
from .knowledge import UserWeighing, apply, check_weighing
from .plan import Coins, Weighing, numbers, realise, start
from .problem import Outcome, Problem
from .search import fewest, worst_split


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


# ---------------------------------------------------------------- a whole game


@dataclass(frozen=True)
class AdversaryStep:
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
    steps: tuple[AdversaryStep, ...]

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
        steps.append(AdversaryStep(w, o, c, need(c, p.find)))
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


def cases_of(c: Coins) -> list[Case]:
    """Every case that fits what is known, lowest coin first."""
    out = [Case(x, False) for x in numbers(c.light)] + [Case(x, True) for x in numbers(c.heavy)]
    out += [s for x in numbers(c.unknown) for s in (Case(x, True), Case(x, False))]
    out.sort(key=lambda s: (s.coin or 0, not s.heavier))
    return [*out, Case(None)] if c.none_possible else out


def check_guess(guess: Case, p: Problem) -> None:
    """Refuse guesses that name no coin of the problem or leave out a weight the goal asks for."""
    if guess.coin is not None and not 1 <= guess.coin <= p.coins:
        raise InputError(f"there is no coin {guess.coin}: coins are numbered 1 to {p.coins}")
    if guess.coin is None and not p.maybe_none:
        raise InputError("one coin is surely counterfeit in this game: name it")
    if not p.find and guess.coin is not None and guess.heavier is None:
        raise InputError("say whether the coin is heavier or lighter")


def judge(c: Coins, guess: Case, p: Problem) -> Case | None:
    """None if the guess is surely right; else a case that fits every answer but not the guess."""
    check_guess(guess, p)
    return next((case for case in cases_of(c) if not guess.names(case, p.find)), None)


@dataclass(frozen=True)
class Ending:
    """A game ended by a guess: won or not, whether the guess was sure, and a case that beats it."""

    guess: Case
    win: bool
    sure: bool
    counter: Case | None
    fits: bool = True  # the guess names a case that fits every answer (False: the answers rule it out)
    left: int = 0  # how many cases fit every answer

    def wrong(self) -> str:
        """Why a guess the answers rule out is wrong, in words ('Wrong: you named coin 54 heavier; it is
        lighter.'); '' for a guess that fits them."""
        if self.fits or self.counter is None:
            return ""
        g, truth = self.guess, self.counter
        named = "no coin" if g.coin is None else f"coin {g.coin}" + (f" {g.weight}" if g.weight else "")
        if self.left == 1 and truth.coin is not None and truth.coin == g.coin:
            return f"Wrong: you named {named}; it is {truth.weight}."
        if self.left == 1:
            return f"Wrong: you named {named}; the answers leave one case: {truth.sentence()}"
        return (
            f"Wrong: you named {named}, which the answers rule out. {self.left} cases fit them, as: {truth.sentence()}"
        )


def end_game(r: Replay, guess: Case, secret: Case | None = None) -> Ending:
    """Judge a guess: against the adversary it wins only when sure; on the honest scale when it names the secret."""
    counter = judge(r.coins, guess, r.problem)
    if secret is None:
        fitting = cases_of(r.coins)
        fits = any(guess.names(case, r.problem.find) for case in fitting)
        return Ending(guess, counter is None, counter is None, counter, fits, len(fitting))
    right = guess.names(secret, r.problem.find)
    return Ending(guess, right, counter is None, None if right else secret)
