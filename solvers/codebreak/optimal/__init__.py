"""Optimal code-breaking strategies proved by exhaustive branch-and-bound, compiled with Numba.

`Search` drives the compiled search of the average case (`average`) or the worst case (`worst`) over a game's
`rules`, with `candidates` choosing and ordering the experiments tried, `symmetry` the classes tried once, and
`sets` the table of proved costs. The tree built from the search is played against every secret by
`strategy.verify` before it is reported.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .rules import Optimum, capacity, counting_bounds

if TYPE_CHECKING:
    from .search import NODE_LIMIT, Search
    from .symmetry import symmetries

_COMPILED = {"NODE_LIMIT": "search", "Search": "search", "symmetries": "symmetry"}


def __getattr__(name: str) -> Any:
    """The compiled search's names, imported (with Numba) when first asked for: the counting bounds need neither."""
    if name in _COMPILED:
        return getattr(importlib.import_module(f".{_COMPILED[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["NODE_LIMIT", "Optimum", "Search", "capacity", "counting_bounds", "symmetries"]
