"""Weigh against an adversary in the variants: you choose the weighings, the scale answers (lying when it may)
so as to keep the most weighings still needed. No secret is chosen in advance, so nothing is hidden: the answers
follow from the weighings, and a game's URL is just its weighings.

The scale's rule: among the readings that leave some case possible, the one after which the fewest weighings
still needed (the exact search's figure) is largest; ties go to more cases left, then to the first reading.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from solvers.errors import IllegalMoveError, InputError
from solvers.weighing.knowledge import typed_pan

from .model import Pans, Secret, Variant, outcome_label
from .plan import PlanState, VariantPlan

MAX_TURNS = 30
_COINS = re.compile(r"[0-9]{1,3}(,[0-9]{1,3})*")


@dataclass(frozen=True)
class VariantTurn:
    """A weighing you made, the reading the scale gave, and the weighings still needed after it."""

    pans: Pans
    reading: str
    label: str
    needed: int


@dataclass(frozen=True)
class VariantGame:
    """A game so far: the turns, the cases left with their lies used, and how it stands."""

    variant: Variant
    minimum: int
    turns: tuple[VariantTurn, ...]
    cases: tuple[tuple[Secret, int], ...]
    needed: int  # weighings still needed against this scale, whatever you do (0: you know the answer)
    hint: Pans | None = field(default=None, compare=False)  # a best next weighing (the plan's search's), if asked

    @property
    def answer(self) -> Secret | None:
        """The counterfeit(s), once only one answer is left."""
        answers = {s for s, _ in self.cases}
        return next(iter(answers)) if len(answers) == 1 else None

    def status(self, coin: int) -> str:
        """What the cases left say of a coin, in the pan picker's classes: 'genuine' (no case makes it a fake),
        'maybe-heavy' or 'maybe-light' (every case that makes it a fake says that weight), else 'unknown'."""
        weights = {s.heavier for s, _ in self.cases if coin in s.fakes}
        if not weights:
            return "genuine"
        return "unknown" if len(weights) == 2 else "maybe-heavy" if True in weights else "maybe-light"

    @property
    def on_track(self) -> bool:
        """True while the minimum can still be met."""
        return len(self.turns) + self.needed <= self.minimum

    @property
    def costs(self) -> tuple[int, ...]:
        """What each of your weighings cost against a best one: the weighings still needed after it, plus itself,
        less those needed before it (0: a best weighing)."""
        before = [self.minimum, *(t.needed for t in self.turns)]
        return tuple(t.needed + 1 - b for t, b in zip(self.turns, before, strict=False))

    def by_lies(self) -> dict[int, int]:
        """The cases left counted by the lies each has used."""
        out: dict[int, int] = {}
        for _, e in self.cases:
            out[e] = out.get(e, 0) + 1
        return dict(sorted(out.items()))


def parse_weighings(v: Variant, text: str) -> list[Pans]:
    """'1,2-3,4;5-6' -> weighings (';' between weighings, '-' between pans, ',' between coins)."""
    out: list[Pans] = []
    for part in filter(None, text.strip().split(";")):
        out.append(parse_weighing(v, part))
        if len(out) > MAX_TURNS:
            raise InputError(f"a game has at most {MAX_TURNS} weighings")
    return out


def parse_weighing(v: Variant, text: str) -> Pans:
    """One weighing: a list of coins for each pan, the same number on each, no coin twice."""
    pans = [p.strip().replace(" ", "") for p in text.split("-")]
    if len(pans) != v.pans:
        raise InputError(f"a weighing names {v.pans} pans, separated by '-'", text[:40])
    coins: list[tuple[int, ...]] = []
    for p in pans:
        if not _COINS.fullmatch(p):
            raise InputError("each pan is a list of coin numbers separated by commas, like 1,2,3", text[:40])
        coins.append(tuple(sorted(int(c) for c in p.split(","))))
    flat = [c for pan in coins for c in pan]
    if any(not 1 <= c <= v.coins for c in flat):
        raise InputError(f"coins are numbered 1 to {v.coins}", text[:40])
    if len(set(flat)) != len(flat):
        raise InputError("a coin can be on one pan only", text[:40])
    if len({len(pan) for pan in coins}) != 1:
        raise InputError("every pan needs the same number of coins", text[:40])
    return tuple(coins)


def typed_weighing(v: Variant, typed: Sequence[str]) -> str:
    """A weighing typed one pan at a time (numbers, ranges such as 1-4 or 1..4, commas or spaces between), checked
    as `parse_weighing` checks one, in the form a game's URL writes it ('1,2-3,4')."""
    names = [str(c) for c in range(1, v.coins + 1)]
    try:
        pans = [typed_pan(text, names) for text in typed]
    except IllegalMoveError as e:
        raise InputError(e.message) from e
    if not all(pans):
        raise InputError(f"put coins on every pan: {v.pans} pans, the same number of coins on each")
    text = "-".join(",".join(p) for p in pans)
    parse_weighing(v, text)
    return text


def needed(plan: VariantPlan, state: PlanState) -> int:
    """The fewest weighings that still finish from this knowledge, by the exact search."""
    return plan.least(state)


def play(plan: VariantPlan, weighings: list[Pans], hint: bool = False) -> VariantGame:
    """Replay your weighings against the adversarial scale, with a variant's optimal plan (its search and its
    minimum); hint: with a best next weighing from where the game stands."""
    v = plan.variant
    if plan.weighings is None:
        raise InputError(f"this variant cannot be solved: {plan.reason}")
    state = plan.start()
    turns = []
    for pans in weighings:
        if len({s for s, _ in plan.hypotheses(state)}) <= 1:
            raise InputError("the answer is already known: no more weighings")
        best: tuple[int, int, int] | None = None
        chosen = state
        letter = ""
        for i, o in enumerate(v.outcomes):
            after = plan.after(state, pans, o)
            cases = plan.hypotheses(after)
            if not cases:
                continue
            key = (needed(plan, after), len(cases), -i)
            if best is None or key > best:
                best, chosen, letter = key, after, o
        assert best is not None  # the true case always leaves some reading possible
        turns.append(VariantTurn(pans, letter, outcome_label(letter), best[0]))
        state = chosen
    advice = plan.next_weighing(state) if hint else None
    return VariantGame(v, plan.weighings, tuple(turns), tuple(plan.hypotheses(state)), needed(plan, state), advice)
