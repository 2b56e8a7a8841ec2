"""Two counterfeit coins of equal weight on an honest two-pan balance: exact search on classes of coins.

Coins that have been on the same pan in every weighing so far are interchangeable, so a belief is a list of
classes (how many coins each holds) and the hypotheses still possible between them: "a coin of class i and a
coin of class j are the counterfeits, both heavier (or both lighter)". Coins in no hypothesis are genuine. A
belief is memoised under a relabelling of its classes (sorted by size and by what they are paired with); two
beliefs that are the same up to coin names may still get different labels, which costs time, never
correctness.

A weighing is how many coins of each class go on the left and on the right pan, genuine coins padding the
lighter-loaded pan; of a weighing and its mirror image only one is tried. The search decides "solvable within
w weighings" by trying every such weighing, pruned only by counting (at most 3^(w-1) hypotheses per reading).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from math import comb

from solvers.progress import Tick, quiet

from .model import Variant
from .search import DepthSearch

Hyp = tuple[int, int, bool]  # classes i <= j and whether the counterfeits are heavier


@dataclass(frozen=True)
class PairBelief:
    """Classes of interchangeable suspect coins, the hypotheses between them, and the genuine coins."""

    sizes: tuple[int, ...]
    hyps: tuple[Hyp, ...]
    genuine: int

    def count(self, h: Hyp) -> int:
        """How many pairs of coins a hypothesis stands for."""
        i, j, _ = h
        return comb(self.sizes[i], 2) if i == j else self.sizes[i] * self.sizes[j]

    @property
    def cases(self) -> int:
        """Pairs of coins (with their weight) still possible."""
        return sum(self.count(h) for h in self.hyps)


PairSplit = tuple[tuple[int, int], ...]  # coins of each class on the left and on the right
POSITIONS = ("L", "R", "O")  # left pan, right pan, off the scale


def reading(a: int, b: int, heavier: bool) -> int:
    """The reading (0 left heavier, 1 balance, 2 right heavier) when the counterfeits are at positions a, b."""
    load = (a == 0) + (b == 0) - (a == 1) - (b == 1)
    if not heavier:
        load = -load
    return 0 if load > 0 else 2 if load < 0 else 1


def canonical(b: PairBelief) -> tuple[PairBelief, tuple[int, ...]]:
    """The belief with unused classes dropped (their coins genuine) and the rest relabelled; and for each new
    class, the old one it was."""
    hyps = [h for h in b.hyps if b.count(h) > 0]
    used = sorted({i for h in hyps for i in h[:2]})
    dropped = sum(b.sizes) - sum(b.sizes[i] for i in used)

    def signature(i: int) -> tuple[object, ...]:
        links = sorted((d, b.sizes[j if k == i else k], k == j) for k, j, d in hyps if i in (k, j))
        return (-b.sizes[i], tuple(links))

    order = tuple(sorted(used, key=signature))
    new = {old: n for n, old in enumerate(order)}
    relabelled = []
    for i, j, d in hyps:
        a, c = sorted((new[i], new[j]))
        relabelled.append((a, c, d))
    sizes = tuple(b.sizes[i] for i in order)
    return PairBelief(sizes, tuple(sorted(relabelled)), min(b.genuine + dropped, sum(sizes))), order


def child(b: PairBelief, split: PairSplit, outcome: int) -> PairBelief:
    """The belief after a weighing gives a reading (not yet canonical): class i becomes classes 3i (left),
    3i + 1 (right) and 3i + 2 (off)."""
    sizes: list[int] = []
    for (x, y), n in zip(split, b.sizes, strict=True):
        sizes += [x, y, n - x - y]
    hyps: list[Hyp] = []
    for i, j, d in b.hyps:
        for a in range(3):
            for c in range(a if i == j else 0, 3):
                if reading(a, c, d) == outcome:
                    hyps.append((3 * i + a, 3 * j + c, d))
    return PairBelief(tuple(sizes), tuple(hyps), b.genuine)


class PairSearch(DepthSearch[PairBelief, PairSplit]):
    """Fewest weighings in the worst case for two counterfeit coins, with the weighing at each (canonical)
    belief."""

    what = "the two-counterfeit search"
    max_work = 20_000_000  # about a minute here (2-3 us each)

    def __init__(self, v: Variant, tick: Tick = quiet) -> None:
        if v.fakes != 2:
            raise ValueError("two counterfeits only")
        super().__init__(tick)
        self.v = v

    def root(self) -> PairBelief:
        """No weighing yet: one class of all the coins."""
        return PairBelief((self.v.coins,), tuple((0, 0, d) for d in self.v.directions), 0)

    def settled(self, b: PairBelief) -> bool:
        """One pair (or none) left."""
        return b.cases <= 1

    def feasible(self, b: PairBelief, w: int) -> bool:
        """The counting bound: 3^w readings must tell every pair apart."""
        cap: int = 3**w
        return b.cases <= cap

    def children(self, b: PairBelief, split: PairSplit, w: int) -> list[PairBelief]:
        """The canonical beliefs after each reading, the most pairs first."""
        return sorted((canonical(child(b, split, o))[0] for o in range(3)), key=lambda c: -c.cases)

    def splits(self, b: PairBelief, w: int) -> Iterator[PairSplit]:
        """Every weighing, one of each mirror pair, whose readings each keep at most 3^(w-1) pairs."""
        cap = 3 ** (w - 1)
        n = len(b.sizes)
        by_last: list[list[Hyp]] = [[] for _ in range(n)]
        for h in b.hyps:
            by_last[h[1]].append(h)
        left = [sum(b.sizes[i:]) for i in range(n + 1)]

        def add(counts: list[int], i: int, chosen: list[tuple[int, int]]) -> list[int]:
            """The pairs each reading gains once class i is placed (hypotheses whose later class is i)."""
            out = list(counts)
            pos = [(x, y, b.sizes[k] - x - y) for k, (x, y) in enumerate(chosen)]
            for k, j, d in by_last[i]:
                for a in range(3):
                    for c in range(3):
                        if k == j and c < a:
                            continue
                        m = comb(pos[j][a], 2) if k == j and a == c else pos[k][a] * pos[j][c]
                        if m:
                            out[reading(a, c, d)] += m
            return out

        def place(
            i: int, counts: list[int], diff: int, tied: bool, chosen: list[tuple[int, int]]
        ) -> Iterator[PairSplit]:
            if i == n:
                if abs(diff) <= b.genuine and any(x + y for x, y in chosen):
                    yield tuple(chosen)
                return
            size = b.sizes[i]
            for x in range(size, -1, -1):
                for y in range(min(size - x, x if tied else size), -1, -1):
                    self.count_work()
                    d = diff + x - y
                    if abs(d) - left[i + 1] > b.genuine:
                        continue
                    chosen.append((x, y))
                    new = add(counts, i, chosen)
                    if max(new) <= cap:
                        yield from place(i + 1, new, d, tied and x == y, chosen)
                    chosen.pop()

        yield from place(0, [0, 0, 0], 0, True, [])


PAIR_UNSOLVABLE = (
    "with the weight unknown and {n} coins, coins 1-{h} heavier and the others lighter differ from the reverse only by "
    "a constant, so every weighing reads the same for both"
)


def fewest_pairs(v: Variant, tick: Tick = quiet) -> tuple[int | None, int, PairSearch]:
    """The fewest weighings (proved: every smaller number refuted; None when no plan exists), the counting
    bound, and the search."""
    search = PairSearch(v, tick)
    root = canonical(search.root())[0]
    bound = search.lower(root)
    if v.weight == "unknown" and v.coins in (2, 4):
        return None, bound, search
    return search.least(root), bound, search
