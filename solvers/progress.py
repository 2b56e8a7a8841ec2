"""Progress callbacks: long searches call tick(done, total) now and then (total 0 when unknown), so a job can
show a real progress bar. Solvers never know where the figures go."""

from __future__ import annotations

from collections.abc import Callable

Tick = Callable[[int, int], None]


def quiet(done: int, total: int) -> None:
    """The default: progress goes nowhere."""
