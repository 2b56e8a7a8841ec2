"""Optimal code-breaking strategies proved by exhaustive branch-and-bound, compiled with Numba.

`Search` drives the compiled search of the average case (`average`) or the worst case (`worst`) over a game's
`rules`, with `candidates` choosing and ordering the experiments tried, `symmetry` the classes tried once, and
`sets` the table of proved costs. The tree built from the search is played against every secret by
`strategy.verify` before it is reported.

This package's own namespace holds only what needs neither NumPy's tables nor Numba (the counting bounds): import
the search from `optimal.search`, which loads the compiled kernels.
"""

from __future__ import annotations

from .rules import Optimum, capacity, counting_bounds

__all__ = ["Optimum", "capacity", "counting_bounds"]
