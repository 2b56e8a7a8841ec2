"""The peg boards' bidirectional search in small parts and with its levels on disk
(webapp/results/peg_spill.py): the same fewest moves and the same states as the search in memory, and a search stopped
part-way resumes from its files."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

import solvers.pegs.levels as levels
from solvers.errors import LimitError
from solvers.pegs import board, exact, replay
from solvers.pegs.meet import fewest_meet
from solvers.pegs.shipped import SHIPPED
from solvers.pegs.storage import Ints, Part, SearchState
from webapp.results.peg_spill import MANIFEST, DiskSpill, spill_for

# (board, start, finish), solvable; the answers come from the exact layers (solvers/pegs/exact.py)
PROBLEMS = [
    ("triangle-5", "4", "12"),
    ("triangle-5", "1", "13"),
    pytest.param("triangle-6", "2", "14", marks=pytest.mark.proof),  # the longest of the four: make proofs
    ("triangle-6", "1", "5"),
]


@pytest.fixture
def small_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Levels cut into many parts (a few hundred states each) and parents expanded a few dozen at a time, so
    that the two sides' parts cover different buckets and the merge goes part by part."""
    monkeypatch.setattr(levels, "BATCH", 300)
    monkeypatch.setattr(levels, "SLICE", 37)


@pytest.mark.parametrize(("name", "hole", "finish"), PROBLEMS)
def test_small_parts_and_disk_give_the_exact_fewest_moves(
    name: str, hole: str, finish: str, small_parts: None, tmp_path: Path
) -> None:
    """In small parts, in memory and on disk: the exact layers' fewest moves, the same states built, each
    solution replayed onto the finish; the disk search leaves its saved files (removed with clear)."""
    b = board(name)
    start, goal = b.start(hole), b.index(finish)
    want = exact(name).finals(start).get(goal)
    memory = fewest_meet(b, start, goal)
    spill = DiskSpill(tmp_path / "search")
    disk = fewest_meet(b, start, goal, spill=spill)
    assert memory.moves == disk.moves == want and memory.proved and disk.proved
    assert memory.nodes == disk.nodes
    assert replay(b, start, disk.solution) == 1 << goal and len(disk.solution) == want
    assert (tmp_path / "search" / MANIFEST).exists()
    spill.clear()
    assert not (tmp_path / "search").exists()


@pytest.mark.proof  # half a minute: make proofs (small parts on triangle boards are checked in make test)
def test_many_parts_build_the_same_levels_as_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """English c3 to c3: a level built in parts of a few thousand states holds the same states as one built whole
    (the number built over the search is the same), and gives the same fewest moves (no published figure for this
    problem: the comparison is between the two ways of building, each solution replayed)."""
    b = board("english")
    start, goal = b.start("c3"), b.index("c3")
    whole = fewest_meet(b, start, goal)
    monkeypatch.setattr(levels, "BATCH", 5000)
    monkeypatch.setattr(levels, "SLICE", 999)
    parts = fewest_meet(b, start, goal)
    assert whole.moves is not None and whole.moves == parts.moves and whole.nodes == parts.nodes
    assert replay(b, start, parts.solution) == 1 << goal


class Stopped(Exception):
    """A job stopped part-way."""


class StopAfter(DiskSpill):
    """A disk spill whose process stops after so many parts are kept (in the middle of a level)."""

    def __init__(self, folder: Path, parts: int) -> None:
        super().__init__(folder)
        self.left = parts
        self.steps = 0

    def keep(self, lo: int, hi: int, pos: Ints, info: Ints) -> Part:
        self.left -= 1
        if self.left < 0:
            raise Stopped
        return super().keep(lo, hi, pos, info)

    def save(self, checkpoint: SearchState) -> None:
        self.steps += 1
        super().save(checkpoint)


def test_a_stopped_search_resumes_from_its_files(small_parts: None, tmp_path: Path) -> None:
    """Stopped in the middle of a level, then started again on the same folder: the files of the cut level are
    removed, the search goes on from the last level saved (fewer levels built than from the start) and gives
    the exact fewest moves and the same states as an uninterrupted search."""
    b = board("triangle-6")
    start, goal = b.start("1"), b.index("5")
    full = StopAfter(tmp_path / "full", 10**9)
    whole = fewest_meet(b, start, goal, spill=full)
    full.release()
    folder = tmp_path / "cut"
    cut = StopAfter(folder, 150)
    with pytest.raises(Stopped):
        fewest_meet(b, start, goal, spill=cut)
    cut.release()  # as the stopped process's exit would
    opened = DiskSpill(folder)
    saved = opened.restore()
    opened.release()
    assert saved is not None
    named = {p.name for side in (saved.forward, saved.backward) for p in side.parts if hasattr(p, "name")}
    assert {f.stem for f in folder.glob("*.pos")} == named  # the cut level's parts are gone
    assert not any((folder / "waiting").iterdir())
    again = StopAfter(folder, 10**9)
    resumed = fewest_meet(b, start, goal, spill=again)
    assert resumed.moves == whole.moves == exact("triangle-6").finals(start)[goal]
    assert resumed.nodes == whole.nodes
    assert 0 < again.steps < full.steps
    again.release()
    assert replay(b, start, resumed.solution) == 1 << goal


