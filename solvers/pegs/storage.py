"""Where the bidirectional peg search's levels live (`levels.py` builds them, `meet.py` runs the search): a level
is parts of states in key order (`Part`, held in memory by `Held`), and a `Spill` is where a level's children wait
while it is built, where its parts are kept, and where a search under way (`SearchState`) is saved so that a
restart resumes it: `Memory` here, or on disk in the web app (webapp/results/peg_spill.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

Ints = NDArray[np.int64]


class Part(Protocol):
    """Some of a level's states: the positions of the key buckets [lo, hi), sorted by key, and their infos."""

    @property
    def lo(self) -> int:
        """The first bucket."""
        ...

    @property
    def hi(self) -> int:
        """The bucket after the last."""
        ...

    @property
    def size(self) -> int:
        """Number of states."""
        ...

    def load(self) -> tuple[Ints, Ints]:
        """The positions and infos."""
        ...


@dataclass(frozen=True)
class Held:
    """A part held in memory."""

    lo: int
    hi: int
    pos: Ints
    info: Ints

    @property
    def size(self) -> int:
        """Number of states."""
        return len(self.pos)

    def load(self) -> tuple[Ints, Ints]:
        """The positions and infos."""
        return self.pos, self.info


@dataclass
class Level:
    """One side's states with this many coins, in parts that follow each other in key order."""

    coins: int
    parts: list[Part]

    @property
    def size(self) -> int:
        """Number of states."""
        return sum(p.size for p in self.parts)


@dataclass(frozen=True)
class SearchState:
    """A bidirectional search under way: its limit, the states built for earlier limits and for this one, and
    the two sides' latest levels."""

    limit: int
    earlier: int
    states: int
    forward: Level
    backward: Level


class Spill(Protocol):
    """Where a level's children wait, bucket by bucket, while the level is built; where levels are kept; and
    where a search under way is saved so that a restart resumes it (`Memory`: in memory, nothing saved; the web
    app's disk spill keeps them in files, so that memory bounds neither the levels nor the children)."""

    def add(self, bucket: int, children: Ints) -> None:
        """Children (packed, see `_children`) that fall in a bucket."""

    def take(self, bucket: int) -> Ints:
        """Every child added to a bucket since it was last taken, in any order."""
        ...

    def keep(self, lo: int, hi: int, pos: Ints, info: Ints) -> Part:
        """A part of a new level."""
        ...

    def drop(self, level: Level) -> None:
        """A level no longer needed."""

    def save(self, checkpoint: SearchState) -> None:
        """The search so far (its levels are kept until dropped)."""

    def restore(self) -> SearchState | None:
        """The search last saved, if any."""
        ...


class Memory:
    """The spill that keeps everything in memory and saves nothing."""

    def __init__(self) -> None:
        self.waiting: dict[int, list[Ints]] = {}

    def add(self, bucket: int, children: Ints) -> None:
        """Children that fall in a bucket."""
        self.waiting.setdefault(bucket, []).append(children)

    def take(self, bucket: int) -> Ints:
        """The children of a bucket."""
        got = self.waiting.pop(bucket, [])
        return np.concatenate(got) if got else np.zeros(0, dtype=np.int64)

    def keep(self, lo: int, hi: int, pos: Ints, info: Ints) -> Part:
        """A part held in memory."""
        return Held(lo, hi, pos, info)

    def drop(self, level: Level) -> None:
        """Nothing to release but the references."""

    def save(self, checkpoint: SearchState) -> None:
        """Nothing is saved."""

    def restore(self) -> SearchState | None:
        """Nothing was saved."""
        return None
