"""Reports on the weighing variants for the API and the command line, and the tables N = 1..100."""

from __future__ import annotations

from dataclasses import dataclass

from solvers.errors import LimitError, PuzzleError
from solvers.progress import Tick, quiet
from solvers.report import optional
from solvers.weighing.report import Choice

from .model import VARIANT_MAX_COINS, Variant, outcome_label
from .plan import PlanNode, VariantPlan, VariantVerification, make_plan, verify

MAX_TREE_NODES = 20_000  # whole plans in the JSON up to this many nodes


def bound_name(v: Variant) -> str:
    """Which lower bound a variant's figure is: Berlekamp's volume with lies, plain counting without."""
    return "volume" if v.lies else "counting"


@dataclass(frozen=True)
class VariantReport:
    """The fewest weighings of a variant (proved), its lower bound, and the verified plan."""

    coins: int
    weight: str
    lies: int
    fakes: int
    pans: int
    variant: str
    solvable: bool
    reason: str | None
    weighings: int | None
    lower_bound: int
    bound: str
    proved: bool
    verified: bool
    verification: str
    secrets: int
    paths: int
    readings: dict[str, str]
    first_weighing: list[list[int]] | None = optional()
    tree: dict[str, object] | None = optional()

    def text(self) -> str:
        """The report in words."""
        lines = [self.variant]
        if not self.solvable:
            return "\n".join([*lines, f"impossible: {self.reason}"])
        lines.append(f"minimum weighings: {self.weighings} (proved; {self.bound} bound {self.lower_bound})")
        lines.append(f"verified: {self.verified} ({self.verification})")
        if self.first_weighing:
            lines.append("first weighing: " + " | ".join(" ".join(map(str, pan)) for pan in self.first_weighing))
        return "\n".join(lines)


def tree_json(plan: VariantPlan, path: str = "") -> dict[str, object]:
    """A plan node and everything below it: pans and readings, or the answer and the readings that were lies."""
    node = plan.node(path)
    if node.pans is None:
        out: dict[str, object] = {"answer": node.answer.to_json() if node.answer else None}
        if plan.variant.lies and node.answer is not None:
            out["lies_at"] = [i + 1 for i, lie in enumerate(plan.lies_on_path(path, node.answer)) if lie]
        return out
    kids = {}
    for o in plan.variant.outcomes:
        try:
            kids[o] = tree_json(plan, path + o)
        except PuzzleError:
            continue  # a reading no secret can give here
    return {"pans": [list(p) for p in node.pans], "readings": kids}


def variant_report(v: Variant, tree: bool = False, tick: Tick = quiet) -> VariantReport:
    """Everything the API and the command line say about a variant."""
    plan = make_plan(v, tick)
    return report_of(plan, verify(plan), tree)


def report_of(plan: VariantPlan, check: VariantVerification, tree: bool = False) -> VariantReport:
    """The report of a plan and its verification."""
    v = plan.variant
    first = plan.node("").pans if plan.solvable else None
    if tree and check.paths > MAX_TREE_NODES:
        raise LimitError(f"whole plans are given up to {MAX_TREE_NODES:,} leaves; this one has {check.paths:,} paths")
    return VariantReport(
        coins=v.coins,
        weight=v.weight,
        lies=v.lies,
        fakes=v.fakes,
        pans=v.pans,
        variant=v.describe(),
        solvable=plan.solvable,
        reason=plan.reason,
        weighings=plan.weighings,
        lower_bound=plan.bound,
        bound=bound_name(v),
        proved=True,
        verified=check.ok,
        verification=check.message,
        secrets=check.secrets,
        paths=check.paths,
        readings={o: outcome_label(o) for o in v.outcomes},
        first_weighing=[list(p) for p in first] if first else None,
        tree=tree_json(plan) if tree and plan.solvable else None,
    )


@dataclass(frozen=True)
class VariantRow:
    """One line of a variant's table: N, the fewest weighings (None: impossible or beyond reach), the bound."""

    coins: int
    weighings: int | None
    lower_bound: int
    note: str  # '' when proved and verified; otherwise why there is no figure


