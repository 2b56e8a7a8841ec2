"""The counterfeit-coin game through the engine beyond the sizes where every weighing can be listed.

At each set of secrets still possible the coins fall into four classes: those that may be heavy or light, only
heavy, only light, and the genuine ones. Permuting coins within a class maps the set onto itself, so weighings
are generated up to those permutations (how many coins of each class go on each pan; never all subsets), the
pans' genuine coins only as many as balance the counts, and one of each mirror pair. Sets are memoised under the
same canonical form (the sizes of the classes). Each weighing's partition is computed from the secrets by the
scale itself (`honest_outcome`), as for any game. The optimal worst case is proved as in `optimal`: the depth
rises from the counting bound (3^d secrets at most within d weighings) until "finishes within d" succeeds; every
smaller depth was refuted by the complete search. The optimal tree's weighings become the game's experiments, and
`verify` plays every secret through the tree.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from solvers.errors import LimitError
from solvers.weighing.case import Case, all_cases
from solvers.weighing.knowledge import honest_outcome
from solvers.weighing.problem import Outcome, Problem

from .tree import Node

MAX_GENERATED_COINS = 40
SCALE = {Outcome.RIGHT: 0, Outcome.BALANCE: 1, Outcome.LEFT: 2}  # outcome numbers, as the game's names

CoinWeighing = tuple[tuple[int, ...], tuple[int, ...]]
Shape = tuple[int, ...]  # coins of each class (may-be-either, heavy, light, genuine) on the left, then the right


def classes(n: int, secrets: list[Case], alive: tuple[int, ...]) -> tuple[list[int], list[int], list[int], list[int]]:
    """The coins that may be heavy or light, only heavy, only light, and genuine, each in order."""
    heavy = {secrets[i].coin for i in alive if secrets[i].heavier}
    light = {secrets[i].coin for i in alive if not secrets[i].heavier}
    coins = range(1, n + 1)
    return (
        [c for c in coins if c in heavy and c in light],
        [c for c in coins if c in heavy and c not in light],
        [c for c in coins if c in light and c not in heavy],
        [c for c in coins if c not in heavy and c not in light],
    )


def shapes(sizes: tuple[int, int, int, int]) -> Iterator[Shape]:
    """Every weighing up to the permutations within classes: counts of the three suspect classes on each pan,
    genuine coins added to the pan with fewer coins to balance, one of each mirror pair."""
    nu, nh, nl, ng = sizes
    for ul in range(nu + 1):
        for ur in range(nu - ul + 1):
            for hl in range(nh + 1):
                for hr in range(nh - hl + 1):
                    for ll in range(nl + 1):
                        for lr in range(nl - ll + 1):
                            left, right = ul + hl + ll, ur + hr + lr
                            gl, gr = max(0, right - left), max(0, left - right)
                            if max(gl, gr) > ng or left + gl == 0:
                                continue
                            shape = (ul, hl, ll, gl, ur, hr, lr, gr)
                            if shape[4:] + shape[:4] < shape:
                                continue  # the mirror image was or will be generated
                            yield shape


def concrete(shape: Shape, groups: tuple[list[int], ...]) -> CoinWeighing:
    """The representative weighing of a shape: the first coins of each class on the left, the next on the right."""
    left: list[int] = []
    right: list[int] = []
    for k, group in enumerate(groups):
        a, b = shape[k], shape[4 + k]
        left += group[:a]
        right += group[a : a + b]
    return tuple(sorted(left)), tuple(sorted(right))


class CoinSearch:
    """The optimal worst-case search for n coins (one may be heavier or lighter; find it and its weight)."""

    def __init__(self, n: int) -> None:
        if not 1 <= n <= MAX_GENERATED_COINS:
            raise LimitError(f"the coin game through the engine is for 1 to {MAX_GENERATED_COINS} coins")
        self.n = n
        self.secrets = all_cases(Problem(n))
        self.memo: dict[tuple[tuple[int, int, int, int], int], Shape | None] = {}
        self.sets = 0

    def split(self, alive: tuple[int, ...], w: CoinWeighing) -> dict[int, tuple[int, ...]]:
        """The secrets by the scale's outcome."""
        parts: dict[int, list[int]] = {}
        for i in alive:
            parts.setdefault(SCALE[honest_outcome(w, self.secrets[i])], []).append(i)
        return {o: tuple(p) for o, p in parts.items()}

    def fits(self, alive: tuple[int, ...], depth: int) -> Shape | None | bool:
        """The shape of a first weighing that finishes within depth (True: nothing left to weigh), or None."""
        if len(alive) <= 1:
            return True
        if len(alive) > 3**depth:
            return None
        groups = classes(self.n, self.secrets, alive)
        sizes = (len(groups[0]), len(groups[1]), len(groups[2]), len(groups[3]))
        key = (sizes, depth)
        if key in self.memo:
            return self.memo[key]
        self.sets += 1
        tried = []
        for shape in shapes(sizes):
            parts = self.split(alive, concrete(shape, groups))
            largest = max(len(p) for p in parts.values())
            if largest < len(alive) and largest <= 3 ** (depth - 1):
                tried.append((largest, shape, parts))
        tried.sort(key=lambda x: x[0])
        found: Shape | None = None
        for _, shape, parts in tried:
            if all(self.fits(p, depth - 1) is not None for p in sorted(parts.values(), key=len, reverse=True)):
                found = shape
                break
        self.memo[key] = found
        return found

    def solve(self) -> tuple[int, list[CoinWeighing], Node]:
        """The fewest weighings in the worst case (proved), the weighings of an optimal tree and the tree."""
        alive = tuple(range(len(self.secrets)))
        depth = 0
        while 3**depth < len(alive):
            depth += 1
        while self.fits(alive, depth) is None:
            depth += 1
        used: dict[CoinWeighing, int] = {}

        def grow(s: tuple[int, ...], d: int) -> Node:
            if len(s) <= 1:
                return Node(None, len(s), solved=s[0] if s else None)
            shape = self.fits(s, d)
            assert isinstance(shape, tuple)  # the search proved this set finishes within d
            w = concrete(shape, classes(self.n, self.secrets, s))
            node = Node(used.setdefault(w, len(used)), len(s))
            for o, part in sorted(self.split(s, w).items()):
                node.children[o] = grow(part, d - 1)
            return node

        root = grow(alive, depth)
        return depth, list(used), root


@lru_cache(maxsize=8)
def coin_tree(n: int) -> tuple[int, list[CoinWeighing], Node]:
    """The proved optimal worst-case tree for n coins, its weighings (the tree's experiment numbers index them)."""
    return CoinSearch(n).solve()
