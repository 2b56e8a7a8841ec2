"""The optimal search of small games in plain Python, with no compiler, and the tests' oracle for the compiled one:
a process that proves a game of a few dozen secrets (Mastermind 3x4) finishes before Numba would have loaded its
kernels (see docs/decisions.md).

The same branch and bound as the compiled search (`average`, `worst`), over sets held as Python integers (bit x
set: secret x is possible): an experiment's parts are the set ANDed with its outcome classes. Experiments making
the same partition are tried once, and at the start one per class of the game's symmetries (`Game.orbit`); the
counting bounds (`rules.counting`, as the compiled search reads them) prune, best bound first, and a part is
searched with the budget the best cost found leaves. Proved costs and bounds are kept per set. Its trees are
verified on every secret as the compiled search's are (`strategy.verify`), and the tests compare both searches on
every small size.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from solvers.errors import LimitError

from ..game import Game
from .rules import BIG as _BIG
from .rules import UNCAPPED, Optimum, counting, possible_only_game

PLAIN_MAX = 100  # secrets: games up to this size are searched here first (the compiled search's start-up costs more)
PLAIN_WORK = 20_000  # ... within this much work (about a quarter of a second here); past it, the compiled search
# takes over (black-peg Mastermind 2x8 would take 19 s here: the compiled search has its place-by-place symmetries)
BIG_COST = int(_BIG)  # above any cost


@dataclass(frozen=True)
class _Candidate:
    bound: int  # |S| + the counting bounds of the open parts (average), or the largest open part (worst)
    hit: bool  # the experiment may be the secret
    experiment: int
    parts: tuple[int, ...]  # the open parts, largest first


class PlainSearch:
    """One optimal search over a small game (average or worst case; the average within cap experiments when
    given), its table kept so that the tree can be read back (`best_of`), read as `strategy.read_back` reads the
    compiled searches (`AverageSearch`, `WorstSearch`)."""

    def __init__(
        self, game: Game, worst: bool, node_limit: int, cap: int | None = None, possible_only: bool = False
    ) -> None:
        if possible_only:
            possible_only_game(game)
        self.possible_only = possible_only
        table = game.dense()
        self.game = game
        self.worst = worst
        self.cap = UNCAPPED if cap is None or worst else cap
        self.must_hit = game.must_hit
        n = len(game.secrets)
        self.everyone = (1 << n) - 1
        win = game.win_outcome if game.must_hit else -1
        # classes[g]: (outcome, the secrets giving it) for each outcome of experiment g
        self.classes: list[list[tuple[int, int]]] = []
        for g in range(table.shape[0]):
            row = table[g].tolist()
            masks: dict[int, int] = {}
            for x, o in enumerate(row):
                masks[o] = masks.get(o, 0) | (1 << x)
            self.classes.append(sorted(masks.items()))
        self.win = win
        count = counting(table, game.must_hit, win)
        self.bound: list[int] = count.bound.tolist()
        self.lowest_depth = count.lowest_depth
        self.caps: list[int] = count.caps.tolist()
        self.outcomes = int(table.max()) + 1
        self.limit = node_limit
        self.work = 0
        self.memo: dict[tuple[int, int], tuple[int, bool, int]] = {}  # (set, depth) -> (value, exact, experiment)
        self.root_choice = -1

    # ------------------------------------------------------------ shared

    def _spend(self, n: int) -> None:
        self.work += n
        if self.work > self.limit:
            raise LimitError(
                f"too large to search here: past the search's budget ({self.limit:,} secrets in the sets searched)"
            )

    def _feasible(self, n: int, depth: int) -> bool:
        return depth >= len(self.caps) or self.caps[depth] >= n

    def _candidates(self, s: int, worst: bool, root: bool) -> list[_Candidate]:
        """The experiments worth trying at s, one per partition (and at the start one per symmetry class), best
        bound first (average: |S| + the parts' counting bounds; worst: the largest open part, then the most even
        split), an experiment that may be the secret before one that cannot, then the game's order."""
        n = s.bit_count()
        seen: dict[tuple[int, frozenset[int]], int] = {}
        rows: list[tuple[tuple[int, int, int, int], _Candidate]] = []
        orbits: set[int] = set()
        orbit = self.game.orbit if root else ()
        for g, classes in enumerate(self.classes):
            if self.possible_only and not (s >> g) & 1:
                continue  # only codes still possible are guessed
            if orbit:
                if orbit[g] in orbits:
                    continue
                orbits.add(orbit[g])
            won, parts = 0, []
            for o, mask in classes:
                p = s & mask
                if p:
                    if o == self.win:
                        won = p
                    else:
                        parts.append(p)
            if not won and len(parts) == 1:
                continue  # tells nothing
            key = (won, frozenset(parts))
            if key in seen:
                continue
            seen[key] = g
            sizes = [p.bit_count() for p in parts]
            if worst:
                primary, spread = max(sizes, default=0), sum(c * c for c in sizes)
            else:
                primary, spread = n + sum(self.bound[c] for c in sizes), 0
            order = sorted(parts, key=lambda p: -p.bit_count())
            rows.append(((primary, spread, 0 if won else 1, g), _Candidate(primary, bool(won), g, tuple(order))))
        rows.sort(key=lambda r: r[0])
        return [c for _, c in rows]

    # ------------------------------------------------------------ the average case

    def _shortcut(self, s: int, n: int) -> int:
        """The exact cost of a small set of a guess-the-secret game, or -1 (as the compiled `shortcut`)."""
        if not self.must_hit or n > self.outcomes:
            return -1
        if self._perfect_member(s) >= 0:
            return 2 * n - 1
        return 6 if n == 3 else -1

    def _perfect_member(self, s: int) -> int:
        """A member of s whose outcomes on the other members are all different, or -1."""
        x = s
        while x:
            low = x & -x
            g = low.bit_length() - 1
            if all((s & m).bit_count() <= 1 for _, m in self.classes[g]):
                return g
            x ^= low
        return -1

    def average(self, s: int, beta: int, depth: int, root: bool = False) -> int:
        """The least total cost of s within depth experiments if below beta, else a lower bound at least beta (BIG_COST
        if s cannot finish within depth)."""
        n = s.bit_count()
        if not self._feasible(n, depth):
            return BIG_COST
        if n <= 1:
            return n if self.must_hit else 0
        lb = self.bound[n]
        if lb >= beta:
            return lb
        known = self.memo.get((s, depth))
        if known is not None:
            if known[1] or known[0] >= beta:
                return known[0]
            lb = max(lb, known[0])
        if depth >= 3 and not root:
            exact = self._shortcut(s, n)
            if exact >= 0:
                return exact
        self._spend(n)
        inner = depth if depth >= UNCAPPED else depth - 1
        small = 2 if self.must_hit else 1  # parts this small cost their counting bound (shortcuts)
        best, best_g, floor = beta, -1, BIG_COST
        for c in self._candidates(s, False, root):
            if c.bound >= best:
                floor = min(floor, c.bound)
                break
            total = c.bound
            for p in c.parts:
                size = p.bit_count()
                if size <= small and self._feasible(size, inner):
                    continue
                low = self.bound[size]
                total += self.average(p, best - (total - low), inner) - low
                if total >= best:
                    break
            if total < best:
                best, best_g = total, c.experiment
            else:
                floor = min(floor, total)
        if best_g < 0:
            best = max(floor, lb)
        self.memo[(s, depth)] = (best, best_g >= 0, best_g)
        return best

    # ------------------------------------------------------------ the worst case

    def fits(self, s: int, depth: int, root: bool = False) -> bool:
        """Whether s can be finished within depth experiments."""
        n = s.bit_count()
        if n == 0 or (n == 1 and not self.must_hit):
            return True
        if depth <= 0 or n > self.caps[min(depth, len(self.caps) - 1)]:
            return False
        if n == 1:
            return True
        known = self.memo.get((s, 0))
        if known is not None:
            if known[1] and known[0] <= depth:
                return True
            if not known[1] and known[0] >= depth:
                return False
        self._spend(n)
        found = -1
        for c in self._candidates(s, True, root):
            if c.bound > self.caps[depth - 1]:
                break
            if all(self.fits(p, depth - 1) for p in c.parts):
                found = c.experiment
                break
        if not root:
            self.memo[(s, 0)] = (depth, found >= 0, found)
        else:
            self.root_choice = found
        return found >= 0

    # ------------------------------------------------------------ the interface of `strategy`

    def solve(self, tick: Callable[[int, int], None] | None = None) -> Optimum:
        """The optimal cost from the start, proved."""
        if self.worst:
            depth = self.lowest_depth
            while not self.fits(self.everyone, depth, root=True):
                depth += 1
            return Optimum(depth, self.work)
        cost = self.average(self.everyone, BIG_COST, self.cap, root=True)
        known = self.memo.get((self.everyone, self.cap))  # none when no tree finishes within the cap
        self.root_choice = -1 if known is None else known[2]
        if tick:
            tick(1, 1)
        return Optimum(cost, self.work)

    def best_of(self, s: NDArray[np.int32], budget: int, depth: int = UNCAPPED) -> tuple[int, int]:
        """(cost, experiment) on the optimal tree for a set whose cost (or depth) is at most budget, with at most
        depth experiments left: read back from the table, or searched again."""
        mask = sum(1 << int(x) for x in s)
        n = len(s)
        if self.must_hit and n <= 2:
            return (n if self.worst else 2 * n - 1), int(s[0])
        if self.worst:
            self.fits(mask, budget)
            value, exact, choice = self.memo[(mask, 0)]
            if exact and value <= budget:
                return value, choice
            # a shallower depth was proved elsewhere and then refuted at this one: cannot happen
            raise AssertionError("a set on the optimal tree has no proved experiment")
        known = self.memo.get((mask, depth))
        if known is None or not known[1] or known[2] < 0:
            self.memo.pop((mask, depth), None)
            self.average(mask, budget + 1, depth)
            known = self.memo.get((mask, depth))
        if known is None or not known[1] or known[2] < 0:
            return self._shortcut_choice(s, mask)
        return known[0], known[2]

    def _shortcut_choice(self, s: NDArray[np.int32], mask: int) -> tuple[int, int]:
        """The cost and experiment of a small set the shortcut settles (not kept in the table)."""
        perfect = self._perfect_member(mask)
        return (2 * len(s) - 1, perfect) if perfect >= 0 else (6, int(s[0]))
