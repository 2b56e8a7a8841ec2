"""A proof halted at any point (`solvers.halt`) keeps where its running parts stood (`rules.Frames`) and goes on
from there: the same optimum, the same work, the same certificate byte for byte; a split proof's workers hand their
parts back; SIGTERM and Ctrl+C to a proving process halt it instead of killing it (`webapp.jobs.halting`)."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from solvers.checkpoint import Entry, Frame
from solvers.codebreak import Game, build, build_tree, parse, verify
from solvers.codebreak.optimal import prove
from solvers.codebreak.optimal.average import alone
from solvers.codebreak.optimal.average_search import SPLIT_MARK, AverageSearch
from solvers.codebreak.optimal.certificate import certificate_of, certify, logging
from solvers.codebreak.optimal.rules import BIG, UNCAPPED, below, saved
from solvers.codebreak.optimal.table import Tuning, split_size
from solvers.errors import LimitError, Paused
from solvers.halt import clear, halt
from solvers.parallel import Execution

ROOT = Path(__file__).resolve().parents[2]
MASTERMIND_4X6 = 5625  # Koyama and Lai (1993): 4.3403 guesses on average over 1,296 secrets
MASTERMIND_4X7 = 11228  # Ville (2013), "An optimal Mastermind (4,7) strategy": over 2,401 secrets


class Kept:
    """A checkpoint in memory that keeps frames too (`solvers.checkpoint.FrameCheckpoint`)."""

    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self.frames: list[Frame] = []

    def known(self) -> list[Entry]:
        return list(self.entries)

    def keep(self, entries: list[Entry]) -> None:
        self.entries += entries

    def paused(self) -> list[Frame]:
        return list(self.frames)

    def pause(self, frames: list[Frame]) -> None:
        self.frames = list(frames)


def game(pegs: int, colours: int) -> Game:
    return build(parse((ROOT / "games" / "mastermind.game").read_text()), {"length": pegs, "colours": colours})


def halted_at(
    search: AverageSearch,
    work: int = 0,
    when: Callable[[], bool] | None = None,
    run: Callable[[], object] | None = None,
) -> Paused:
    """Run search's proof (or run()), halted by another thread once its work passes `work` (or once when() holds:
    the work of a split proof is its workers'); the Paused it raised."""
    over = threading.Event()
    ready = when or (lambda: search.work >= work)

    def watch() -> None:
        while not over.is_set() and not ready():
            time.sleep(0.01 if when else 0.0002)  # a condition of its own may be costly to test
        halt()

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        with pytest.raises(Paused) as stop:
            (run or search.solve)()
    finally:
        over.set()
        watcher.join()
        clear()
    return stop.value


