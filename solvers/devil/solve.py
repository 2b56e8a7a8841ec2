"""The answer for a variant: search when small, Lamping's construction or argument when large."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from solvers.progress import Tick, quiet

from .lamping import is_power_of_two, lamping, no_strategy_reason
from .search import EXHAUST_MAX_CONFIGS, exhaust_configs, search, searchable
from .variant import DevilVariant
from .verify import verify


@dataclass(frozen=True)
class Solution:
    """The shortest sure win (or a construction), or why there is none."""

    variant: DevilVariant
    solvable: bool | None
    moves: tuple[int, ...] | None
    method: str | None
    verified: bool
    reason: str | None
    sizes: tuple[int, ...] = ()

    @property
    def length(self) -> int | None:
        """Number of moves."""
        return None if self.moves is None else len(self.moves)


@lru_cache(maxsize=64)
def solve(v: DevilVariant, tick: Tick = quiet) -> Solution:
    """Search when small, Lamping's construction for large powers of two, the Devil's argument otherwise."""
    if searchable(v):
        r = search(v)
        if r.moves is not None:
            check = verify(v, r.moves)
            return Solution(v, True, r.moves, "search", check.ok, None, check.sizes)
        if r.exhausted:
            reason = no_strategy_reason(v) or (
                f"exhaustive search over all {r.beliefs_explored:,} reachable beliefs found no sure win"
            )
            return Solution(v, False, None, "search", True, reason)
    if v.states == 2 and v.goal == "all-heads" and is_power_of_two(v.n):
        moves = tuple(lamping(v.n))
        check = verify(v, moves, tick)
        return Solution(
            v,
            True if check.ok else None,
            moves if check.ok else None,
            "construction",
            check.ok,
            None if check.ok else "Lamping's construction did not verify for this variant",
            check.sizes,
        )
    argument = no_strategy_reason(v)
    if v.states == 2 and v.configs <= EXHAUST_MAX_CONFIGS:
        full = exhaust_configs(v, tick)
        if full.exhausted:
            found = (
                f"Exhaustive search over all {v.configs:,} tables: {full.beliefs_explored} reachable beliefs, "
                "none empty."
            )
            return Solution(v, False, None, "search", True, f"{argument} {found}" if argument else found)
    if argument:
        return Solution(v, False, None, "argument", True, argument)
    return Solution(v, None, None, None, False, "too large to search, and no construction or argument applies")
