"""Verification: replay every possible case through a plan (or a scheme) and check every answer."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from .case import Case, all_cases
from .plan import Coins, Plan, conclude, start
from .problem import OUTCOMES, Belief, Outcome, Problem, children, pow3

MAX_CONCRETE = 5_000  # plans for more coins are verified on the abstraction (all cases by symmetry)


@dataclass(frozen=True)
class Verification:
    """What replaying every case found."""

    ok: bool
    cases: int
    worst: int
    total: int
    method: str
    failures: tuple[str, ...] = field(default=())

    @property
    def average(self) -> Fraction:
        """Expected number of weighings over all cases."""
        return Fraction(self.total, self.cases)


def _answer_ok(p: Problem, case: Case, c: Coins) -> bool:
    """True when the leaf's answer is right for the case under the problem's goal."""
    answer = conclude(c)
    return answer is not None and answer.names(case, p.goal == "find")


def _weighing_ok(c: Coins, left: list[int | str], right: list[int | str]) -> str | None:
    """A reason why a weighing is illegal, or None."""
    if len(left) != len(right) or not left:
        return "pans hold different numbers of coins"
    if set(left) & set(right) or len(set(left)) != len(left) or len(set(right)) != len(right):
        return "a coin is used twice"
    for coin in (*left, *right):
        if isinstance(coin, str):
            if not (coin.startswith("G") and 1 <= int(coin[1:]) <= c.extra):
                return f"no extra coin {coin}"
        elif not 1 <= coin <= c.n:
            return f"no coin {coin}"
    return None


def verify(plan: Plan) -> Verification:
    """Replay every case through the plan: concrete for small N, on the abstraction beyond."""
    if plan.problem.coins > MAX_CONCRETE:
        return verify_abstract(plan)
    p, failures = plan.problem, list[str]()
    worst = total = 0
    stack: list[tuple[str, Coins, list[Case]]] = [("", start(p), all_cases(p))]
    while stack and len(failures) < 10:
        path, c, cases = stack.pop()
        w = plan.step(c, len(path))
        if w is None:
            bad = [case for case in cases if not _answer_ok(p, case, c)]
            failures += [f"path {path or '(root)'}: wrong answer for {case}" for case in bad[:3]]
            worst, total = max(worst, len(path)), total + len(path) * len(cases)
            continue
        reason = _weighing_ok(c, w.left.labels(), w.right.labels()) if p.coins <= 2000 else None
        if reason:
            failures.append(f"path {path or '(root)'}: {reason}")
        routed: dict[Outcome, list[Case]] = {o: [] for o in OUTCOMES}
        for case in cases:
            routed[w.result(case.coin, bool(case.heavier))].append(case)
        for o, after in zip(OUTCOMES, w.after, strict=True):
            if routed[o]:
                stack.append((path + o.letter, after, routed[o]))
    weighings = plan.weighings
    if worst > weighings:
        failures.append(f"a case needs {worst} weighings, more than the plan's {weighings}")
    return Verification(not failures, p.cases, worst, total, f"replayed all {p.cases:,} cases", tuple(failures))


def verify_abstract(plan: Plan) -> Verification:
    """Check the plan on every abstract belief it reaches; each stands for all its cases by symmetry."""
    p, failures = plan.problem, list[str]()
    seen: dict[tuple[object, ...], tuple[int, int]] = {}

    def visit(b: Belief, depth: int) -> tuple[int, int]:
        """(worst depth, total depth) below an abstract belief, checking each weighing."""
        key = (b, depth)
        if key in seen:
            return seen[key]
        s = plan.split(b, depth)
        if s is None:
            if b.answers(p.find) > 1:
                failures.append(f"leaf {b.to_token()} leaves {b.answers(p.find)} answers")
            seen[key] = (0, 0)
            return 0, 0
        if not s.fits(b) or b.cases > pow3(plan.weighings - depth):
            failures.append(f"weighing {s} does not fit {b.to_token()}")
        worst, total = 0, b.cases
        for kid in children(b, s):
            if kid.cases:
                w, t = visit(kid, depth + 1)
                worst, total = max(worst, w + 1), total + t
        seen[key] = (worst, total)
        return worst, total

    worst, total = visit(p.root(), 0)
    method = f"all {p.cases:,} cases, through {len(seen):,} classes of equivalent positions"
    return Verification(not failures, p.cases, worst, total, method, tuple(failures))
