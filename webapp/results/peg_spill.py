"""The peg boards' bidirectional search with its levels on disk (solvers/pegs/storage.py `Spill`): a level's children
wait in one file per key bucket while it is built, each new level's parts are files, and after every level a small
manifest records the search, so that the memory a search needs no longer grows with its levels, and a restarted job
(a stopped server, a session's end) resumes at the level it had reached.

A folder holds one problem's search (`spill_for`); it is removed when the problem is settled. Files the manifest does
not name (a level cut short by a stop) are removed when the folder is opened again.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any
from uuid import uuid4

import numpy as np

from solvers.errors import LimitError
from solvers.pegs.board import Board
from solvers.pegs.fewest import Means
from solvers.pegs.report import PegReport, peg_report
from solvers.pegs.storage import Held, Ints, Level, Part, SearchState
from solvers.progress import Tick
from webapp import config

MANIFEST = "search.json"
BUFFER_BYTES = 128 * 2**20  # waiting children held in memory before they go to files (the French proofs: 13 GB)


@dataclass(frozen=True)
class Stored:
    """A part kept in two files (positions and infos) of the folder."""

    folder: Path
    name: str
    lo: int
    hi: int
    size: int

    def load(self) -> tuple[Ints, Ints]:
        """The positions and infos, read back."""
        pos = np.fromfile(self.folder / f"{self.name}.pos", dtype=np.int64)
        info = np.fromfile(self.folder / f"{self.name}.info", dtype=np.int64)
        if len(pos) != self.size or len(info) != self.size:
            raise OSError(f"a saved level of the peg search is incomplete: {self.folder / self.name}")
        return pos, info


class DiskSpill:
    """The levels and waiting children of one search in a folder (created if missing)."""

    def __init__(self, folder: Path, buffer_bytes: int = BUFFER_BYTES) -> None:
        self.folder = folder
        self.buffer_bytes = buffer_bytes
        self.buffered: dict[int, list[Ints]] = {}  # children not written yet, by bucket
        self.held = 0  # their bytes
        self.waiting = folder / "waiting"
        self.waiting.mkdir(parents=True, exist_ok=True)
        self.lock = (folder / "lock").open("a")
        try:  # one process per folder: a second would remove the first's files as stale
            fcntl.flock(self.lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self.lock.close()
            raise LimitError(f"another process is already searching in {folder}") from None
        self.files: dict[int, IO[bytes]] = {}
        self.added: set[int] = set()
        kept = self._named()
        for path in [*self.waiting.iterdir(), *folder.glob("*.pos"), *folder.glob("*.info")]:
            if path.stem not in kept or path.parent == self.waiting:
                path.unlink()

    def add(self, bucket: int, children: Ints) -> None:
        """Children kept for their bucket: in memory while all the buffered children take at most buffer_bytes,
        else appended to the buckets' files (a small level never touches the disk: a file opened per bucket and
        level cost a third of an English problem's time)."""
        self.buffered.setdefault(bucket, []).append(np.array(children, dtype=np.int64))  # the caller reuses its own
        self.held += children.nbytes
        if self.held > self.buffer_bytes:
            self._flush()

    def _flush(self) -> None:
        """The buffered children appended to their buckets' files."""
        for bucket, arrays in self.buffered.items():
            if bucket not in self.files:
                self.files[bucket] = (self.waiting / f"{bucket}.bin").open("ab")
            for children in arrays:
                children.tofile(self.files[bucket])
            self.added.add(bucket)
        self.buffered.clear()
        self.held = 0

    def take(self, bucket: int) -> Ints:
        """A bucket's children read back (those on disk first, in the order added); its file removed (the first
        take ends the level's adds: every bucket's file is closed)."""
        for handle in self.files.values():
            handle.close()
        self.files.clear()
        arrays = self.buffered.pop(bucket, [])
        self.held -= sum(a.nbytes for a in arrays)
        if bucket in self.added:
            self.added.discard(bucket)
            path = self.waiting / f"{bucket}.bin"
            arrays.insert(0, np.fromfile(path, dtype=np.int64))  # a file removed meanwhile fails, never reads empty
            path.unlink()
        return np.concatenate(arrays) if arrays else np.zeros(0, dtype=np.int64)

    def keep(self, lo: int, hi: int, pos: Ints, info: Ints) -> Part:
        """A new level's part written to two files."""
        name = uuid4().hex
        pos.tofile(self.folder / f"{name}.pos")
        info.tofile(self.folder / f"{name}.info")
        return Stored(self.folder, name, lo, hi, len(pos))

    def drop(self, level: Level) -> None:
        """A level's files removed (parts held in memory have none)."""
        for part in level.parts:
            if isinstance(part, Stored):
                (self.folder / f"{part.name}.pos").unlink(missing_ok=True)
                (self.folder / f"{part.name}.info").unlink(missing_ok=True)

    def save(self, checkpoint: SearchState) -> None:
        """The manifest, replaced at once (written beside, then renamed)."""
        record = {
            "limit": checkpoint.limit,
            "earlier": checkpoint.earlier,
            "states": checkpoint.states,
            "forward": _level_record(checkpoint.forward),
            "backward": _level_record(checkpoint.backward),
        }
        temporary = self.folder / f"{MANIFEST}.new"
        temporary.write_text(json.dumps(record), encoding="utf-8")
        os.replace(temporary, self.folder / MANIFEST)

    def restore(self) -> SearchState | None:
        """The search the manifest records, if any."""
        path = self.folder / MANIFEST
        if not path.exists():
            return None
        record = json.loads(path.read_text(encoding="utf-8"))
        return SearchState(
            record["limit"],
            record["earlier"],
            record["states"],
            self._level(record["forward"]),
            self._level(record["backward"]),
        )

    def clear(self) -> None:
        """The whole folder removed (the problem is settled)."""
        for handle in self.files.values():
            handle.close()
        self.files.clear()
        self.buffered.clear()
        self.held = 0
        shutil.rmtree(self.folder, ignore_errors=True)
        self.release()

    def release(self) -> None:
        """The folder's lock let go (a later process may use the folder)."""
        self.lock.close()

    def _named(self) -> set[str]:
        """The part files the manifest names."""
        path = self.folder / MANIFEST
        if not path.exists():
            return set()
        record = json.loads(path.read_text(encoding="utf-8"))
        return {p["name"] for side in ("forward", "backward") for p in record[side]["parts"] if "name" in p}

    def _level(self, record: dict[str, Any]) -> Level:
        """A level from its manifest record."""
        parts: list[Part] = []
        for p in record["parts"]:
            if "name" in p:
                parts.append(Stored(self.folder, p["name"], p["lo"], p["hi"], p["size"]))
            else:
                pos, info = np.array(p["pos"], dtype=np.int64), np.array(p["info"], dtype=np.int64)
                parts.append(Held(p["lo"], p["hi"], pos, info))
        return Level(record["coins"], parts)


