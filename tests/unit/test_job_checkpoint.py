"""A precompute job of a long proof keeps its settled parts in the result store (a real SQLite store here), so a job
stopped part-way resumes from them: the second run adopts what the first kept, proves the same optimum with a tree
that verifies, and the checkpoint is removed once the result is stored."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from webapp.results import computations
from webapp.results.codebreak_results import CODEBREAK, codebreak_params
from webapp.results.computations import StoreCheckpoint, stored, work
from webapp.store import Store, open_store

ROOT = Path(__file__).resolve().parents[2]


class Stopped(Exception):
    """The job's process stopped (a restart, a crash)."""


def job_of(tmp_path: Path, params: Any) -> tuple[str, list[bytes], Store, str]:
    """A store in tmp_path (its address and keys) and the key of params' job there."""
    address, keys = f"sqlite:{tmp_path / 'store.sqlite'}", [b"k" * 32]
    return address, keys, open_store(address, keys), CODEBREAK.key(params)


@pytest.mark.slow  # a job's process started and stopped, about 10 s: with the whole-system tests
@pytest.mark.parametrize("via", ["job", "precompute"])
def test_a_stopped_job_resumes_from_its_checkpoint(via: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Mastermind 4x4's optimal average (905, Goddard 2004), as a job of the queue and as `coin-puzzles precompute`
    (make precompute) computes it: the first run stops after keeping two parts; the second adopts them and finishes;
    the stored tree verifies at 905; the checkpoint is gone."""
    import argparse

    from solvers.codebreak.optimal import average_search
    from webapp import store as store_module
    from webapp.commands import admin
    from webapp.jobs import precompute

    store = open_store(f"sqlite:{tmp_path / 'store.sqlite'}", [b"k" * 32])
    params = codebreak_params("mastermind", (4, 4, None), "optimal-average")
    key = CODEBREAK.key(params)
    monkeypatch.setattr(precompute, "everything", lambda large=False: iter([(CODEBREAK, params)]))
    monkeypatch.setattr(store_module, "default_store", lambda: store)
    monkeypatch.setattr(average_search, "KEEP_WORK", 0)  # 4x4 is small: kept after every part, as a long proof is

    def run() -> None:
        if via == "job":
            work(store, CODEBREAK, params)
        else:
            assert admin.precompute(argparse.Namespace(only=[])) == 0

    keep, known = StoreCheckpoint.keep, StoreCheckpoint.known
    kept: list[int] = []
    adopted: list[int] = []

    def stop_after_two(self: StoreCheckpoint, entries: list[computations.Entry]) -> None:
        keep(self, entries)
        kept.append(len(entries))
        if len(kept) == 2:
            raise Stopped

    def counted(self: StoreCheckpoint) -> list[computations.Entry]:
        found = known(self)
        adopted.append(len(found))
        return found

    monkeypatch.setattr(StoreCheckpoint, "keep", stop_after_two)
    with pytest.raises(Stopped):
        run()
    assert stored(store, CODEBREAK, params) is None
    assert len(StoreCheckpoint(store, key).known()) == sum(kept) > 0
    monkeypatch.setattr(StoreCheckpoint, "keep", keep)
    monkeypatch.setattr(StoreCheckpoint, "known", counted)
    run()
    assert adopted == [sum(kept)]  # the second run started from the parts the first kept
    found = stored(store, CODEBREAK, params)
    assert found is not None
    _, stats = found
    assert stats.verified and stats.total == 905
    assert store.get(key + ":checkpoint") is None and store.get(key + ":checkpoint:pages") is None
    assert store.get(key + ":checkpoint:0") is None


def test_the_checkpoint_keeps_pages_and_reads_the_former_list(tmp_path: Path) -> None:
    """Each keep is a page of its own (none rewritten); a list kept whole under ':checkpoint', as before pages,
    is read with them; a page whose writer stopped before writing it is skipped; clear removes them all."""
    store = open_store(f"sqlite:{tmp_path / 'store.sqlite'}", [b"k" * 32])
    store.put("job:checkpoint", b"[[1, 2, 60, 3]]")
    c = StoreCheckpoint(store, "job")
    c.keep([(4, 5, 70, 6), (7, 8, 80, 9)])
    first = store.get("job:checkpoint:0")
    c.keep([(10, 11, 90, 12)])
    assert store.get("job:checkpoint:0") == first and store.get("job:checkpoint:pages") == b"2"
    store.put("job:checkpoint:pages", b"3")  # a writer took page 2 and stopped
    assert c.known() == [(1, 2, 60, 3), (4, 5, 70, 6), (7, 8, 80, 9), (10, 11, 90, 12)]
    c.clear()
    assert c.known() == [] and store.get("job:checkpoint") is None and store.get("job:checkpoint:1") is None


def test_the_optima_tables_proofs_have_no_work_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A job proving a cell of the optima table (hours for 4x9) is given a budget of work it cannot reach; a
    visitor's capped or possible-codes-only search, and any other game, keep the default budget; a budget the
    search passes is refused with the search's own message."""
    from solvers.codebreak import Proving, build_tree
    from solvers.codebreak import solve as solve_module
    from solvers.errors import LimitError
    from webapp.results import codebreak_results

    store = open_store(f"sqlite:{tmp_path / 'store.sqlite'}", [b"k" * 32])
    limits: list[int | None] = []
    real = solve_module.build_tree

    def spy(*args: object, proving: Proving, **kw: object) -> object:
        limits.append(proving.node_limit)
        return real(*args, proving=proving, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(solve_module, "build_tree", spy)
    for params in (
        codebreak_params("mastermind", (3, 3, None), "optimal-average"),
        codebreak_params("mastermind", (3, 3, None), "optimal-average", max_guesses=4),
        codebreak_params("mastermind", (3, 3, None), "optimal-worst", possible_only=True),
        codebreak_params("bulls-and-cows", (2, 4, None), "optimal-average"),
    ):
        work(store, CODEBREAK, params)
    assert limits == [codebreak_results.LONG_PROOF_NODES, None, None, None]
    g = codebreak_params("mastermind", (2, 8, None), "optimal-average").load()
    with pytest.raises(LimitError, match="budget"):
        build_tree(g, "optimal-average", proving=Proving(compiled=True, node_limit=50))


def test_a_long_proof_starts_from_its_snapshot_in_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cell of the optima table whose proof has a snapshot in webapp/data/proofs (written by make frontier)
    starts from the snapshot's settled sets, then the job's own; the job proves 4x4's 905 (Goddard 2004) from them
    and keeps what it settles in its own checkpoint, never in the snapshot. A cell without a snapshot, or a
    strategy other than the optimal average, starts from the job's checkpoint alone."""
    import gzip

    from solvers.codebreak import solve as solve_module
    from solvers.codebreak.optimal import average_search as search_module
    from solvers.codebreak.optimal.average_search import AverageSearch
    from solvers.codebreak.optimal.entries import format_entries
    from webapp.results import codebreak_results

    class Kept:
        def __init__(self) -> None:
            self.entries: list[computations.Entry] = []

        def known(self) -> list[computations.Entry]:
            return []

        def keep(self, entries: list[computations.Entry]) -> None:
            self.entries += entries

    monkeypatch.setattr(search_module, "KEEP_MIN_COST", 0)
    monkeypatch.setattr(search_module, "KEEP_WORK", 0)
    params = codebreak_params("mastermind", (4, 4, None), "optimal-average")
    earlier = Kept()
    assert AverageSearch(params.load(), checkpoint=earlier).solve().cost == 905
    proofs = tmp_path / "proofs"
    proofs.mkdir()
    snapshot = proofs / "mastermind-4x4.jsonl.gz"
    snapshot.write_bytes(gzip.compress(format_entries(earlier.entries).encode()))
    shipped = snapshot.read_bytes()
    monkeypatch.setattr(codebreak_results, "PROOFS", proofs)
    started: list[list[computations.Entry]] = []
    real = solve_module.build_tree

    def spy(*args: object, checkpoint: Any = None, **kw: object) -> object:
        started.append(checkpoint.known() if checkpoint else [])
        return real(*args, checkpoint=checkpoint, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(solve_module, "build_tree", spy)
    store = open_store(f"sqlite:{tmp_path / 'store.sqlite'}", [b"k" * 32])
    work(store, CODEBREAK, params)
    found = stored(store, CODEBREAK, params)
    assert found is not None and found[1].verified and found[1].total == 905
    assert sorted(set(started[0])) == sorted(set(earlier.entries)) and len(started[0]) > 0
    assert snapshot.read_bytes() == shipped
    for other in (
        codebreak_params("mastermind", (4, 4, None), "optimal-worst"),
        codebreak_params("mastermind", (3, 4, None), "optimal-average"),
    ):
        work(store, CODEBREAK, other)
    assert started[1:] == [[], []]


@pytest.mark.slow  # a worker process started and stopped, about 10 s: with the whole-system tests
def test_a_job_whose_worker_stops_halts_and_goes_on_later(tmp_path: Path) -> None:
    """A job's process proving Mastermind 4x7 (its own, forked as a consumer's worker forks it) is asked to stop as
    its stopping worker asks (SIGTERM): it ends within the worker's grace, keeping what it proved and where its
    running parts stood in the store; the next run goes on from there to the optimum, and the frames are cleared
    with the rest of the checkpoint."""
    import os

    from tests.unit.test_pause import MASTERMIND_4X7
    from tests.waiting import until
    from webapp.jobs import supervisor

    params = codebreak_params("mastermind", (4, 7, None), "optimal-average")
    address, keys, store, key = job_of(tmp_path, params)
    pid = os.fork()
    if pid == 0:
        supervisor._child(address, keys, CODEBREAK, params)
    checkpoint = StoreCheckpoint(store, key)
    try:
        until(lambda: checkpoint.known() or None, 120, "the proof kept nothing", every=0.05)  # inside its proof
        assert supervisor._halted(pid) == supervisor.PAUSED_CODE
    finally:
        supervisor._kill(pid)  # a test that failed early leaves no proof running
    assert store.get(key + ":checkpoint:frames") is not None  # its workers' parts (none when all were between)
    work(store, CODEBREAK, params)
    found = stored(store, CODEBREAK, params)
    assert found is not None and found[1].verified
    assert found[1].total == MASTERMIND_4X7
    assert store.get(key + ":checkpoint:frames") is None


def test_a_job_that_cannot_resume_halts_quietly(tmp_path: Path) -> None:
    """A job whose search keeps no frames (an average within a cap of guesses), halted by its stopping worker,
    still ends at once with the paused status and writes no traceback (the signal never raises in its process)."""
    import os

    from tests.waiting import until
    from webapp.jobs import supervisor

    params = codebreak_params("mastermind-black", (4, 7, None), "optimal-average", max_guesses=8)
    address, keys, store, key = job_of(tmp_path, params)
    log = tmp_path / "child.log"
    pid = os.fork()
    if pid == 0:
        os.dup2(os.open(log, os.O_WRONLY | os.O_CREAT), 2)
        supervisor._child(address, keys, CODEBREAK, params)
    try:
        until(lambda: store.progress(key), 60, "the job did not start", every=0.05)
        assert supervisor._halted(pid) == supervisor.PAUSED_CODE
    finally:
        supervisor._kill(pid)
    assert "Traceback" not in log.read_text()


def ignores_stops(pid: int) -> bool:
    """Whether process pid ignores SIGTERM now (its signal dispositions, as /proc shows them)."""
    import signal

    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigIgn:"):
            return bool(int(line.split()[1], 16) >> (signal.SIGTERM - 1) & 1)
    return False


@pytest.mark.slow  # a proof of 4x7 started and stopped, about 10 s: with the whole-system tests
def test_a_worker_stopped_twice_lets_its_job_halt_and_keep_its_frames(tmp_path: Path) -> None:
    """A consumer's stop reaches its worker twice: its own SIGTERM, then, once it stopped waiting (a second), its
    exit's (multiprocessing terminates its workers). A worker (forked here, with Huey's own handler for a process
    worker with a task in flight) stopped, then again while it waits, still waits for its job's process to halt,
    which keeps its frames in the store and gives the job up; the second stop used to raise in that wait, and the
    job's process died with its worker before it kept them."""
    import os
    import signal
    from types import SimpleNamespace

    from huey.consumer import ProcessEnvironment

    from solvers.halt import own
    from tests.waiting import until
    from webapp.jobs import supervisor

    params = codebreak_params("mastermind", (4, 7, None), "optimal-average")
    address, keys, store, key = job_of(tmp_path, params)
    worker = os.fork()
    if worker == 0:
        code = 1
        try:  # as a consumer's worker: no halting of its own (this test process's may be installed), Huey's handler
            signal.set_wakeup_fd(-1)  # its signals would wake this test process's halting thread, which halts here
            own()
            ProcessEnvironment().init_child(SimpleNamespace(huey=SimpleNamespace(_tasks_in_flight={"job"})))
            supervisor.supervise(address, keys, CODEBREAK, params, 600)
        except KeyboardInterrupt:  # Huey's handler: the task was interrupted
            code = 0
        finally:
            os._exit(code)
    try:
        until(lambda: StoreCheckpoint(store, key).known() or None, 120, "the proof kept nothing", every=0.05)
        os.kill(worker, signal.SIGTERM)
        until(lambda: ignores_stops(worker), 30, "a second stop is not held back", every=0.002)  # the job halts
        os.kill(worker, signal.SIGTERM)
        _, status = os.waitpid(worker, 0)
    finally:
        supervisor._kill(worker)
    assert os.waitstatus_to_exitcode(status) == 0
    assert store.get(key + ":checkpoint:frames") is not None
    assert store.progress(key) is None  # given up: the next request runs it again at once


PRECOMPUTE = """
import argparse, sys
from webapp import store as store_module
from webapp.commands import admin
from webapp.jobs import precompute
from webapp.results.codebreak_results import CODEBREAK, codebreak_params

params = codebreak_params("mastermind-black", (4, 7, None), "optimal-average")
precompute.everything = lambda large=False: iter([(CODEBREAK, params)])
store_module.default_store = lambda: store_module.open_store(sys.argv[1], [b"k" * 32])
sys.exit(admin.precompute(argparse.Namespace(only=[])))
"""


@pytest.mark.slow  # a proof started and stopped, about 15 s: with the whole-system tests
def test_precompute_stopped_keeps_where_its_proof_stood(tmp_path: Path) -> None:
    """`coin-puzzles precompute` (make precompute) proving black-peg Mastermind 4x7 (minutes; not shipped) is stopped
    by SIGTERM once its proof kept a part: one line that says so, exit status 130, no traceback, and the proof's
    frames in the store beside what it settled (it used to die at once, keeping no frames)."""
    import os
    import signal
    import subprocess
    import sys

    from tests.waiting import until

    address, keys = f"sqlite:{tmp_path / 'store.sqlite'}", [b"k" * 32]
    key = CODEBREAK.key(codebreak_params("mastermind-black", (4, 7, None), "optimal-average"))
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root), "COIN_PUZZLES_INSTANCE": str(tmp_path / "instance")}
    child = subprocess.Popen([sys.executable, "-c", PRECOMPUTE, address], cwd=root, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        store = open_store(address, keys)
        until(lambda: StoreCheckpoint(store, key).known() or None, 120, "the proof kept nothing", every=0.05)
        child.send_signal(signal.SIGTERM)
        out, err = child.communicate(timeout=60)
    finally:
        child.kill()
    assert child.returncode == 130, err
    assert "Traceback" not in err and err.strip().endswith("precompute: stopped (0 computed); the next run goes on "
                                                           "where it stood"), err  # fmt: skip
    assert store.get(key + ":checkpoint:frames") is not None