def test_spill_for_names_one_folder_per_problem(tmp_path: Path) -> None:
    """Each problem its own folder under the instance's pegs-search; a part read back equals what was kept."""
    a, c = spill_for(tmp_path, "french", "d3", "a5"), spill_for(tmp_path, "french", "d3", "d5")
    assert a.folder != c.folder and a.folder.parent == tmp_path / "pegs-search"
    pos, info = np.arange(5, dtype=np.int64), np.arange(5, 10, dtype=np.int64)
    got = a.keep(3, 4, pos, info).load()
    assert got[0].tolist() == pos.tolist() and got[1].tolist() == info.tolist()
    a.clear()
    c.clear()


def test_a_listed_problems_job_keeps_its_levels_on_disk_then_removes_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The site's job for a listed problem (English c2 to c5, the quickest) saves its search in the instance folder
    after every level, gives a proved solution that replays onto c5, and removes the folder once proved; a position
    that is not a listed problem's start (the same start with its finish elsewhere) keeps nothing on disk. (That a
    search on disk gives the fewest moves the search in memory gives, and the exact layers', is checked above on
    triangle-6.)"""
    from solvers.progress import quiet
    from webapp.results.catalogue import PEGS_REPORT, ReportParams, pegs_problem

    monkeypatch.setenv("COIN_PUZZLES_INSTANCE", str(tmp_path))
    folders: list[Path] = []
    save = DiskSpill.save

    def spy(self: DiskSpill, checkpoint: SearchState) -> None:
        folders.append(self.folder)
        save(self, checkpoint)

    monkeypatch.setattr(DiskSpill, "save", spy)
    b = board("english")
    report = PEGS_REPORT.run(pegs_problem("english", "c2", "c5"), quiet)
    assert report.proved and report.min_moves == len(report.solution)
    assert replay(b, b.start("c2"), report.analysis(b).solution) == 1 << b.index("c5")
    assert set(folders) == {tmp_path / "pegs-search" / f"english-{b.start('c2'):x}-c5"}
    assert not any((tmp_path / "pegs-search").iterdir())
    folders.clear()
    moved = b.start("c2") ^ (1 << b.index("c2")) ^ (1 << b.index("c4")) ^ (1 << b.index("c3"))  # c4 jumped to c2
    other = PEGS_REPORT.run(ReportParams("english", moved, None, False, "c5"), quiet)
    assert other.proved and other.min_moves is not None and not folders


@pytest.mark.parametrize(("name", "hole", "finish"), PROBLEMS)
def test_any_start_limit_proves_the_same_fewest_moves(name: str, hole: str, finish: str) -> None:
    """Starting the limits anywhere (below, at, one under or above the answer) gives the exact layers' fewest
    moves, proved; a start above the Merson bound skips the lower limits' searches."""
    b = board(name)
    start, goal = b.start(hole), b.index(finish)
    want = exact(name).finals(start)[goal]
    plain = fewest_meet(b, start, goal)
    for first in (0, want - 1, want, want + 3):
        r = fewest_meet(b, start, goal, start_limit=first)
        assert r.moves == want and r.proved and replay(b, start, r.solution) == 1 << goal, first
    assert fewest_meet(b, start, goal, start_limit=want - 1).nodes < plain.nodes


def test_children_wait_in_memory_up_to_the_buffer_then_in_files(tmp_path: Path) -> None:
    """Children stay in memory while the buffered ones take at most the buffer's bytes (no file written); past it
    every bucket's children go to its file; a bucket comes back whole and in the order added, from both places."""
    spill = DiskSpill(tmp_path / "s", buffer_bytes=4 * 8)
    waiting = tmp_path / "s" / "waiting"
    spill.add(7, np.arange(3, dtype=np.int64))
    assert not any(waiting.iterdir())
    spill.add(8, np.arange(10, 12, dtype=np.int64))  # 5 children: past the buffer, all of them written
    assert sorted(p.name for p in waiting.iterdir()) == ["7.bin", "8.bin"]
    spill.add(7, np.arange(3, 5, dtype=np.int64))  # in memory again
    assert spill.take(7).tolist() == [0, 1, 2, 3, 4] and spill.take(8).tolist() == [10, 11]
    assert spill.take(9).tolist() == [] and not any(waiting.iterdir())
    spill.clear()


def test_one_process_per_folder_and_no_lost_children(tmp_path: Path) -> None:
    """A second spill on a folder in use is refused with a clear message (it would remove the first's files as
    stale); children whose file vanished are an error, never an empty bucket."""
    first = DiskSpill(tmp_path / "s", buffer_bytes=0)  # every child to its file
    with pytest.raises(LimitError, match="another process"):
        DiskSpill(tmp_path / "s")
    first.add(7, np.arange(3, dtype=np.int64))
    assert first.take(7).tolist() == [0, 1, 2] and first.take(7).tolist() == []
    first.add(9, np.arange(3, dtype=np.int64))
    first.take(0)  # the level's adds end: files closed
    (tmp_path / "s" / "waiting" / "9.bin").unlink()
    with pytest.raises(OSError):
        first.take(9)
    first.clear()
    DiskSpill(tmp_path / "s").clear()  # free again once the first let go


