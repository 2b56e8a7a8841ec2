"""One counterfeit coin on a k-pan balance that may lie up to L times: exact search on counts.

Every hypothesis "coin c is heavier" or "coin c is lighter" has used a definite number of lies so far: the
readings that disagree with what it predicts. So a coin's state is the pair (lies used if heavier, lies used if
lighter), each 0..L or D (ruled out), and coins in the same state are interchangeable: a belief is the count of
coins in each state, the last state (D, D) being the coins known genuine.

A weighing is, for each state, how many of its coins go on each pan (the rest stay off), genuine coins padding
the pans to equal size; pans are interchangeable, so only weighings whose pans are listed in non-increasing
order are tried. The search decides "solvable within w weighings" exactly, by trying every such weighing,
pruned only by Berlekamp's volume bound (a necessary condition: the readings a belief's hypotheses can still
produce in w weighings, each lie being any other reading at any weighing, number at most q^w for q readings).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from solvers.progress import Tick, quiet

from .model import LIGHTER_LETTERS, PAN_NAMES, Variant, volume
from .search import DepthSearch

SingleBelief = tuple[int, ...]  # coins in each state, the genuine ones last
SingleSplit = tuple[tuple[int, tuple[int, ...]], ...]  # (state, coins on each pan) for each state that is weighed


@dataclass(frozen=True)
class SingleRules:
    """The precomputed moves of the state machine for one variant."""

    lies: int
    pans: int
    letters: tuple[str, ...]
    alive: tuple[int, ...]  # hypotheses still possible per state (0, 1 or 2)
    lies_used: tuple[tuple[int | None, int | None], ...]  # per state: lies used if heavier, if lighter
    after: tuple[tuple[tuple[int, ...], ...], ...]  # after[state][position][outcome] -> state (position 0: off)

    @property
    def states(self) -> int:
        """How many coin states there are (the genuine state included, last)."""
        return len(self.alive)


def rules(v: Variant) -> SingleRules:
    """The states and their moves for a single-counterfeit variant."""
    dead = v.lies + 1
    side = v.lies + 2
    letters = v.outcomes
    used: list[tuple[int | None, int | None]] = []
    after: list[tuple[tuple[int, ...], ...]] = []
    for s in range(side * side):
        eh, el = divmod(s, side)
        used.append((None if eh == dead else eh, None if el == dead else el))
        rows = []
        for pos in range(v.pans + 1):
            row = []
            for o in letters:
                h = eh if eh == dead or predicted(v, pos, True) == o else min(dead, eh + 1)
                lt = el if el == dead or predicted(v, pos, False) == o else min(dead, el + 1)
                row.append(h * side + lt)
            rows.append(tuple(row))
        after.append(tuple(rows))
    alive = tuple(int(h is not None) + int(lt is not None) for h, lt in used)
    return SingleRules(v.lies, v.pans, letters, alive, tuple(used), tuple(after))


def predicted(v: Variant, position: int, heavier: bool) -> str:
    """The honest reading when the counterfeit is at a position (0: off the scale, i: pan i)."""
    if position == 0:
        return "B"
    i = position - 1
    if v.pans == 2:
        return ("L" if i == 0 else "R") if heavier else ("R" if i == 0 else "L")
    return PAN_NAMES[i] if heavier else LIGHTER_LETTERS[i]


class SingleSearch(DepthSearch[SingleBelief, SingleSplit]):
    """Fewest weighings in the worst case for a single-counterfeit variant, with the weighing at each belief."""

    what = "the variant search"
    max_work = 10_000_000  # about a minute here (6-8 us each)

    def __init__(self, v: Variant, tick: Tick = quiet) -> None:
        if v.fakes != 1:
            raise ValueError("one counterfeit only")
        super().__init__(tick)
        self.v = v
        self.r = rules(v)
        self.q = len(self.r.letters)  # readings a lie may show
        # readings that can occur: an honest scale never shows a known-heavier coin's pan lighter
        self.q_bound = v.pans + 1 if v.lies == 0 and v.weight != "unknown" else self.q

    def root(self) -> SingleBelief:
        """Every coin unweighed: no lies used by either hypothesis (or the weight known)."""
        side = self.v.lies + 2
        dead = self.v.lies + 1
        start = {"unknown": 0, "heavier": dead, "lighter": dead * side}[self.v.weight]  # (0,0), (0,D), (D,0)
        b = [0] * (side * side)
        b[start] = self.v.coins
        return tuple(b)

    def answers(self, b: SingleBelief) -> int:
        """Hypotheses (coin and weight) still possible."""
        return sum(n * a for n, a in zip(b, self.r.alive, strict=True))

    def state_volume(self, state: int, w: int) -> int:
        """The volume of one coin in a state with w weighings left."""
        return sum(volume(self.v.lies - e, w, self.q) for e in self.r.lies_used[state] if e is not None)

    def volume(self, b: SingleBelief, w: int) -> int:
        """The belief's Berlekamp volume with w weighings left."""
        return sum(n * self.state_volume(s, w) for s, n in enumerate(b) if n)

    def settled(self, b: SingleBelief) -> bool:
        """One hypothesis (or none) left."""
        return self.answers(b) <= 1

    def feasible(self, b: SingleBelief, w: int) -> bool:
        """Berlekamp's volume bound (plain counting without lies)."""
        cap: int = self.q_bound**w
        return self.volume(b, w) <= cap

    def children(self, b: SingleBelief, split: SingleSplit, w: int) -> list[SingleBelief]:
        """The belief after each reading, the largest volume first."""
        return sorted((self.child(b, split, o) for o in range(self.q)), key=lambda c: -self.volume(c, w - 1))

    def child(self, b: SingleBelief, split: SingleSplit, outcome: int) -> SingleBelief:
        """The belief after a weighing gives a reading (outcome: its index in the variant's letters)."""
        weighed = dict(split)
        out = [0] * len(b)
        for s, n in enumerate(b):
            on = weighed.get(s, ())
            for pos, m in enumerate(on, 1):
                out[self.r.after[s][pos][outcome]] += m
            out[self.r.after[s][0][outcome]] += n - sum(on)
        return tuple(out)

    def splits(self, b: SingleBelief, w: int) -> Iterator[SingleSplit]:
        """Every weighing up to pan order whose readings each keep a volume within q^(w-1)."""
        k = self.v.pans
        cap = self.q_bound ** (w - 1)
        active = sorted((s for s, n in enumerate(b[:-1]) if n), key=lambda s: -b[s] * self.state_volume(s, w))
        genuine = b[-1]
        per = {
            s: [[self.state_volume(self.r.after[s][pos][o], w - 1) for o in range(self.q)] for pos in range(k + 1)]
            for s in active
        }

        # what the coins not yet placed add to each reading's volume at least, wherever they go
        least = [[0] * self.q for _ in range(len(active) + 1)]
        for i in range(len(active) - 1, -1, -1):
            st = active[i]
            least[i] = [least[i + 1][o] + b[st] * min(per[st][pos][o] for pos in range(k + 1)) for o in range(self.q)]

        left = [sum(b[st] for st in active[i:]) for i in range(len(active) + 1)]

        def place(
            i: int,
            vols: list[int],
            sizes: tuple[int, ...],
            tied: tuple[bool, ...],
            chosen: list[tuple[int, tuple[int, ...]]],
        ) -> Iterator[SingleSplit]:
            if i == len(active):
                split = tuple((s, on) for s, on in chosen if any(on))
                if split and self._balanced(split, genuine):
                    yield split
                return
            s = active[i]
            rest = least[i + 1]
            for on in _spread(b[s], k, tied):  # pans still tied are listed in non-increasing order
                self.count_work()
                now = tuple(x + m for x, m in zip(sizes, on, strict=True))
                top = max(now)
                if sum(top - x for x in now) - left[i + 1] > genuine:
                    continue  # the coins still to place cannot even up the pans, nor the genuine ones
                off = b[s] - sum(on)
                new = list(vols)
                for o in range(self.q):
                    new[o] += off * per[s][0][o] + sum(m * per[s][p][o] for p, m in enumerate(on, 1) if m)
                if all(new[o] + rest[o] <= cap for o in range(self.q)):
                    chosen.append((s, on))
                    yield from place(
                        i + 1, new, now, tuple(t and on[p] == on[p + 1] for p, t in enumerate(tied)), chosen
                    )
                    chosen.pop()

        yield from place(0, [0] * self.q, (0,) * k, (True,) * (k - 1), [])

    def _balanced(self, split: SingleSplit, genuine: int) -> bool:
        """Pans listed in non-increasing order (one of each rearrangement) and padded with the genuine coins."""
        k = self.v.pans
        pans = [tuple(on[p] for _, on in split) for p in range(k)]
        if any(pans[p] < pans[p + 1] for p in range(k - 1)):
            return False
        sizes = [sum(p) for p in pans]
        return sum(max(sizes) - x for x in sizes) <= genuine