def test_a_proof_halted_anywhere_goes_on_with_no_work_lost() -> None:
    """Mastermind 4x6 halted at random points: each stop keeps its running part's frames, and a new search from the
    checkpoint proves 5,625 with a tree that verifies, the two runs' work together within 1% of the work of one run
    that was never stopped (what a new process searches again: the small sets a checkpoint does not keep, and the
    lower bounds of the sets refuted, which it keeps none of)."""
    g = game(4, 6).tabled()
    whole = AverageSearch(g).solve()
    assert whole.cost == MASTERMIND_4X6
    rng = random.Random(75)
    inside = 0
    for _ in range(3):
        kept = Kept()
        first = AverageSearch(g, checkpoint=kept)
        stop = halted_at(first, rng.randrange(whole.work // 10, whole.work * 9 // 10))
        assert kept.frames == stop.frames and kept.entries
        inside += bool(stop.frames)  # none: halted between two parts (the schedule's loop saw it first)
        again = AverageSearch(g, checkpoint=kept)
        assert len(again.paused) == len(kept.frames)
        found = again.solve()
        assert found.cost == MASTERMIND_4X6 and not again.paused  # its frames were taken up
        assert abs(first.work + found.work - whole.work) <= whole.work / 100
    assert inside  # a stop lands inside a part far more often than between two (a fresh clone's suite saw one)
    tree = build_tree(game(4, 6), "optimal-average", checkpoint=kept)
    assert verify(game(4, 6), tree).total == MASTERMIND_4X6


def test_a_younger_brother_halted_goes_on_from_its_frames() -> None:
    """A younger brother (a set under one experiment alone, as a worker searches it: `average.brother`) halted
    part-way hands back its frames, keyed apart from the set's own (`average.alone`); searched again, it goes on from
    them: the same cost, and with the halted search's work the work of one search never halted. Its exact answer
    carries its experiment (as -2 less it, apart from a set's), so that the parent's checkpoint keeps it
    (`keep_new`) and a snapshot, which keeps sets, does not."""
    g = game(4, 6).tabled()
    never = AverageSearch(g)
    part, younger = never.everyone(), g.experiments.index("AAAA")  # the start under AAAA alone: 8,051 work, to
    sym, depth = never.start_symmetries(), UNCAPPED  # halt half-way whatever the load (a part of AABB's, 662, was not)
    cost = never.settle_part(part, int(BIG), sym, depth, younger)
    halted = AverageSearch(g)
    stop = halted_at(halted, never.work // 2, run=lambda: halted.settle_part(part, int(BIG), sym, depth, younger))
    key = tuple(int(k) for k in alone(*halted.key(part, depth), younger))
    assert [(f[2], f[3]) for f in stop.frames] == [key] and key != tuple(int(k) for k in halted.key(part, depth))
    halted.paused, halted.memo.counters["stopped"][0] = {key: stop.frames[0]}, False  # as the next run starts
    assert halted.settle_part(part, int(BIG), sym, depth, younger) == cost and not halted.paused
    assert abs(halted.work - never.work) <= never.work / 100, (halted.work, never.work)
    found = prove.settle(halted, False, part, int(BIG), (), depth, younger)  # as a worker answers it
    assert (found.value, found.exact, found.choice) == (cost, True, -2 - younger)  # a checkpoint keeps it (not -1)


def test_a_search_under_one_first_guess_halted_goes_on_from_its_frames() -> None:
    """`with_first` (the start under one first guess alone, as a resumed proof completes a nearly settled one)
    halted part-way hands back its frames and its part's, keyed by the start under that guess; searched again, it
    takes them all up: the same total, and with the halted search's work the work of one search never halted."""
    g = game(4, 6).tabled()
    never = AverageSearch(g)
    s, first = never.everyone(), g.experiments.index("AAAA")  # its largest search under one guess (8,051 work)
    total = never.with_first(s, (), first)
    halted = AverageSearch(g)
    stop = halted_at(halted, never.work // 2, run=lambda: halted.with_first(s, (), first))
    assert len(stop.frames) == 2  # the part it was searching, and the search from the start
    halted.paused, halted.memo.counters["stopped"][0] = {(f[2], f[3]): f for f in stop.frames}, False
    assert halted.with_first(s, (), first) == total and not halted.paused
    assert abs(halted.work - never.work) <= never.work / 100, (halted.work, never.work)


def test_a_certificate_made_again_after_a_halt_is_the_same_byte_for_byte() -> None:
    """The certifying search halted part-way and then run on gives the certificate of a run never stopped, array
    by array, with the same work."""
    g = game(4, 6)
    never = logging(g)
    whole = certificate_of(g, never)
    assert np.array_equal(whole.values, certify(g).values)
    rng = random.Random(7575)
    for _ in range(2):
        search = logging(g)
        halted_at(search, rng.randrange(never.work // 10, never.work * 9 // 10))
        again = certificate_of(g, search)
        assert search.work == never.work
        for field, a, b in zip(whole._fields, whole, again, strict=True):
            assert np.array_equal(np.asarray(a), np.asarray(b)), field
            assert np.asarray(a).tobytes() == np.asarray(b).tobytes(), field


@pytest.mark.parametrize("jobs", [2])
def test_a_split_proof_halted_hands_back_its_workers_parts(jobs: int) -> None:
    """On forked workers the halt reaches every worker (shared memory): each hands back where its part stood, the
    proof raises Paused with them and with where the parent's search from the start stood, and a run from the
    checkpoint goes on from all of them and proves Mastermind 4x7's published optimum."""
    g = game(4, 7).tabled()
    for proved in (300, 600, 1200, 2400, 4800):  # halted once the workers proved that many sets (a worker halted
        # in the bounds of an experiment's parts, not in a part yet, has no frames to hand back, so try again)
        kept = Kept()
        first = AverageSearch(g, run=Execution(jobs), checkpoint=kept)
        assert first.split
        table = first.memo.exact  # shared with the workers
        stop = halted_at(first, when=lambda: int(np.count_nonzero(table)) >= proved)  # noqa: B023 - this run's
        assert kept.frames == [(SPLIT_MARK, first.split_from), *first.paused.values()]  # the split first
        assert set(first.paused) == {(f[2], f[3]) for f in stop.frames}  # one frame a set (two tasks may share one)
        if stop.frames:
            break
    assert stop.frames
    k1, k2 = first.key(first.everyone(), first.cap)
    assert (int(k1), int(k2)) in first.paused  # the parent's own frames, from the start down
    alone = AverageSearch(g, checkpoint=kept)  # on one process, halted at once: the split said again
    halt()
    try:
        with pytest.raises(Paused):
            alone.solve()
    finally:
        clear()
    assert kept.frames[0] == (SPLIT_MARK, first.split_from) and len(kept.frames) > 1
    again = AverageSearch(g, run=Execution(jobs + 1), checkpoint=kept)  # on one more process, whose split by
    assert again.split_from == first.split_from != split_size(len(g.secrets), jobs + 1)  # default would miss them
    assert again.solve().cost == MASTERMIND_4X7
    assert (int(k1), int(k2)) not in again.paused  # the search from the start went on from them


def test_a_split_proof_halted_with_younger_brothers_out_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """Halted as soon as a younger brother (`average.brother`: a set under one experiment alone) goes out to a
    worker: the proof raises Paused with what its workers and the parent's search from the start handed back, and the
    run from its checkpoint proves what one process proves, Mastermind 4x5's optimum and first guess."""
    from solvers.codebreak.optimal import average_search

    monkeypatch.setattr(average_search, "PARALLEL_FROM", 1)
    submit = prove.Forked.submit
    brothers: list[int] = []

    def submit_then_halt(self: prove.Forked, *args: object) -> object:
        future = submit(self, *args)  # type: ignore[arg-type]
        if int(args[4]) >= 0:  # the experiment a younger brother is searched under alone
            brothers.append(int(args[4]))
            halt()
        return future

    g = game(4, 5).tabled()
    serial = AverageSearch(g)
    expected = serial.solve().cost
    monkeypatch.setattr(prove.Forked, "submit", submit_then_halt)
    kept = Kept()
    try:
        with pytest.raises(Paused):
            AverageSearch(g, Tuning(split_from=60), run=Execution(2), checkpoint=kept).solve()
    finally:
        clear()
    assert brothers and kept.frames  # the parent's search from the start stood somewhere, and kept it
    monkeypatch.setattr(prove.Forked, "submit", submit)
    again = AverageSearch(g, Tuning(split_from=60), run=Execution(2), checkpoint=kept)
    assert again.solve().cost == expected and again.root_choice == serial.root_choice


PROVE = """
import json, sys, threading, time
import numpy as np
from pathlib import Path
from solvers.codebreak import build, parse
from solvers.codebreak.optimal.average_search import AverageSearch
from solvers.errors import LimitError, Paused
from solvers.parallel import Execution
from webapp.jobs.halting import halt_on_signals

class Kept:
    def __init__(self, path):
        self.path = path
        saved = json.loads(path.read_text()) if path.exists() else {"entries": [], "frames": []}
        self.entries, self.frames = [tuple(e) for e in saved["entries"]], [tuple(f) for f in saved["frames"]]
    def known(self): return list(self.entries)
    def keep(self, entries): self.entries += entries
    def paused(self): return list(self.frames)
    def pause(self, frames): self.frames = frames
    def save(self): self.path.write_text(json.dumps({"entries": self.entries, "frames": self.frames}))

halt_on_signals()
g = build(parse(Path("games/mastermind.game").read_text()), {"length": 4, "colours": 7}).tabled()
kept = Kept(Path(sys.argv[2]))
search = AverageSearch(g, run=Execution(int(sys.argv[1])), checkpoint=kept)
search.load_kernels()
print("proving", flush=True)


def settling():  # a line once the proof has settled sets of its own: a stop now has something to keep
    while np.count_nonzero(search.memo.exact) < 100:
        time.sleep(0.02)
    print("settled", flush=True)


if sys.argv[3:] == ["watched"]:
    threading.Thread(target=settling, daemon=True).start()
try:
    print(f"proved {search.solve().cost} after {sum(len(f) > 3 for f in kept.paused())} part(s) resumed", flush=True)
except Paused:
    print(f"paused with {sum(len(f) > 3 for f in kept.frames)} part(s) kept", flush=True)
kept.save()
"""


@pytest.mark.slow  # two proving processes of about 10 s each: with the whole-system tests, which mostly wait
@pytest.mark.parametrize(("jobs", "how"), [(1, signal.SIGTERM), (2, signal.SIGINT)])
def test_a_signal_halts_a_proving_process_which_goes_on_later(jobs: int, how: signal.Signals, tmp_path: Path) -> None:
    """SIGTERM (or Ctrl+C's SIGINT) to a process proving Mastermind 4x7 (2,401 secrets: about 12 CPU-s), in its
    compiled kernels or its scheduling loop: it stops, keeping what it proved and where its running parts stood
    (not killed, not run to the end), and the next run goes on from there to the published optimum."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    kept = tmp_path / "kept.json"
    command = [sys.executable, "-c", PROVE, str(jobs), str(kept)]
    child = subprocess.Popen([*command, "watched"], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "proving"
    assert child.stdout.readline().strip() == "settled"  # inside the proof, whatever the machine's load
    child.send_signal(how)
    out, _ = child.communicate(timeout=60)
    assert child.returncode == 0 and out.startswith("paused with "), out
    assert json.loads(kept.read_text())["entries"]
    again = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=True)
    proved = again.stdout.splitlines()[1]
    assert proved.startswith(f"proved {MASTERMIND_4X7} after ")


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_stops_a_proof_of_the_command_line(how: signal.Signals) -> None:
    """`coin-puzzles codebreak` proving black-peg Mastermind 4x7's optimal average (minutes here) is stopped by
    Ctrl+C (or SIGTERM) in its compiled kernels: one line that says so, exit status 130, no traceback."""
    child = subprocess.Popen(
        [sys.executable, "-m", "webapp.commands.cli", "codebreak", "mastermind-black", "--pegs", "4", "--colours", "7"]
        + ["--strategy", "optimal-average"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(3.0)  # inside the proof
    child.send_signal(how)
    out, err = child.communicate(timeout=60)  # the proof itself takes minutes
    assert child.returncode == 130 and out == ""
    assert err.strip() == "coin-puzzles: stopped (a proof run here keeps nothing: it starts over next time)"


OTHER_SIGNALS = """
import os, signal, subprocess, time
from solvers.halt import halted
from webapp.jobs.halting import halt_on_signals

halt_on_signals(interrupt=False)  # as a job's process: a stop halts, never raises
signal.signal(signal.SIGCHLD, lambda *_: None)  # a library's handler (an event loop's child watcher, a server's)
signal.signal(signal.SIGHUP, lambda *_: None)
subprocess.run(["true"], check=True)
os.kill(os.getpid(), signal.SIGHUP)
time.sleep(0.5)
print(halted(), end=" ")
os.kill(os.getpid(), signal.SIGTERM)
time.sleep(0.5)
print(halted())
"""


def test_only_a_stop_halts_the_proofs_of_a_process_that_handles_other_signals() -> None:
    """Each signal that has a handler in a process writes its number to the wake-up socket, so a child's end
    (SIGCHLD) or a SIGHUP to a process that handles them must not halt its proofs; SIGTERM still does. (Any byte
    halted them once, and every later proof of that process stopped part-way at once.)"""
    done = subprocess.run([sys.executable, "-c", OTHER_SIGNALS], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=60, check=True)  # fmt: skip
    assert done.stdout.split() == ["False", "True"], done.stdout + done.stderr


CALLED_BACK = """
import ctypes, importlib.util, os, signal, sys, threading, time
from webapp.jobs.halting import halt_on_signals

spec = importlib.util.spec_from_file_location("binding", sys.argv[1])
binding = importlib.util.module_from_spec(spec)
spec.loader.exec_module(binding)
halt_on_signals()
threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT)).start()
try:
    ctypes.CFUNCTYPE(None)(binding.notify)()  # called back from C, as LLVM calls llvmlite as a kernel loads
    time.sleep(3)
    print("not stopped")
except KeyboardInterrupt:
    print("stopped")
"""


def test_ctrl_c_while_a_kernel_loads_stops_the_command_quietly(tmp_path: Path) -> None:
    """Ctrl+C that comes while Numba loads a kernel lands in a callback from C (llvmlite's), where a
    KeyboardInterrupt would be printed as 'Exception ignored' with a traceback and dropped (a busy make test
    showed it): it is sent again once out of the callback, and stops the command then, with nothing on stderr."""
    fake = tmp_path / "llvmlite" / "binding.py"
    fake.parent.mkdir()
    fake.write_text("import time\n\n\ndef notify():\n    time.sleep(0.6)\n")
    done = subprocess.run([sys.executable, "-c", CALLED_BACK, str(fake)], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60, check=True)  # fmt: skip
    assert (done.stdout.strip(), done.stderr) == ("stopped", "")


def test_a_frame_is_not_restored_where_other_candidates_are_tried() -> None:
    """A set's frame says which of its candidates were tried; the same set searched under other symmetries (so
    with other candidates, as another first guess leaves it) must not go on from it. Mastermind 4x7's part with
    neither A nor B (Mastermind 4x5: 2,463, Goddard 2004) stopped under AABB's symmetries and searched again under
    AAAB's with the frame loaded proves 2,463 (a review found 2,338, recorded as exact, before frames carried the
    candidates tried), and so does the same search going on under AABB's."""
    g = game(4, 7).tabled()
    base = AverageSearch(g)
    part = np.array([x for x, code in enumerate(g.secrets) if "A" not in code and "B" not in code], dtype=np.int32)
    aabb, aaab = (base.sym_of((g.experiments.index(e),)) for e in ("AABB", "AAAB"))
    depth = below(UNCAPPED)
    for limit in (1500, 3000, 4754):
        first = AverageSearch(g)
        first.memo.counters["limit"][0] = limit
        with pytest.raises(LimitError):
            first.kernel(part, int(BIG), aabb, depth)
        frame = saved(first.frames)
        assert frame[0] >= 1
        for sym in (aaab, aabb):
            again = AverageSearch(g, checkpoint=Kept())
            again.paused = {(frame[2], frame[3]): frame}
            assert again.settle_part(part, int(BIG), sym, depth) == 2463
            assert not again.paused


SECOND_STOP = """
import os, signal, threading, time
from solvers.errors import Paused
from tests.unit.test_pause import Kept, game
from solvers.codebreak.optimal.average_search import AverageSearch
from webapp.jobs.halting import halt_on_signals

halt_on_signals()  # as make frontier and the command line: a stop with no proof running raises KeyboardInterrupt


class Stopped(Kept):
    def pause(self, frames):
        os.kill(os.getpid(), signal.SIGTERM)  # stopped again as the frames are being kept
        super().pause(frames)


search = AverageSearch(game(4, 6).tabled(), checkpoint=(kept := Stopped()))


def first_stop():
    while search.work < 2000:
        time.sleep(0.001)
    os.kill(os.getpid(), signal.SIGTERM)


threading.Thread(target=first_stop, daemon=True).start()
try:
    search.solve()
except Paused:
    print(f"paused with {len(kept.frames)} part(s) kept and {len(kept.entries)} entries")
"""


def test_a_second_stop_while_a_halted_proof_keeps_its_frames_does_not_lose_them() -> None:
    """SIGTERM to a process proving Mastermind 4x6, then again while the halted proof keeps where it stood (a
    session's end, Ctrl+C pressed twice): the second only halts again, the frames are kept and Paused ends the
    proof as after one stop (it raised KeyboardInterrupt there, the frames unwritten)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", SECOND_STOP], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0 and done.stdout.startswith("paused with "), done.stderr[-2000:]
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
