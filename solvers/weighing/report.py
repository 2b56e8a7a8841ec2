"""Counterfeit-coin reports: the plan for a problem and a position of the adversary game, typed, serialised
once for the API and the command line."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from solvers.errors import InputError, LimitError
from solvers.report import internal, only_if, optional

from .adversary import Ending, Replay, cases_of, end_game, hint
from .case import Case
from .dyson import MAX_SCHEME_COINS, Scheme, build_scheme, no_scheme_reason
from .knowledge import UserPan, UserWeighing, apply, pans
from .plan import MAX_TREE_COINS, Coins, Objective, Plan, Weighing, WeighingNode, make_plan
from .problem import OUTCOMES, Outcome, Problem, children
from .search import all_splits, min_weighings
from .verify import Verification, verify

LETTER = {1: "L", 0: "B", -1: "R"}
ADVERSARY_MAX_COINS = 10_000  # the adversary game through the command line and the API (its pages: fewer)
ADVERSARY_MAX_EXTRA = 50  # extra genuine coins in the adversary game


@lru_cache(maxsize=512)
def verification(p: Problem, objective: Objective) -> Verification:
    """Replay every case through the plan (cached per problem)."""
    return verify(make_plan(p, objective))


@lru_cache(maxsize=256)
def scheme_for(p: Problem) -> tuple[Scheme | None, str | None]:
    """Dyson's non-adaptive scheme with the fewest weighings, or why there is none."""
    m = min_weighings(p)
    if not m.solvable or m.weighings is None:
        return None, m.reason
    if p.coins > MAX_SCHEME_COINS:
        return None, f"schemes are built for up to {MAX_SCHEME_COINS:,} coins"
    if m.weighings == 0:
        return None, "no weighing is needed"
    s = build_scheme(p, m.weighings)
    if s is not None:
        return s, None
    note = no_scheme_reason(p, m.weighings)
    s = build_scheme(p, m.weighings + 1)
    if s is not None:
        return s, f"{note}; this scheme uses one weighing more than the adaptive plan"
    return None, note


def reading_word(reading: tuple[int, ...]) -> str:
    """A reading as letters, one per weighing: L (left heavier), B (balance), R (right heavier)."""
    return "".join(LETTER[x] for x in reading)


@dataclass(frozen=True)
class SchemeWeighing:
    """One fixed weighing of a scheme."""

    left: tuple[int | str, ...]
    right: tuple[int | str, ...]


@dataclass(frozen=True)
class SchemeReport:
    """Dyson's scheme: the fixed weighings and the decoding table (reading letters -> answer)."""

    weighings: tuple[SchemeWeighing, ...]
    table: dict[str, dict[str, object]]


def scheme_report(s: Scheme) -> SchemeReport:
    """The scheme as reported."""
    return SchemeReport(
        tuple(SchemeWeighing(left, right) for left, right in s.weighings),
        {reading_word(r): case.to_json() for r, case in sorted(s.decode().items())},
    )


def check_tree_size(p: Problem, limit: int) -> None:
    """Refuse full trees beyond a limit."""
    if p.coins > limit:
        raise LimitError(f"full trees are only built for up to {limit:,} coins")


@dataclass(frozen=True)
class CoinsReport:
    """The fewest weighings, the bound, and a verified optimal plan (its tree and Dyson's scheme if asked)."""

    coins: int
    weight: str
    goal: str
    extra: int
    maybe_none: bool
    objective: Objective
    solvable: bool
    reason: str | None
    weighings: int | None
    lower_bound: int
    average: str | None
    verified: bool
    plan_worst: int | None = optional()
    verification: str | None = optional()
    tree: dict[str, object] | None = optional()
    scheme: SchemeReport | None = only_if("scheme_asked")
    scheme_note: str | None = only_if("scheme_asked")
    scheme_asked: bool = internal()

    def text(self) -> str:
        """The report in words."""
        lines = [
            f"{self.coins} coins, weight {self.weight}, goal {self.goal}, extra {self.extra}"
            f"{', maybe none' if self.maybe_none else ''}"
        ]
        if not self.solvable:
            return "\n".join([*lines, f"impossible: {self.reason}"])
        lines.append(f"minimum weighings: {self.weighings} (lower bound {self.lower_bound})")
        lines.append(f"{self.objective}-optimal plan: worst {self.plan_worst}, average {self.average}")
        lines.append(f"verified: {self.verified} ({self.verification})")
        if self.scheme is not None:
            for i, w in enumerate(self.scheme.weighings, 1):
                lines.append(f"scheme weighing {i}: {list(w.left)} vs {list(w.right)}")
        elif self.scheme_asked:
            lines.append(f"no non-adaptive scheme: {self.scheme_note}")
        return "\n".join(lines)