def _spread(n: int, k: int, tied: tuple[bool, ...], most: int | None = None) -> Iterator[tuple[int, ...]]:
    """Every way to put at most n coins on k pans (counts per pan), larger counts first; a pan still tied with
    the one before it (tied[p - 1]) gets no more than that one (most)."""
    if k == 0:
        yield ()
        return
    top = n if most is None else min(n, most)
    for first in range(top, -1, -1):
        bound = first if tied and tied[0] else None
        for rest in _spread(n - first, k - 1, tied[1:], bound):
            yield (first, *rest)


UNSOLVABLE = (
    "with the weight unknown, one or two coins and no genuine coin to compare with can never tell the weight: "
    "coin 1 heavier and coin 2 lighter give the same reading on every weighing"
)
TOO_FEW = "fewer coins than pans: no weighing can put the same number of coins on every pan"


def fewest(v: Variant, tick: Tick = quiet) -> tuple[int | None, int, SingleSearch]:
    """The fewest weighings (proved: every smaller number refuted by the exhaustive search; None when no plan
    exists), the volume bound, and the search (which holds an optimal weighing for every belief it reached)."""
    search = SingleSearch(v, tick)
    root = search.root()
    bound = search.lower(root)
    if v.weight == "unknown" and v.coins <= 2 or not search.settled(root) and v.coins < v.pans:
        return None, bound, search
    return search.least(root), bound, search