def _level_record(level: Level) -> dict[str, Any]:
    """A level in the manifest: its stored parts by name, parts held in memory (a search's first state) inline."""
    parts: list[dict[str, Any]] = []
    for p in level.parts:
        if isinstance(p, Stored):
            parts.append({"name": p.name, "lo": p.lo, "hi": p.hi, "size": p.size})
        else:
            pos, info = p.load()
            parts.append({"lo": p.lo, "hi": p.hi, "pos": pos.tolist(), "info": info.tolist()})
    return {"coins": level.coins, "parts": parts}


def spill_for(root: Path, board: str, hole: str, finish: str) -> DiskSpill:
    """The folder of one problem's search under root (the instance folder's `pegs-search`)."""
    return DiskSpill(root / "pegs-search" / f"{board}-{hole}-{finish}")


# The limit a listed problem's search starts from, where the smaller limits are known to fail: any start gives a proof
# (solvers/pegs/meet.py `fewest_meet`); d3 to a5's searches with limits up to 19 fail (its in-memory search ran out
# of room at 20), so it starts at 20 rather than spend an hour on them again.
START_LIMITS = {("french", "d3", "a5"): 20}
SPILLED_STATES = 3_000_000_000  # states a listed problem's search may build at once, on disk (48 GB of files)


def report_on_disk(b: Board, position: int, hole: str, finish: str, count: bool, tick: Tick) -> PegReport:
    """A listed problem's report (solvers/pegs/report.py), its fewest-moves search keeping its levels on disk in
    the instance folder, up to SPILLED_STATES, so that a stopped job resumes where it was. A full disk ends it with a
    clear message, its files removed; so does running out of states (nothing to resume)."""
    spill = spill_for(config.instance_path(), b.name, f"{position:x}", finish)
    try:
        means = Means(spill, SPILLED_STATES, START_LIMITS.get((b.name, hole, finish), 0))
        report = peg_report(b=b, pos=position, hole=hole, count=count, finish=finish, tick=tick, means=means)
    except LimitError:  # out of states: nothing to resume
        spill.clear()
        raise
    except OSError as e:
        if e.errno != errno.ENOSPC:
            raise
        spill.clear()
        free = shutil.disk_usage(config.instance_path()).free
        raise LimitError(
            f"this proof needs more disk than the instance folder has ({free / 2**30:.1f} GB free once its "
            "files were removed; French d3 to a5 needs 13 GB)"
        ) from None
    spill.clear()
    return report