def test_the_hours_long_problem_is_queued_by_precompute_only_and_last() -> None:
    """French d3 to a5 (hours, on disk) is listed, but only `make precompute` (large) queues it, after everything
    else but Super Mastermind's optimum guessing possible codes only (6.6 GB) and the Mastermind sizes not proved yet
    (optima.FRONTIER, none now); `make run`'s background queue leaves it out, with every listed problem but the
    English centre game (the rest take 9 minutes of both cores, the French ones up to 5.6 GB)."""
    from solvers.codebreak import optima
    from webapp.jobs.precompute import LATE_PROBLEMS, everything
    from webapp.results.catalogue import PEGS_REPORT, pegs_problem

    late = pegs_problem("french", "d3", "a5")
    assert ("french", "d3", "a5") in LATE_PROBLEMS
    run = [p for c, p in everything() if c is PEGS_REPORT]
    precompute = list(everything(large=True))
    problems = [p for c, p in precompute if c is PEGS_REPORT]
    assert late not in run and problems[-1] == late
    after = precompute[precompute.index((PEGS_REPORT, late)) + 1 :]  # only the code-breaking proofs of hours
    assert after and all(
        c is not PEGS_REPORT
        and (getattr(p, "game", "") == "super-mastermind" or (getattr(p, "pegs", 0), p.colours) in optima.FRONTIER)
        for c, p in after
    )
    assert len(problems) == 21 + 10 and run == [pegs_problem("english", "d4", "d4")]


# The 21-move solution of French d3 to a5 shipped in the package, which benchmarks/pegs.py --french-problem d3 a5
# found on 2026-11-26 (its search with its levels on disk, from limit 20: no solution within 20 moves, so 21 is the
# fewest; see docs/puzzles/pegs.md). Replayed below by the test's own geometry of the 37-hole board, not the solver's
# rules; its length is checked against the proof below (make proofs).
D3_A5 = next(p.solution for p in SHIPPED if (p.board, p.hole, p.finish) == ("french", "d3", "a5"))


def test_the_french_d3_to_a5_solution_replays_on_the_37_hole_board() -> None:
    """Each move a chain of jumps by one coin over a neighbour into an empty hole two steps along a row or column:
    21 moves from every hole but d3 full to one coin on a5."""
    holes = {f"{c}{r}" for r in range(1, 8) for c in "abcdefg" if abs("abcdefg".index(c) - 3) + abs(r - 4) <= 4}
    holes -= {"a1", "b1", "f1", "g1", "a7", "b7", "f7", "g7", "a2", "g2", "a6", "g6"}
    assert len(holes) == 37
    full = holes - {"d3"}
    moves = D3_A5.split()
    for move in moves:
        path = move.split("-")
        for x, z in itertools.pairwise(path):
            dx, dy = ord(z[0]) - ord(x[0]), int(z[1]) - int(x[1])
            assert (abs(dx), abs(dy)) in {(2, 0), (0, 2)}, move
            y = f"{chr(ord(x[0]) + dx // 2)}{int(x[1]) + dy // 2}"
            assert x in full and y in full and z in holes - full, move
            full -= {x, y}
            full.add(z)
    assert len(moves) == 21 and full == {"a5"}


@pytest.mark.proof  # about 50 minutes of both cores and 13 GB of disk at its peak: make proofs
def test_french_d3_to_a5_takes_21_moves(tmp_path: Path) -> None:
    """The search with its levels on disk, from limit 20 (any start is a proof), proves as few moves as the
    solution above that the test's own geometry replays (an independent upper bound; that none is shorter is the
    search's own proof: no publication found to cite)."""
    b = board("french")
    spill = DiskSpill(tmp_path / "d3-a5")
    r = fewest_meet(b, b.start("d3"), b.index("a5"), 3_000_000_000, spill=spill, start_limit=20)
    spill.clear()
    assert r.moves == len(D3_A5.split()) and r.proved and replay(b, b.start("d3"), r.solution) == 1 << b.index("a5")


def test_a_full_disk_ends_a_listed_problems_job_clearly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No space left while a level is written: the job ends with a clear limit message (never a traceback) and
    its files are removed."""
    import errno

    from solvers.progress import quiet
    from webapp.results.catalogue import PEGS_REPORT, pegs_problem

    monkeypatch.setenv("COIN_PUZZLES_INSTANCE", str(tmp_path))

    def full(self: DiskSpill, lo: int, hi: int, pos: Ints, info: Ints) -> Part:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(DiskSpill, "keep", full)
    with pytest.raises(LimitError, match="needs more disk"):
        PEGS_REPORT.run(pegs_problem("english", "c3", "c3"), quiet)
    assert not any((tmp_path / "pegs-search").iterdir())


def _c3() -> tuple[int, int]:
    """English c3 to c3: the start and the finish hole."""
    b = board("english")
    return b.start("c3"), b.index("c3")
