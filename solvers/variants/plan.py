"""Optimal plans for the weighing variants on concrete coins, navigated by paths of readings, and verified.

The searches (`single`, `pairs`) work on counts; a plan maps their weighings back to coin numbers. A node is
reached by a path of readings (letters, as in URLs) and knows the coins on each pan, the hypotheses still
possible with the lies each has used, and, at a leaf, the answer. `verify` is independent of the searches: it
plays every secret through the plan with the scale's own rule (`model.reading`), letting the scale lie in every
way it may (any other reading, at any weighing, up to L times), and checks that every leaf names the secret.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

from solvers.errors import InputError, LimitError
from solvers.progress import Tick, quiet

from . import pairs, single
from .model import Pans, Secret, Variant, outcome_label, reading

Hypothesis = tuple[Secret, int]  # a secret still possible and the lies it has used


@dataclass(frozen=True)
class PlanState:
    """The concrete knowledge at a node: coins by search state (single) or by class (pairs), genuine coins."""

    groups: tuple[tuple[int, ...], ...]
    genuine: tuple[int, ...]
    belief: single.SingleBelief | pairs.PairBelief  # the search's own: counts per state, or classes and pairs


@dataclass(frozen=True)
class PlanNode:
    """One node of a plan: where the path leads, the weighing to make there or the answer."""

    path: str
    pans: Pans | None
    hypotheses: tuple[Hypothesis, ...]
    answer: Secret | None
    left: int  # weighings the plan may still use from here

    @property
    def depth(self) -> int:
        """Weighings made to reach the node."""
        return len(self.path)


@dataclass
class VariantPlan:
    """A worst-case optimal plan: the fewest weighings (proved), the lower bound, and the nodes by path."""

    variant: Variant
    weighings: int | None
    bound: int
    reason: str | None
    search: single.SingleSearch | pairs.PairSearch
    nodes: dict[str, tuple[PlanNode, PlanState]] = field(default_factory=dict)
    # the weighing chosen for each (belief, weighings left), fixed at first use: the search may later find another
    # for the same belief, and a stored plan must rebuild exactly the nodes that were verified (one counterfeit:
    # beliefs as counts; two: classes and pairs)
    by_counts: dict[tuple[single.SingleBelief, int], single.SingleSplit] = field(default_factory=dict)
    by_pairs: dict[tuple[pairs.PairBelief, int], pairs.PairSplit] = field(default_factory=dict)

    @property
    def solvable(self) -> bool:
        """True when a plan exists."""
        return self.weighings is not None

    def least(self, state: PlanState) -> int:
        """The fewest weighings that still finish from this knowledge, by the exact search."""
        search, b = self.search, state.belief
        if isinstance(search, single.SingleSearch):
            assert isinstance(b, tuple)
            return search.least(b)
        assert isinstance(b, pairs.PairBelief)
        return search.least(b)

    def start(self) -> PlanState:
        """The knowledge before any weighing."""
        coins = tuple(range(1, self.variant.coins + 1))
        if isinstance(self.search, single.SingleSearch):
            b = self.search.root()
            groups: list[tuple[int, ...]] = [()] * len(b)
            groups[b.index(self.variant.coins)] = coins
            return PlanState(tuple(groups), (), b)
        root, _ = pairs.canonical(self.search.root())
        return PlanState((coins,), (), root)

    def node(self, path: str) -> PlanNode:
        """The node a path of readings leads to; InputError for a path the plan does not have."""
        if path in self.nodes:
            return self.nodes[path][0]
        if self.weighings is None:
            raise InputError("this variant has no plan")
        if len(path) > self.weighings:
            raise InputError("the path is longer than the plan")
        if path:
            above = self.node(path[:-1])
            if above.pans is None:
                raise InputError("the path goes on past the answer")
            assert above.pans is not None
            state = self.after(self.nodes[path[:-1]][1], above.pans, path[-1])
            if not self.hypotheses(state):
                raise InputError(f"{outcome_label(path[-1]).lower()} cannot happen at weighing {len(path)}")
        else:
            state = self.start()
        hyps = self.hypotheses(state)
        left = self.weighings - len(path)
        answers = {s for s, _ in hyps}
        pans = None if len(answers) <= 1 else self._pans(state, left)
        node = PlanNode(path, pans, tuple(hyps), next(iter(answers)) if len(answers) == 1 else None, left)
        self.nodes[path] = (node, state)
        return node

    def next_weighing(self, state: PlanState) -> Pans | None:
        """The search's weighing from this knowledge, finishing in the fewest weighings still possible (a hint);
        None once the answer is known."""
        if len({s for s, _ in self.hypotheses(state)}) <= 1:
            return None
        return self._pans(state, self.least(state))

    def _pans(self, state: PlanState, left: int) -> Pans:
        """The coins on each pan for the search's weighing at this knowledge."""
        k = self.variant.pans
        loads: list[list[int]] = [[] for _ in range(k)]
        search, b = self.search, state.belief
        if isinstance(search, single.SingleSearch):
            assert isinstance(b, tuple)
            if (b, left) not in self.by_counts:
                self.by_counts[(b, left)] = search.split_at(b, left)
            split = self.by_counts[(b, left)]
            assert split is not None  # more than one answer: a weighing is needed
            for s, on in split:
                coins = list(state.groups[s])
                for p, m in enumerate(on):
                    loads[p] += coins[:m]
                    del coins[:m]
        else:
            assert isinstance(b, pairs.PairBelief)
            if (b, left) not in self.by_pairs:
                self.by_pairs[(b, left)] = search.split_at(b, left)
            split2 = self.by_pairs[(b, left)]
            for (x, y), coins2 in zip(split2, state.groups, strict=True):
                loads[0] += coins2[:x]
                loads[1] += coins2[x : x + y]
        top = max(len(pan) for pan in loads)
        spare = list(state.genuine)
        for pan in loads:
            while len(pan) < top:
                pan.append(spare.pop(0))
        return tuple(tuple(sorted(pan)) for pan in loads)

    def after(self, state: PlanState, pans: Pans, letter: str) -> PlanState:
        """The knowledge after the weighing at a node gives a reading."""
        v = self.variant
        if letter not in v.outcomes:
            raise InputError(f"readings here are the letters {''.join(v.outcomes)}", {"reading": letter})
        o = v.outcomes.index(letter)
        where = {c: p + 1 for p, pan in enumerate(pans) for c in pan}
        if isinstance(self.search, single.SingleSearch):
            rules = self.search.r
            groups: list[list[int]] = [[] for _ in state.groups]
            for s, coins in enumerate(state.groups):
                for c in coins:
                    groups[rules.after[s][where.get(c, 0)][o]].append(c)
            genuine = tuple(sorted(set(state.genuine) | set(groups[-1])))
            groups[-1] = list(genuine)
            b = tuple(len(g) for g in groups)
            return PlanState(tuple(tuple(g) for g in groups), genuine, b)
        b2 = state.belief
        assert isinstance(b2, pairs.PairBelief)
        split = tuple(
            (sum(1 for c in g if where.get(c) == 1), sum(1 for c in g if where.get(c) == 2)) for g in state.groups
        )
        raw = pairs.child(b2, split, o)
        fine: list[tuple[int, ...]] = []
        for g in state.groups:
            fine += [
                tuple(c for c in g if where.get(c) == 1),
                tuple(c for c in g if where.get(c) == 2),
                tuple(c for c in g if c not in where),
            ]
        canon, order = pairs.canonical(raw)
        kept = [fine[i] for i in order]
        genuine2 = tuple(sorted(set(range(1, v.coins + 1)) - {c for g in kept for c in g}))
        return PlanState(tuple(kept), genuine2, canon)

    def hypotheses(self, state: PlanState) -> list[Hypothesis]:
        """The secrets still possible, with the lies each has used."""
        out: list[Hypothesis] = []
        if isinstance(self.search, single.SingleSearch):
            used = self.search.r.lies_used
            for s, coins in enumerate(state.groups):
                for c in coins:
                    for heavier, e in zip((True, False), used[s], strict=True):
                        if e is not None:
                            out.append((Secret((c,), heavier), e))
            return sorted(out)
        b = state.belief
        assert isinstance(b, pairs.PairBelief)
        for i, j, d in b.hyps:
            if i == j:
                found = list(combinations(state.groups[i], 2))
            else:
                found = [(a, c) for a in state.groups[i] for c in state.groups[j]]
            out += [(Secret(tuple(sorted(p)), d), 0) for p in found]
        return sorted(out)

    def lies_on_path(self, path: str, s: Secret) -> list[bool]:
        """For each reading on a path: would it have been a lie if the secret were s?"""
        return [reading(self.variant, self._pans_at(path[:i]), s) != path[i] for i in range(len(path))]

    def _pans_at(self, path: str) -> Pans:
        """The weighing at a node that has one."""
        pans = self.node(path).pans
        if pans is None:
            raise InputError("no weighing at an answer")
        return pans


