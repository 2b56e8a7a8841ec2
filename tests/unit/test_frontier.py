"""make frontier's files (`webapp/commands/frontier.py`): the local checkpoint and the snapshot in git, within its
budget, the record of runs, the heartbeat of a long proof, and where a proof stands."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from solvers.codebreak import build, parse
from solvers.codebreak.optimal import average_search as search_module
from solvers.codebreak.optimal.average_search import AverageSearch
from tests.unit.test_codebreak_checkpoint import GAMES, Kept
from tests.waiting import until
from webapp.commands import frontier


def test_the_snapshot_file_round_trip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """make frontier's files: a run keeps the entries of sets costing at least SNAPSHOT_MIN_COST; its entries
    and the snapshot's are read together; the snapshot keeps one entry per set, merged with the snapshot before; a
    file written before the filter is compacted to one entry per kept set; a proved size removes its local file and
    refreshes its snapshot if it has one."""
    monkeypatch.setattr(frontier, "PROOFS", tmp_path / "proofs")
    live = frontier.FileCheckpoint(tmp_path / "mastermind-9x9.jsonl")
    live.keep([(1, 2, 60, 7), (3, 4, 10, 8)])
    live.keep([(5, 6, 99, 9)])
    with live.path.open("a") as f:
        f.write("[[7, 8, 5")  # a line cut short by a crash
    assert live.known() == [(1, 2, 60, 7), (5, 6, 99, 9)]
    with live.path.open("a") as f:  # as written before the filter: small sets, a set twice
        f.write("\n[[3, 4, 10, 8], [1, 2, 60, 7]]\n")
    live.compact()
    assert live.path.read_text().count("\n") == 1 and sorted(live.known()) == [(1, 2, 60, 7), (5, 6, 99, 9)]
    assert live.save_snapshot() == 2
    live.path.unlink()
    live.keep([(1, 2, 60, 7), (11, 12, 70, 1)])
    assert live.save_snapshot() == 3
    live.path.unlink()
    assert sorted(live.known()) == [(1, 2, 60, 7), (5, 6, 99, 9), (11, 12, 70, 1)]
    live.keep([(13, 14, 80, 2), (15, 16, 90, -2 - 5)])  # a younger brother's answer (`prove.settle`): resumed from
    assert (15, 16, 90, -7) in live.known() and live.save_snapshot() == 4  # the file, never the snapshot's
    live.finish()  # proved after sessions: the snapshot stays, with the last run's entries, for make precompute
    assert not live.path.exists() and len(live.known()) == 4
    quick = frontier.FileCheckpoint(tmp_path / "mastermind-8x8.jsonl")
    quick.keep([(1, 2, 60, 7)])
    quick.finish()  # proved in one run: no snapshot
    assert not quick.path.exists() and not quick.snapshot.exists()


def test_the_snapshot_stays_within_its_budget_and_runs_are_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A snapshot whose entries do not fit its budget keeps the costliest sets (each set once) within the budget;
    one that fits keeps every set; each run of a long proof adds its CPU seconds to the record beside the snapshot,
    which `--status` sums."""
    import gzip
    import random

    monkeypatch.setattr(frontier, "PROOFS", tmp_path / "proofs")
    live = frontier.FileCheckpoint(tmp_path / "mastermind-9x9.jsonl")
    rng = random.Random(3)
    entries = [
        (rng.getrandbits(62), rng.getrandbits(62), 50 + rng.randrange(10_000), rng.randrange(9000))
        for _ in range(20_000)
    ]
    live.keep(entries)
    live.keep(entries[:10])  # sets kept twice count once
    assert live.save_snapshot() == len(entries)  # the default budget: all fit
    kept = live.save_snapshot(budget=100_000)
    assert 0 < kept < len(entries) and live.snapshot.stat().st_size <= 100_000
    in_snapshot = frontier.parse_entries(gzip.decompress(live.snapshot.read_bytes()).decode())
    costs = sorted((e[2] for e in entries), reverse=True)
    assert len(in_snapshot) == kept and min(e[2] for e in in_snapshot) >= costs[kept - 1]  # the costliest
    frontier.note_run("mastermind-9x9", 100.4, "stopped")
    frontier.note_run("mastermind-9x9", 3600, "stopped")
    line = frontier.spent_and_left("mastermind-9x9", 9, 9)
    assert line.startswith("CPU so far: 1.0 h in 2 runs")
    assert frontier.spent_and_left("mastermind-9x9", 9, 9, 1800).startswith("CPU so far: 1.5 h in 2 runs and this one")


