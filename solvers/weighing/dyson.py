"""Non-adaptive schemes after Dyson (1946): every weighing fixed in advance, plus a decoding table.

Each coin gets a label v in {-1, 0, 1}^w: in weighing i it goes on the left pan (+1), the right pan
(-1) or stays off (0). A heavier coin makes the scale read v, a lighter one -v (reading +1 for
"left heavier"). The scheme works when every case reads differently and every weighing has equal
pans (extra genuine coins may fill a short pan). Dyson's cyclic labelling (his "clockwise" labels,
closed under adding 1 to every digit mod 3) gives balanced weighings; smaller N drop whole cycles and
a short local search repairs the few coins left over.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from itertools import product

from solvers.errors import InputError

from .case import Case, all_cases
from .problem import Problem

Label = tuple[int, ...]
MAX_SCHEME_COINS = 1000
MAX_STEPS = 4000


@dataclass(frozen=True)
class Scheme:
    """A fixed list of weighings and the table from readings to answers."""

    problem: Problem
    labels: tuple[Label, ...]  # labels[j] is coin j + 1's label
    weighings: tuple[tuple[tuple[int | str, ...], tuple[int | str, ...]], ...]

    def reading(self, case: Case) -> Label:
        """What the w weighings read in a case."""
        if case.coin is None:
            return (0,) * len(self.weighings)
        v = self.labels[case.coin - 1]
        return v if case.heavier else tuple(-x for x in v)

    def decode(self) -> dict[Label, Case]:
        """Reading -> the answer, for every reading that can occur (the weight only when it can be read)."""
        table: dict[Label, Case] = {}
        for case in all_cases(self.problem):
            never_weighed = case.coin is not None and not any(self.labels[case.coin - 1])
            table[self.reading(case)] = Case(case.coin, None) if never_weighed else case
        return table


def sigma(v: Label) -> Label:
    """Add 1 to every digit mod 3 (digits -1, 0, 1 stand for 0, 1, 2)."""
    return tuple((x + 2) % 3 - 1 for x in v)


def clockwise(v: Label) -> bool:
    """Dyson's clockwise label: its first change of digit goes up by one mod 3."""
    return any(x != v[0] for x in v) and next((x - v[0]) % 3 for x in v if x != v[0]) == 1


@cache
def clockwise_cycles(w: int) -> tuple[tuple[Label, Label, Label], ...]:
    """The clockwise labels of length w, grouped in cycles under sigma."""
    seen: set[Label] = set()
    cycles = []
    for v in product((0, 1, -1), repeat=w):
        if clockwise(v) and v not in seen:
            cyc = (v, sigma(v), sigma(sigma(v)))
            seen.update(cyc)
            cycles.append(cyc)
    return tuple(cycles)


def _key(v: Label, paired: bool) -> Label:
    """The class of a label: itself, or {v, -v} when heavier and lighter are both possible."""
    neg = tuple(-x for x in v)
    return max(v, neg) if paired else v


def _imbalance(labels: list[Label], w: int) -> list[int]:
    """Left-pan minus right-pan coin count for each weighing."""
    return [sum(v[i] for v in labels) for i in range(w)]


def _initial(p: Problem, w: int, zero_ok: bool) -> list[Label]:
    """A first labelling: whole cycles, topped up from the next cycle (and the zero label)."""
    paired = p.weight == "unknown"
    want = p.coins - int(zero_ok)
    out: list[Label] = []
    for cyc in clockwise_cycles(w):
        for v in cyc if paired else (*cyc, *(tuple(-x for x in u) for u in cyc)):
            if len(out) < want:
                out.append(v)
    out += [(1,) * w, (-1,) * w][: max(0, min(want - len(out), 1 if paired else 2))]
    if zero_ok:
        out.append((0,) * w)
    return out


def _options(p: Problem, w: int) -> list[Label]:
    """Every label a coin may take."""
    return [v for v in product((0, 1, -1), repeat=w) if any(v)]