def make_plan(v: Variant, tick: Tick = quiet) -> VariantPlan:
    """The proved fewest weighings for a variant and its optimal plan (nodes built as they are visited)."""
    if v.fakes == 2:
        w, bound, search = pairs.fewest_pairs(v, tick)
        reason = pairs.PAIR_UNSOLVABLE.format(n=v.coins, h=v.coins // 2) if w is None else None
        return VariantPlan(v, w, bound, reason, search)
    w1, bound1, search1 = single.fewest(v, tick)
    reason1 = None if w1 is not None else single.TOO_FEW if v.coins < v.pans and v.coins > 2 else single.UNSOLVABLE
    if w1 is None and v.weight != "unknown":
        reason1 = single.TOO_FEW
    return VariantPlan(v, w1, bound1, reason1, search1)


@dataclass(frozen=True)
class VariantVerification:
    """What replaying every secret through a plan showed."""

    ok: bool
    secrets: int
    paths: int  # secrets times the ways the scale may lie to them
    worst: int
    message: str


MAX_VERIFY_PATHS = 5_000_000


def verify(plan: VariantPlan) -> VariantVerification:
    """Play every secret through the plan, the scale lying in every way it may; every leaf must name it."""
    from .model import secrets

    v = plan.variant
    if plan.weighings is None:
        return VariantVerification(True, 0, 0, 0, "no plan exists; nothing to replay")
    count = worst = 0
    all_secrets = secrets(v)
    for s in all_secrets:
        stack = [("", 0)]
        while stack:
            path, lies = stack.pop()
            node = plan.node(path)
            if node.pans is None:
                count += 1
                worst = max(worst, len(path))
                if count > MAX_VERIFY_PATHS:
                    raise LimitError("too many paths to replay")
                if node.answer != s:
                    return VariantVerification(
                        False, len(all_secrets), count, worst, f"{s.sentence()} ends at {path!r}"
                    )
                continue
            honest = reading(v, node.pans, s)
            for o in v.outcomes:
                spent = lies + (o != honest)
                if spent <= v.lies:
                    stack.append((path + o, spent))
    ok = worst <= plan.weighings
    how = f", the scale lying in every way it may (up to {v.lies})" if v.lies else ""
    return VariantVerification(
        ok, len(all_secrets), count, worst, f"{len(all_secrets):,} secrets{how}: {count:,} paths"
    )


@dataclass(frozen=True)
class StoredPlan:
    """A plan as data, for the result store: the variant, its figures and the weighing chosen at each belief it
    reaches (every one, once verified), from which the same nodes are rebuilt without searching again."""

    variant: Variant
    weighings: int | None
    bound: int
    reason: str | None
    counts: tuple[tuple[single.SingleBelief, int, single.SingleSplit], ...] = ()  # one counterfeit: beliefs as counts
    pairs: tuple[tuple[pairs.PairBelief, int, pairs.PairSplit], ...] = ()  # two counterfeits: classes and pairs


def stored(plan: VariantPlan) -> StoredPlan:
    """The plan's stored form (its search's tables are dropped: the chosen weighings are all it needs)."""
    counts = tuple((b, left, split) for (b, left), split in plan.by_counts.items())
    by_pairs = tuple((b, left, split) for (b, left), split in plan.by_pairs.items())
    return StoredPlan(plan.variant, plan.weighings, plan.bound, plan.reason, counts=counts, pairs=by_pairs)


def restored(s: StoredPlan) -> VariantPlan:
    """A plan from its stored form: a fresh search (consulted only for a belief no stored weighing covers)."""
    v = s.variant
    search: single.SingleSearch | pairs.PairSearch = pairs.PairSearch(v) if v.fakes == 2 else single.SingleSearch(v)
    plan = VariantPlan(v, s.weighings, s.bound, s.reason, search)
    plan.by_counts.update(((b, left), split) for b, left, split in s.counts)
    plan.by_pairs.update(((b, left), split) for b, left, split in s.pairs)
    return plan
