"""The counterfeit-coin report: one JSON object shared by the CLI and the API."""

from __future__ import annotations

from functools import lru_cache

from solvers.errors import InputError
from solvers.weighing import (
    MAX_SCHEME_COINS,
    Objective,
    Problem,
    Scheme,
    Verification,
    build_scheme,
    make_plan,
    min_weighings,
    no_scheme_reason,
    verify,
)

LETTER = {1: "L", 0: "B", -1: "R"}


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


def scheme_json(s: Scheme) -> dict[str, object]:
    """The scheme's weighings and decoding table as JSON-ready data."""
    table = {}
    for reading, case in sorted(s.decode().items()):
        table[reading_word(reading)] = case.to_json()
    return {
        "weighings": [{"left": list(left), "right": list(right)} for left, right in s.weighings],
        "table": table,
    }


def coins_report(p: Problem, objective: Objective, tree: bool = False, scheme: bool = False) -> dict[str, object]:
    """Everything the API and CLI say about a problem."""
    m = min_weighings(p)
    out: dict[str, object] = {
        "coins": p.coins,
        "weight": p.weight,
        "goal": p.goal,
        "extra": p.extra,
        "maybe_none": p.maybe_none,
        "objective": objective,
        "solvable": m.solvable,
        "reason": m.reason,
        "weighings": m.weighings,
        "lower_bound": m.lower_bound,
        "average": None,
        "verified": False,
    }
    if m.solvable:
        plan = make_plan(p, objective)
        v = verification(p, objective)
        out.update(average=str(v.average), plan_worst=v.worst, verified=v.ok, verification=v.method)
        if tree:
            out["tree"] = plan.tree()
    if scheme:
        s, note = scheme_for(p)
        out["scheme"] = scheme_json(s) if s else None
        out["scheme_note"] = note
    return out


def check_tree_size(p: Problem, limit: int) -> None:
    """Refuse full trees beyond a limit."""
    if p.coins > limit:
        raise InputError(f"full trees are only built for up to {limit:,} coins")