def table(base: Variant, tick: Tick = quiet, top: int = VARIANT_MAX_COINS) -> tuple[VariantRow, ...]:
    """Every N from the smallest to `top` for a variant's settings, each plan verified before it is listed."""
    rows: list[VariantRow] = []
    beyond = 0  # the first N past the search's budget: the rows after it are not searched
    for n in range(base.fakes, top + 1):
        v = Variant(n, base.weight, base.lies, base.fakes, base.pans)
        if beyond:
            rows.append(VariantRow(n, None, _bound(v), f"not searched: {beyond} coins were already beyond reach"))
            continue
        try:
            plan = make_plan(v)
        except LimitError as e:
            rows.append(VariantRow(n, None, _bound(v), f"beyond this search's reach ({e.message})"))
            beyond = n
        else:
            check = verify(plan) if plan.solvable else VariantVerification(True, 0, 0, 0, "")
            if not check.ok:  # never listed: a figure is only shown once its plan is verified
                raise LimitError(f"the plan for {n} coins failed verification: {check.message}")
            rows.append(VariantRow(n, plan.weighings, plan.bound, plan.reason or ""))
        tick(n, top)
    return tuple(rows)


def _bound(v: Variant) -> int:
    """The lower bound alone (cheap)."""
    from . import pairs, single

    if v.fakes == 2:
        search = pairs.PairSearch(v)
        return search.lower(pairs.canonical(search.root())[0])
    s = single.SingleSearch(v)
    return s.lower(s.root())


def node_lies(plan: VariantPlan, node: PlanNode) -> dict[int, int]:
    """The hypotheses at a node counted by the lies they have used."""
    out: dict[int, int] = {}
    for _, e in node.hypotheses:
        out[e] = out.get(e, 0) + 1
    return dict(sorted(out.items()))


@dataclass(frozen=True)
class VariantStep:
    """A weighing made on the way to a node, its reading, and how many of the node's secrets say it was a lie."""

    pans: tuple[tuple[int, ...], ...]
    letter: str
    label: str
    lied_for: int


@dataclass(frozen=True)
class VariantNodeView:
    """Everything the navigator shows at a node."""

    node: PlanNode
    steps: tuple[VariantStep, ...]
    choices: tuple[Choice, ...]
    by_lies: dict[int, int]
    lies_at: tuple[int, ...]  # at an answer: the weighings (from 1) whose readings were lies

    @property
    def genuine(self) -> frozenset[int]:
        """The coins on the node's pans that no case still possible makes a fake (drawn as known genuine)."""
        if self.node.pans is None:
            return frozenset()
        suspects = {c for s, _ in self.node.hypotheses for c in s.fakes}
        return frozenset(c for pan in self.node.pans for c in pan) - suspects


def navigate(plan: VariantPlan, path: str) -> VariantNodeView:
    """The node at a path with the steps that led there and the readings possible next."""
    node = plan.node(path)
    lied = [0] * len(path)  # per reading: the secrets still possible for which it was a lie
    for s, _ in node.hypotheses:
        for i, lie in enumerate(plan.lies_on_path(path, s)):
            lied[i] += lie
    steps = []
    for i, letter in enumerate(path):
        above = plan.node(path[:i])
        assert above.pans is not None  # a path only continues below weighings
        steps.append(VariantStep(above.pans, letter, outcome_label(letter), lied[i]))
    choices = []
    if node.pans is not None:
        for o in plan.variant.outcomes:
            try:
                left = len(plan.node(path + o).hypotheses)
            except PuzzleError:
                left = 0
            choices.append(Choice(o, outcome_label(o), left))
    lies_at: tuple[int, ...] = ()
    if node.answer is not None:
        lies_at = tuple(i + 1 for i, lie in enumerate(plan.lies_on_path(path, node.answer)) if lie)
    return VariantNodeView(node, tuple(steps), tuple(choices), node_lies(plan, node), lies_at)


@dataclass(frozen=True)
class Run:
    """Consecutive rows of a table with the same figure, bound and note: N from `first` to `last`."""

    first: int
    last: int
    weighings: int | None
    lower_bound: int
    note: str


def runs(rows: tuple[VariantRow, ...]) -> tuple[Run, ...]:
    """A table's rows grouped into runs of equal figures (what the page lists; the chart shows every N)."""
    out: list[Run] = []
    for r in rows:
        prev = out[-1] if out else None
        if prev and (prev.weighings, prev.lower_bound, prev.note) == (r.weighings, r.lower_bound, r.note):
            out[-1] = Run(prev.first, r.coins, r.weighings, r.lower_bound, r.note)
        else:
            out.append(Run(r.coins, r.coins, r.weighings, r.lower_bound, r.note))
    return tuple(out)