def coins_report(p: Problem, objective: Objective, tree: bool = False, scheme: bool = False) -> CoinsReport:
    """Everything the API and the command line say about a problem."""
    if tree:
        check_tree_size(p, MAX_TREE_COINS)
    m = min_weighings(p)
    v = verification(p, objective) if m.solvable else None
    s, note = scheme_for(p) if scheme else (None, None)
    return CoinsReport(
        coins=p.coins,
        weight=p.weight,
        goal=p.goal,
        extra=p.extra,
        maybe_none=p.maybe_none,
        objective=objective,
        solvable=m.solvable,
        reason=m.reason,
        weighings=m.weighings,
        lower_bound=m.lower_bound,
        average=str(v.average) if v else None,
        verified=v.ok if v else False,
        plan_worst=v.worst if v else None,
        verification=v.method if v else None,
        tree=make_plan(p, objective).tree() if tree and v else None,
        scheme=scheme_report(s) if s else None,
        scheme_note=note,
        scheme_asked=scheme,
    )


@dataclass(frozen=True)
class AdversaryReport:
    """A position of the adversary game: the answers so far, what is known, and whether the budget still holds."""

    outcomes: tuple[str, ...]
    cases_left: int
    can_still_finish: bool
    weighings_left: int
    knowledge: dict[str, str]
    weighings_needed: int | None
    budget: int
    minimum: int
    lost_at: int | None

    def text(self) -> str:
        """The report in words."""
        return (
            f"outcomes: {', '.join(self.outcomes) or '(none yet)'}\n"
            f"cases left: {self.cases_left}; weighings left: {self.weighings_left}; "
            f"can still finish: {'yes' if self.can_still_finish else 'no'}"
        )


def adversary_report(r: Replay, minimum: int) -> AdversaryReport:
    """The report for a replayed game."""
    c = r.coins
    return AdversaryReport(
        tuple(step.outcome.value for step in r.steps),
        c.abstract().cases,
        r.can_finish,
        r.left,
        {str(i): c.status(i) for i in range(1, r.problem.coins + 1)},
        r.need,
        r.budget,
        minimum,
        r.lost_at(),
    )


def budget_range(p: Problem, max_weighings: int) -> tuple[int, int]:
    """(least, most) weighing budget of an adversary game: the proved minimum, and up to 20 more."""
    m = min_weighings(p)
    if not m.solvable or m.weighings is None:
        raise InputError(f"this game cannot be won: {m.reason}")
    return m.weighings, min(max_weighings, m.weighings + 20)


def game_budget(p: Problem, budget: int | None, max_weighings: int) -> tuple[int, int]:
    """(budget, minimum) for an adversary game: the budget defaults to the minimum (`budget_range`)."""
    lo, hi = budget_range(p, max_weighings)
    if budget is not None and not lo <= budget <= hi:
        raise InputError(f"The weighing budget must be a whole number from {lo} to {hi}")
    return lo if budget is None else budget, lo


@dataclass(frozen=True)
class AdversaryView:
    """A position of the game against the scale as the play page shows it: the verdict once the coin is named
    (against the sealed secret on the honest scale), the weighing after which a win within the budget stopped being
    sure and the solver's weighing there instead, the suggested weighing (hint level 2), the cases still possible,
    and the last weighing's pans."""

    verdict: Ending | None
    lost: int | None
    better: Weighing | None
    hint: Weighing | None
    cases: tuple[Case, ...]
    last_pans: tuple[UserPan, UserPan]


def adversary_view(r: Replay, guess: Case | None, secret: Case | None, hint_level: int) -> AdversaryView:
    """The play page's model after the replay r (and the coin named, if guess)."""
    lost = r.lost_at()
    return AdversaryView(
        end_game(r, guess, secret) if guess is not None else None,
        lost,
        r.better(lost) if lost else None,
        hint(r) if hint_level >= 2 else None,
        tuple(cases_of(r.coins)),
        pans(r.steps[-1].weighing if r.steps else ((), ())),
    )


LESSON_MAX_CANDIDATES = 30  # candidate coins up to which every weighing is tried for a hint (well under a second)


@dataclass(frozen=True)
class WeighingLesson:
    """What a weighing was worth against the scale's worst answer: the cases it can leave, beside the fewest any
    weighing of the same position can leave (None: too many candidate coins to try every weighing here)."""

    cases_before: int
    worst_left: int
    best_worst_left: int | None


