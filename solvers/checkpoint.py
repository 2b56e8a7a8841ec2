"""What a long proof keeps so that a restart resumes it: its table entries (`Entry`) in a `Checkpoint`. Kept apart
from the search (no NumPy, no Numba), so the job layer that stores checkpoints imports it at no cost."""

from __future__ import annotations

from typing import Protocol

Entry = tuple[int, int, int, int]  # one fact a proof settled: a set's fingerprint (2 numbers), its cost, its experiment


class Checkpoint(Protocol):
    """Where a long proof keeps what it has proved, so that a restart resumes it: the table entries of every part
    of a first experiment already settled exactly (each a fact about a set of secrets, whatever the budget)."""

    def known(self) -> list[Entry]:
        """The entries kept by earlier runs."""

    def keep(self, entries: list[Entry]) -> None:
        """Keep the entries of one settled part (the set, and every set on its optimal tree)."""
