"""Counterfeit-coin weighing: problems, optimal plans, verification and Dyson's non-adaptive schemes."""

from .dyson import MAX_SCHEME_COINS, Scheme, build_scheme, check_scheme, no_scheme_reason
from .plan import MAX_AVERAGE_COINS, MAX_TREE_COINS, OBJECTIVES, Objective, Plan, WeighingNode, make_plan
from .problem import GOALS, MAX_COINS, OUTCOMES, WEIGHTS, Belief, Outcome, Problem, Split
from .search import MinResult, lower_bound, min_weighings
from .verify import Verification, verify

__all__ = [
    "GOALS",
    "MAX_AVERAGE_COINS",
    "MAX_COINS",
    "MAX_SCHEME_COINS",
    "MAX_TREE_COINS",
    "OBJECTIVES",
    "OUTCOMES",
    "WEIGHTS",
    "Belief",
    "MinResult",
    "WeighingNode",
    "Objective",
    "Outcome",
    "Plan",
    "Problem",
    "Scheme",
    "Split",
    "Verification",
    "build_scheme",
    "check_scheme",
    "lower_bound",
    "make_plan",
    "min_weighings",
    "no_scheme_reason",
    "verify",
]