def test_a_long_proof_says_that_it_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """make frontier's heartbeat: while a proof runs (hours may pass before a part settles), a line every
    HEARTBEAT_SECONDS says how many sets this run settled into its checkpoint and the CPU spent; none once it
    ends."""
    import time

    monkeypatch.setattr(frontier, "PROOFS", tmp_path / "proofs")
    monkeypatch.setattr(frontier, "CHECKPOINTS", tmp_path)
    monkeypatch.setattr(frontier, "HEARTBEAT_SECONDS", 0.05)
    frontier.FileCheckpoint(tmp_path / "mastermind-9x9.jsonl").keep([(1, 2, 60, 7), (3, 4, 70, 8), (5, 6, 80, 9)])
    beat = frontier.heartbeat("mastermind-9x9", 9, 9, frontier.cpu_seconds())
    said: list[str] = []

    def heard() -> bool:
        said.extend(capsys.readouterr().out.splitlines())
        return len(said) >= 2

    until(heard, 10, "the heartbeat said nothing", every=0.02)
    beat.set()
    assert all("9x9 goes on: 3 sets settled into its checkpoint this run; CPU so far:" in x for x in said)
    time.sleep(0.2)  # four beats' time: a beat that never comes cannot be awaited
    capsys.readouterr()  # a beat under way as the event was set
    time.sleep(0.2)
    assert not capsys.readouterr().out  # stopped


def test_super_mastermind_snapshot_keeps_its_largest_sets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Super Mastermind's proof settles millions of sets: its snapshot in git keeps those costing 1,000 or more
    (its local checkpoint still keeps 50 or more), a Mastermind size's snapshot 50 or more."""
    monkeypatch.setattr(frontier, "PROOFS", tmp_path / "proofs")
    entries = [(1, 2, 60, 7), (3, 4, 999, 8), (5, 6, 1000, 9)]
    large = frontier.FileCheckpoint(tmp_path / "super-mastermind-possible.jsonl")
    small = frontier.FileCheckpoint(tmp_path / "mastermind-9x9.jsonl")
    for c in (large, small):
        c.keep(entries)
    assert large.known() == entries and large.save_snapshot() == 1 and small.save_snapshot() == 3


def test_where_a_proof_stands_from_its_checkpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    """Search.standing: from a finished 4x4 proof's checkpoint, the optimal first guess's parts are all settled and
    total 905 (Goddard 2004); from none, no part is settled. Every first guess's figure is at most its exact total
    (a bound), the exact one when all its parts are settled; the least of them and the settled guess (else a known
    tree's total) bound the optimum, as `make frontier --status` prints them."""
    from webapp.commands.frontier import between

    monkeypatch.setattr(search_module, "KEEP_MIN_COST", 0)  # every set kept
    monkeypatch.setattr(search_module, "KEEP_WORK", 0)  # kept after every part
    g = build(parse((GAMES / "mastermind.game").read_text()), {"length": 4, "colours": 4})
    first = Kept()
    best = AverageSearch(g, checkpoint=first)
    assert best.solve().cost == 905
    s = np.arange(len(g.secrets), dtype=np.int32)
    exact = AverageSearch(g)
    for kept in (Kept(first.batches), None):
        stands = AverageSearch(g, checkpoint=kept).standing()
        assert {e for e, _, _ in stands} == set(np.flatnonzero(exact.root_allowed()).tolist())
        for e, total, parts in stands:
            true = exact.with_first(s, [], e)
            assert total <= true and (total == true or not all(settled for _, _, settled in parts))
            assert kept is not None or not any(settled for _, _, settled in parts)
        total, chosen = next((t, p) for e, t, p in stands if e == best.root_choice)
        assert kept is None or (all(settled for _, _, settled in chosen) and total == 905)
        low, high = between(stands, 950)  # the optimum's bounds, with a tree of 950 known
        assert low <= 905 <= high and high == (905 if kept is not None else 950)


