"""What a long proof keeps so that a restart resumes it: its table entries (`Entry`) in a `Checkpoint`. Kept apart
from the search (no NumPy, no Numba), so the job layer that stores checkpoints imports it at no cost."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

Entry = tuple[int, int, int, int]  # one fact a proof settled: a set's fingerprint (2 numbers), its cost, its experiment
Frame = tuple[int, ...]  # where a stopped search of one part stood (`optimal.rules.saved`), as whole numbers


class Checkpoint(Protocol):
    """Where a long proof keeps what it has proved, so that a restart resumes it: the table entries of every part
    of a first experiment already settled exactly (each a fact about a set of secrets, whatever the budget)."""

    def known(self) -> list[Entry]:
        """The entries kept by earlier runs."""

    def keep(self, entries: list[Entry]) -> None:
        """Keep the entries of one settled part (the set, and every set on its optimal tree)."""


@runtime_checkable
class FrameCheckpoint(Checkpoint, Protocol):
    """A checkpoint that also keeps where a stopped proof's running parts stood (`solvers.halt.Paused`), so that
    the next run goes on from there with nothing searched again."""

    def paused(self) -> list[Frame]:
        """The frames kept by the last stop (none once the proof went on past them)."""

    def pause(self, frames: list[Frame]) -> None:
        """Keep the frames of a stop (replacing those of an earlier one)."""