def _repair(labels: list[Label], p: Problem, w: int, rng: random.Random) -> list[Label] | None:
    """Swap or flip labels until every weighing is within the extra coins, or give up."""
    paired, e = p.weight == "unknown", p.extra
    options = _options(p, w)

    def cost(s: list[int]) -> int:
        """Coins beyond what the extra genuine coins can make up, over all weighings."""
        return sum(max(0, abs(x) - e) for x in s)

    s = _imbalance(labels, w)
    used = {_key(v, paired) for v in labels}
    for _ in range(MAX_STEPS):
        if cost(s) == 0:
            return labels
        j = rng.randrange(len(labels))
        old = labels[j]
        if not any(old):
            continue
        target = tuple(o - x for o, x in zip(old, s, strict=True))
        candidates = [target] if all(abs(x) <= 1 for x in target) and any(target) else []
        candidates += rng.sample(options, min(24, len(options)))
        if paired:
            candidates.append(tuple(-x for x in old))
        best, best_cost = None, cost(s)
        for new in candidates:
            k = _key(new, paired)
            if k != _key(old, paired) and k in used:
                continue
            s2 = [a - o + n for a, o, n in zip(s, old, new, strict=True)]
            c2 = cost(s2)
            if c2 < best_cost or (c2 == best_cost and rng.random() < 0.3):
                best, best_cost = new, c2
        if best is not None:
            used.discard(_key(old, paired))
            used.add(_key(best, paired))
            labels[j] = best
            s = [a - o + n for a, o, n in zip(s, old, best, strict=True)]
    return None


def _capacity_ok(p: Problem, w: int, zero_ok: bool) -> bool:
    """Enough distinct labels exist for the coins."""
    nonzero: int = 3**w - 1
    classes = nonzero // 2 if p.weight == "unknown" else nonzero
    return bool(p.coins - int(zero_ok) <= classes)


def build_scheme(p: Problem, w: int, seed: int = 1946) -> Scheme | None:
    """A non-adaptive scheme with w weighings, or None if the search finds none."""
    if p.coins > MAX_SCHEME_COINS:
        raise InputError(f"schemes are built for up to {MAX_SCHEME_COINS:,} coins")
    may_skip = not p.maybe_none and p.find  # one coin may stay off the scale throughout
    for zero_ok in (False, True) if may_skip else (False,):
        if w < 1 or not _capacity_ok(p, w, zero_ok) or p.coins - int(zero_ok) < 1:
            continue
        labels = _repair(_initial(p, w, zero_ok), p, w, random.Random(seed))
        if labels is not None:
            scheme = _assemble(p, labels, w)
            if not check_scheme(scheme):
                return scheme
    return None


def no_scheme_reason(p: Problem, w: int) -> str:
    """Why no non-adaptive scheme with w weighings was found."""
    if p.weight != "unknown" and p.maybe_none and p.extra == 0 and p.coins == 3**w - 2:
        return (
            f"none exists with {w}: the {p.coins} labels would be all {3**w - 1} non-zero readings but "
            "one, and those never add up to equal pans"
        )
    if p.weight == "unknown" and not p.find and p.extra == 0 and p.coins < 3:
        return "none exists: with fewer than 3 coins and no extra coin no plan at all exists"
    return f"the search found no non-adaptive scheme with {w} weighings"


def _assemble(p: Problem, labels: list[Label], w: int) -> Scheme:
    """Turn labels into concrete weighings, filling short pans with extra coins G1, G2, ..."""
    weighings = []
    for i in range(w):
        left: list[int | str] = [j + 1 for j, v in enumerate(labels) if v[i] == 1]
        right: list[int | str] = [j + 1 for j, v in enumerate(labels) if v[i] == -1]
        short = left if len(left) < len(right) else right
        short += [f"G{k}" for k in range(1, abs(len(left) - len(right)) + 1)]
        weighings.append((tuple(left), tuple(right)))
    return Scheme(p, tuple(labels), tuple(weighings))


def check_scheme(s: Scheme) -> list[str]:
    """Every problem with the scheme: unequal pans, or two cases that read the same way."""
    p, problems = s.problem, []
    for i, (left, right) in enumerate(s.weighings, 1):
        if len(left) != len(right):
            problems.append(f"weighing {i} has unequal pans")
        if any(isinstance(c, str) and int(c[1:]) > p.extra for c in (*left, *right)):
            problems.append(f"weighing {i} uses more extra coins than there are")
    seen: dict[Label, set[int | None]] = {}
    for case in all_cases(p):
        seen.setdefault(s.reading(case), set()).add(case.coin)
        if case.coin is not None and case.heavier and not p.find and not any(s.labels[case.coin - 1]):
            problems.append(f"coin {case.coin} is never weighed, so its weight can't be told")
    problems += [f"reading {r} fits {sorted(map(str, c))}" for r, c in seen.items() if len(c) > 1]
    return problems