def test_a_seeded_checkpoint_reads_its_seed_first_and_writes_only_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Super Mastermind's second-free proof reads the possible-only proof's entries before its own (the sets below
    the second guesses are the same), and keeps, pauses and snapshots only its own: the seed's files are unchanged."""
    monkeypatch.setattr(frontier, "PROOFS", tmp_path / "proofs")
    seed = frontier.FileCheckpoint(tmp_path / "possible.jsonl")
    seed.keep([(1, 2, 60, 7)])
    own = frontier.FileCheckpoint(tmp_path / "free.jsonl", seed)
    own.keep([(3, 4, 70, 8)])
    own.pause([(1, 5, 3, 4)])
    assert own.known() == [(1, 2, 60, 7), (3, 4, 70, 8)] and seed.known() == [(1, 2, 60, 7)]
    assert own.save_snapshot() == 1 and seed.paused() == [] and own.paused() == [(1, 5, 3, 4)]
    assert frontier.FileCheckpoint(tmp_path / "free.jsonl").known() == [(3, 4, 70, 8), (3, 4, 70, 8)]


def test_a_stopped_second_free_proof_goes_on_in_a_later_clone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stop (`stopped`, as make frontier's and the second-free runner's) writes the proof's snapshot, frames and
    run into git's folder: a later clone, without the local files, resumes from the same sets and frames (before,
    the second-free proof kept them only in `.proofs/`, and a new clone started it again from nothing)."""
    monkeypatch.setattr(frontier, "PROOFS", tmp_path / "proofs")
    monkeypatch.setattr(frontier, "CHECKPOINTS", tmp_path / "local")
    running = frontier.second_free_checkpoint()
    running.keep([(3, 4, 1200, 8), (5, 6, 999, 9)])  # Super Mastermind's snapshot keeps sets of 1,000 or more
    running.pause([(1, 5, 3, 4)])
    frontier.stopped(running, frontier.cpu_seconds() - 600)  # a run of 10 CPU minutes
    (tmp_path / "local").rename(tmp_path / "gone")  # a later clone: git's files alone
    later = frontier.second_free_checkpoint()
    assert later.own() == [(3, 4, 1200, 8)] and later.paused() == [(1, 5, 3, 4)]
    assert frontier.spent_and_left(later.path.stem, 5, 8).startswith("CPU so far: 10 min in 1 run")


STOPPED_TWICE = """
import os, signal, sys
from pathlib import Path
from webapp.commands import frontier
from webapp.jobs.halting import halt_on_signals

halt_on_signals()  # as make frontier: a stop with no proof running raises KeyboardInterrupt
frontier.PROOFS = Path(sys.argv[1])


class Checkpoint:
    path = Path(sys.argv[1]) / "mastermind-9x9.jsonl"

    def save_snapshot(self):
        os.kill(os.getpid(), signal.SIGTERM)  # stopped again as the snapshot is being written
        return 7

    def paused(self):
        return [(1, 2, 3, 4)]


frontier.stopped(Checkpoint(), 0.0)
"""


def test_a_stop_asked_again_while_the_snapshot_is_written_is_ignored(tmp_path: Path) -> None:
    """make frontier stopped (SIGTERM) writes its run's record and snapshot; a second SIGTERM meanwhile (a session's
    end, Ctrl+C pressed twice) no longer interrupts that with a traceback, leaving the record and the snapshot
    apart: the run is recorded, the snapshot written, and the stop said once."""
    import json
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", STOPPED_TWICE, str(tmp_path)], cwd=root, capture_output=True,
                          text=True, timeout=120, check=False, env={**os.environ, "PYTHONPATH": str(root)})  # fmt: skip
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert "stopped: mastermind-9x9's progress kept in its snapshot (7 entries, 1 part(s) kept" in done.stdout
    assert json.loads((tmp_path / "mastermind-9x9.runs.json").read_text())[-1]["how"] == "stopped"