def weighing_lesson(before: Coins, w: UserWeighing) -> WeighingLesson:
    """The cases weighing w can leave at worst, against the most balanced weighing's (every weighing tried, up to
    swapping the pans and renaming coins of one kind)."""
    worst = max(apply(before, w, o).abstract().cases for o in OUTCOMES)
    return WeighingLesson(before.abstract().cases, worst, best_worst_left(before))


def best_worst_left(before: Coins) -> int | None:
    """The fewest cases any weighing of the position can leave at worst (every weighing tried, up to swapping the
    pans and renaming coins of one kind); None above LESSON_MAX_CANDIDATES candidate coins."""
    b = before.abstract()
    if b.u + b.l + b.h > LESSON_MAX_CANDIDATES:
        return None
    return min((max(c.cases for c in children(b, s)) for s in all_splits(b)), default=b.cases)


@dataclass(frozen=True)
class Choice:
    """A reading the scale may show at a plan node (the plain weighing's and the variants'): its path letter, its
    words, and the secrets it leaves (0: it cannot happen here)."""

    letter: str
    label: str
    secrets: int


@dataclass(frozen=True)
class WeighingNodeView:
    """A plan node as its page shows it: the node, the path to it as crumbs (number, the weighing in words, the
    reading's words, the path prefix), the last weighing with the coins before it and its reading, and the readings
    possible from here."""

    here: WeighingNode
    crumbs: tuple[tuple[int, str, str, str], ...]
    last: tuple[Weighing, Coins, str] | None  # the reading as Outcome.value
    outcomes: tuple[Choice, ...]


def node_view(plan: Plan, path: str) -> WeighingNodeView:
    """The page model of the plan node at path (an InputError for a path the plan does not have)."""
    here = plan.node(path)
    crumbs = []
    for i, ch in enumerate(path):
        w = plan.node(path[:i]).weighing
        assert w is not None  # a path only continues below weighings
        crumbs.append((i, f"{w.left.describe()} v {w.right.describe()}", Outcome.from_letter(ch).words, path[: i + 1]))
    last = None
    if path:
        above = plan.node(path[:-1])
        assert above.weighing is not None
        last = (above.weighing, above.coins, Outcome.from_letter(path[-1]).value)
    outcomes: tuple[Choice, ...] = ()
    if here.weighing is not None:
        cases = here.outcome_cases()
        outcomes = tuple(Choice(o.letter, o.label, cases[o]) for o in OUTCOMES)
    return WeighingNodeView(here, tuple(crumbs), last, outcomes)


@dataclass(frozen=True)
class AdversaryPage:
    """The adversary game's play page, without its links: the replay (the problem's round so far), the weighings
    in effect, the position's view, what the last weighing could leave against the most balanced one, whether the
    coin has been named, the hint level shown, and the honest scale's secret once named."""

    round: Replay
    weighings: tuple[UserWeighing, ...]
    view: AdversaryView
    lesson: WeighingLesson | None
    over: bool
    hint_level: int
    secret: Case | None


def adversary_page(
    r: Replay, ws: tuple[UserWeighing, ...], guess: Case | None, secret: Case | None, hint_level: int
) -> AdversaryPage:
    """The play page's model after the replay r of the weighings ws (and the coin named, if guess)."""
    lesson = None
    if r.steps:
        before = r.steps[-2].after if len(r.steps) >= 2 else r.start
        lesson = weighing_lesson(before, r.steps[-1].weighing)
    view = adversary_view(r, guess, secret, hint_level)
    return AdversaryPage(r, ws, view, lesson, guess is not None, hint_level, secret)


STATUS_GRID_COINS = 150  # the plan navigator draws a chip per coin up to this many coins


@dataclass(frozen=True)
class NodePage:
    """The plan navigator's page, without its links: the problem and objective, the plan, its verification, the
    node's view (crumbs, last weighing, outcomes), the most balanced weighing's worst case here (None at an
    answer), and whether each coin is drawn."""

    problem: Problem
    objective: Objective
    plan: Plan
    verification: Verification
    view: WeighingNodeView
    best_worst: int | None
    show_grid: bool


def node_page(p: Problem, obj: Objective, plan: Plan, v: Verification, path: str) -> NodePage:
    """The navigator page's model at path (an InputError for a path the plan does not have)."""
    view = node_view(plan, path)
    best = best_worst_left(view.here.coins) if view.here.weighing is not None else None
    return NodePage(p, obj, plan, v, view, best, p.coins <= STATUS_GRID_COINS)
