"""A weighing variant's verified plan as the pages read it: from the result store (computed by a job when large),
or refused at once where the variant's stored table shows it beyond the search's reach. The variants' pages and the
plan navigator read it here, neither from the other."""

from __future__ import annotations

from solvers.errors import LimitError
from solvers.variants.model import Variant
from solvers.variants.plan import VariantPlan, VariantVerification
from webapp.jobs.access import computed, peek
from webapp.results.catalogue import VARIANT_PLAN, VARIANT_TABLE, VariantParams


def plan_for(v: Variant) -> tuple[VariantPlan, VariantVerification]:
    """The verified plan, from the result store (computed by a job when large). Refused at once, with the largest
    number of coins within reach, where the variant's stored table shows this one beyond the search's reach (a job
    would run for many minutes to the same refusal)."""
    reach = beyond_reach(v)
    if reach is not None:
        raise LimitError(reach)
    plan, check = computed(VARIANT_PLAN, VariantParams(v.to_token()))
    return plan, check


def beyond_reach(v: Variant) -> str | None:
    """Why a variant's plan is refused at once (its table, when stored, shows it beyond the search's reach), or
    None."""
    start = 2 if v.fakes == 2 else 1
    rows = peek(VARIANT_TABLE, VariantParams(Variant(start, v.weight, v.lies, v.fakes, v.pans).to_token()))
    row = next((r for r in rows or () if r.coins == v.coins), None)
    if row is None or row.weighings is not None or not row.note.startswith(("beyond", "not searched")):
        return None
    reached = max((r.coins for r in rows or () if r.weighings is not None), default=0)
    first = next((r.coins for r in rows or () if r.note.startswith("beyond")), v.coins)
    return (
        f"{v.coins} coins are beyond this search's reach for this variant (its table of sizes stops at {first} "
        f"coins, the first it could not plan); the largest number of coins it plans is {reached}"
    )
