"""The Devil's blindfold game (Norvig, "The Devil and the Coin Flip Game", with John Lamping's proof).

N coins (or dials with m positions) sit around a table. Each move names positions to flip (or amounts to
turn); before acting the Devil may rotate the table (and, in a variant, turn it over). A configuration is
an integer whose base-m digits are the positions, 0 (heads) at 12 o'clock first, clockwise. The belief is the
set of configurations still possible; since the Devil can always rotate, it is closed under the table's
symmetries, so the search works on rotation classes (necklaces) as bits of an integer.
"""

from .lamping import is_power_of_two, lamping, lamping_move, no_strategy_reason
from .play import (
    MAX_MOVES,
    RING_LIMIT,
    adversarial_sizes,
    flip_mask,
    moves_from_text,
    moves_to_text,
    random_play,
    rings,
    seeded_turns,
    start_choices,
    won_at,
)
from .search import belief_classes, classes, exhaust_configs, search, searchable
from .solve import Solution, solve
from .variant import DEVIL_GOALS, DEVIL_MAX_COINS, DevilVariant, digits, encode, goal_configs, positions, symmetries
from .verify import DevilVerification, brute_force_wins, verify

__all__ = [
    "DEVIL_GOALS",
    "DEVIL_MAX_COINS",
    "MAX_MOVES",
    "RING_LIMIT",
    "Solution",
    "DevilVariant",
    "DevilVerification",
    "adversarial_sizes",
    "belief_classes",
    "brute_force_wins",
    "classes",
    "digits",
    "encode",
    "exhaust_configs",
    "flip_mask",
    "goal_configs",
    "is_power_of_two",
    "lamping",
    "lamping_move",
    "moves_from_text",
    "moves_to_text",
    "no_strategy_reason",
    "positions",
    "random_play",
    "rings",
    "search",
    "searchable",
    "seeded_turns",
    "solve",
    "start_choices",
    "symmetries",
    "verify",
    "won_at",
]
