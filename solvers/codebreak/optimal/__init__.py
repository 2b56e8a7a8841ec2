"""Optimal code-breaking strategies proved by exhaustive branch-and-bound, compiled with Numba.

`Search` drives the compiled search of the average case (`average`) or the worst case (`worst`) over a game's
`rules`, with `candidates` choosing and ordering the experiments tried, `symmetry` the classes tried once, and
`sets` the table of proved costs. The tree built from the search is played against every secret by
`strategy.verify` before it is reported.
"""

from .rules import capacity, counting_bounds
from .search import NODE_LIMIT, Optimum, Search
from .symmetry import symmetries

__all__ = ["NODE_LIMIT", "Optimum", "Search", "capacity", "counting_bounds", "symmetries"]
