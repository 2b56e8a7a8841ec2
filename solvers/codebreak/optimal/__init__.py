"""Optimal code-breaking strategies proved by exhaustive branch-and-bound.

One branch and bound per case, each in one compiled kernel (Numba): `average` (the least total) and `worst` (the
fewest experiments), over a game's arrays and one table of proved facts (`rules`, `sets`), with `candidates`
choosing and ordering the experiments tried and `symmetry` the classes tried once. From Python, `table.SearchTable`
holds what both searches share; `average_search.AverageSearch` and `worst_search.WorstSearch` run them (progress,
checkpoints, and for the average the subproblems the kernel hands back, on several processes by `prove`) and read
the optimal tree back. `plain` is the
same search in plain Python: small games, and the tests' oracle. The tree is played against every secret by
`strategy.verify` before it is reported.

This package's own namespace holds only what needs neither Numba nor the kernels (the counting bounds): import a
search from its module, which loads the compiled kernels. Its users import it inside the function that needs it
(`strategy._compiled`, `lesson.lesson`), so that heuristics and small games start without Numba.
"""

from __future__ import annotations

from .rules import Optimum, capacity, counting_bounds

__all__ = ["Optimum", "capacity", "counting_bounds"]
