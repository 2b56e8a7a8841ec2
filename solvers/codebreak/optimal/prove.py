"""The one schedule of an average-case search, whatever runs its subproblems (`Schedule.least`).

The compiled kernel (`average.average`) is the only branch and bound. Searched from the start with a split size, it
searches the sets at least that large itself and hands back as open subproblems every smaller set it needs, and
(where the workers share its table) each younger brother of a set it searches once an experiment of that set is
settled, as the set under that experiment alone (`average.hand_back`, `average.brother`): secrets, budget, the
experiments that led there, the place in the serial order. Their costs wait; the kernel stops with its frames at the
first that waits. The schedule hands them out, earliest in the serial order first, to workers that search each
(`settle`), and pins each cost (or a bound at least its budget `now`) where the next search from the start reads it
(`pin`; and into the table); that search, resumed from the frames, runs once the one it stopped at is answered (or
a process would idle), until the kernel returns a total. A subproblem's budget is never tighter than the serial
search's, so what it proves holds there; where the workers share the table, each one out has a slot of
`Memo.ceilings`, lowered when a search from the start needs its set below less (`sets.lowered`). On one process
(`Here`) every part of the start is a subproblem, in the serial order with the serial search's budget. Forked
processes (`Forked`) share the parent's table (`rules.new_memo(shared=True)`); a cluster's workers (`Cluster`) have
tables of their own and hand back the optimal tree of what they settle; their differences are in these adapters.
A halt keeps the running subproblems' frames and the last search from the start's. `Task` logs each subproblem."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

import numpy as np
from numpy.typing import NDArray

from solvers.checkpoint import Entry, Frame
from solvers.errors import LimitError, Paused
from solvers.halt import halted
from solvers.parallel import Engine, Inline, forked_executor, kill

from .average import alone, average
from .rules import EXPERIMENT, FRAME_LEVELS, PENDING, SLOTS, restore, saved
from .sets import pin, record

if TYPE_CHECKING:
    from .rules import Memo, Rules, Symmetry

POLL_SECONDS = 0.005  # how long the schedule waits for a result before it looks at the halt flag again
AHEAD = 2  # subproblems handed to each process at once (one running, the next waiting: no process idles)
DRAIN_SECONDS = 2.0  # a halted proof waits this long for its subproblems' frames (a job: 3 s, `HALT_SECONDS`)
RESTARTS = 3  # workers lost (killed, out of memory) that a proof survives: their subproblems are handed out again


class Search(Protocol):
    """What the schedule needs of its search (`average_search.AverageSearch`, which imports this module)."""

    memo: Memo
    rules: Rules
    keep: Callable[[list[Entry]], None] | None  # where proved sets' entries go (a checkpoint), if anywhere
    split_from: int
    game: Any
    paused: dict[tuple[int, int], Frame]  # a stopped run's frames, by the key of the set each stood in

    @property
    def work(self) -> int: ...
    def sym_of(self, path: tuple[int, ...]) -> Symmetry: ...
    def key(self, s: NDArray[np.int32], depth: int) -> tuple[np.uint64, np.uint64]: ...
    def depth_at(self, made: int) -> int: ...
    def check(self) -> None: ...
    def held(self, s: NDArray[np.int32], depth: int) -> tuple[bool, int, bool, int]: ...
    def settle_part(self, part: NDArray[np.int32], left: int, sym: Symmetry, depth: int, experiment: int) -> int: ...
    def best_of(self, s: NDArray[np.int32], budget: int, depth: int) -> tuple[int, int]: ...
    def part_proof(self, part: NDArray[np.int32], cost: int, depth: int) -> list[Entry]: ...
    def adopt(self, entries: list[Entry]) -> None: ...
    def keep_new(self, every: bool = False) -> int: ...
    def recipe(self, game: Any) -> Any: ...
    def load_kernels(self) -> None: ...


class WorkersLost(LimitError):
    """The proof's workers died more often than it restarts them (RESTARTS), or than a cluster retries a task."""


class Found(NamedTuple):
    """A subproblem's result: its cost (exact, its experiment) or a bound at least its (lowered) budget; the worker's
    work and CPU seconds; a cluster's worker: the entries of its optimal tree if exact; halted: where it stood."""

    value: int
    exact: bool
    choice: int
    work: int
    seconds: float
    entries: tuple[Entry, ...] = ()
    paused: tuple[Frame, ...] | None = None


class Task(NamedTuple):
    """A subproblem as it ran (for scaling.py): number, level below the start, secrets, budget, whether exact, work,
    CPU seconds, when handed out and answered, the results read before, whether a younger brother (`brother`)."""

    number: int
    level: int
    size: int
    budget: int
    exact: bool
    work: int
    seconds: float
    sent: float
    done: float
    after: tuple[int, ...]
    brother: bool = False


class Open(NamedTuple):
    """A set handed back: its place in the serial order, table key, secrets, budget, depth, the path to it, and the
    experiment it is to be searched under alone (a younger brother, `average.brother`; -1: every one)."""

    place: tuple[int, ...]
    key: tuple[int, int]
    s: NDArray[np.int32]
    budget: int
    depth: int
    path: tuple[int, ...]
    experiment: int


def settle(search: Search, entries: bool, part: NDArray[np.int32], budget: int, path: tuple[int, ...],
           depth: int, experiment: int = -1, slot: int = -1) -> Found:  # fmt: skip
    """A subproblem: the kernel's search of a set below the experiments of path (`AverageSearch.settle_part`), its
    budget lowered as it runs to what its slot's ceiling says, if it has one (`sets.lowered`)."""
    before, clock, counters = search.work, time.process_time(), search.memo.counters
    counters["slot"][0] = slot
    try:
        v = search.settle_part(part, budget, search.sym_of(path), depth, experiment)
    except Paused as stop:
        return Found(budget, False, -1, search.work - before, time.process_time() - clock, paused=tuple(stop.frames))
    finally:
        counters["slot"][0] = -1
    budget = now(search.memo, budget, slot)  # (it only falls)
    exact, brother = v < budget, experiment >= 0
    choice = (-2 - experiment if brother else search.best_of(part, v, depth)[1]) if exact else -1  # a brother's < -1
    tree = tuple(search.part_proof(part, v, depth)) if entries and exact and not brother else ()
    return Found(v, exact, choice, search.work - before, time.process_time() - clock, tree)


def now(memo: Memo, budget: int, slot: int) -> int:
    """A subproblem's budget now: the one it went out with, or less if its slot's ceiling fell (`sets.lowered`)."""
    return min(budget, int(memo.ceilings[slot])) if slot >= 0 else budget


_worker: tuple[Search, bool] | None = None  # in a worker: its search and whether it hands back entries


def share(search: Search | None, entries: bool = False) -> None:
    """The search workers forked after this (or a cluster's, each task) settle with; entries: hand back trees."""
    global _worker
    _worker = None if search is None else (search, entries)


def in_worker(*args: Any) -> Found:
    """A subproblem in a worker (`settle`): proved into its table (the parent's, or entries), no checkpoint."""
    assert _worker is not None
    search, entries = _worker
    search.keep = None
    return settle(search, entries, *args)


class Here:
    """This process runs each subproblem as it is handed out."""

    jobs, lost = 1, ()

    def __init__(self, search: Search) -> None:
        self.search = search

    def submit(self, *args: Any) -> Future[Found]:
        return Inline().submit(settle, self.search, False, *args)

    def restart(self) -> None:
        raise AssertionError("a proof in its own process has no worker to lose")

    def close(self) -> None: ...


class Forked:
    """Processes forked from this one, which share its table; one that dies breaks the pool, which starts again."""

    lost = ()

    def __init__(self, search: Search, jobs: int) -> None:
        search.load_kernels()
        share(search)
        self.jobs, self.pool = jobs, forked_executor(jobs)

    def submit(self, *args: Any) -> Future[Found]:
        return self.pool.submit(in_worker, *args)

    def restart(self) -> None:
        kill(self.pool)
        self.pool = forked_executor(self.jobs)

    def close(self) -> None:
        kill(self.pool)


class Cluster:
    """A cluster's workers (`webapp.results.cluster`), tables their own; the engine retries a lost worker's task."""

    def __init__(self, search: Search, engine: Engine) -> None:
        self.engine, self.jobs, self.lost = engine, engine.jobs, engine.lost
        self.pool = engine.start(search.game, search.recipe)

    def submit(self, *args: Any) -> Future[Found]:
        return self.pool.submit(in_worker, *args)

    def restart(self) -> None:
        raise AssertionError("a cluster retries its own tasks")

    def close(self) -> None:
        self.engine.stop()


Executor = Here | Forked | Cluster


class Schedule:
    """One search's subproblems: handed out, waiting and answered, their log, and the executor that runs them."""

    def __init__(self, search: Search, jobs: int, keep_every: int, engine: Engine | None = None) -> None:
        self.search, self.keep_every, self.kept_at = search, keep_every, 0
        self.inline = engine is None and jobs == 1
        self.executor: Executor = (
            Here(search) if self.inline else Forked(search, jobs) if engine is None else Cluster(search, engine)
        )
        self.room = self.executor.jobs * (1 if self.inline else AHEAD)
        # workers that write this table: younger brothers and the parts ahead of a waiting one out (`average.ahead`)
        self.shared = not self.inline and (engine is None or getattr(engine, "shared", False))
        self.results: queue.SimpleQueue[tuple[int, int, Future[Found]]] = queue.SimpleQueue()
        self.waiting: dict[tuple[int, int], Open] = {}
        self.running: dict[int, tuple[Open, float, tuple[int, ...], int]] = {}  # ..., its slot (`settle`)
        self.free = list(range(SLOTS)) if self.shared else []  # slots, where a running subproblem's budget falls
        self.answers: dict[tuple[int, int], tuple[int, bool, int]] = {}  # key: value, exact, experiment
        self.log: list[Task] = []
        self.read: list[int] = []  # the results read since the last search from the start
        self.after: tuple[int, ...] = ()  # ... and those read before it
        self.line: tuple[int, ...] = ()  # the frames of the last search from the start
        self.paused: list[Frame] = []
        self.entered: set[tuple[int, int]] = set()
        self.blocker: tuple[int, int] | None = None  # the set the last search from the start stopped at
        self.arrived: set[tuple[int, int]] = set()  # the sets answered since
        self.generation = self.restarts = self.numbers = self.work = 0
        self.start = time.perf_counter()

    def close(self) -> None:
        """Stop every worker (one still searching what is no longer needed included)."""
        self.executor.close()

    def least(
        self,
        s: NDArray[np.int32],
        path: tuple[int, ...],
        cands: NDArray[np.int64],
        under: int,
        told: Callable[[int, int], None] = lambda i, done: None,
        entry: bool = True,
    ) -> tuple[int, int]:
        """(the least total of s (the set the experiments of path left) below under, the experiment achieving it
        first in the order of cands (the experiments to try, each with its bound, best first); or a bound at least
        under and -1), told(i, secrets settled) as the parts of the i-th experiment are. entry False: s's own entry
        in the table is neither read nor written (cands are not the experiments it was proved over: `with_first`)."""
        search, memo = self.search, self.search.memo
        counters, frames = memo.counters, memo.frames
        sym, depth = search.sym_of(path), search.depth_at(len(path))
        split = len(s) + 1 if self.inline else max(search.split_from, 1)  # on one process, every part is one
        done: dict[int, int] = {}
        memo.handed.answer_keys[:] = 0  # the answers of this search alone
        k1, k2 = search.key(s, depth) if entry else alone(*search.key(s, depth), int(cands[0, 1]))  # (`settled`)
        line = search.paused.pop((int(k1), int(k2)), ())  # a stopped run's search from the start
        while True:
            if line:
                restore(frames, line)
                frames.head[1] = frames.head[0]
            else:
                frames.head[:] = 0
            memo.handed.head[:] = 0
            counters["split"][0], counters["guarded"][0], counters["choice"][0] = split, not entry, -1
            counters["brothers"][0] = self.shared and not memo.log.shape[0]  # not in a proof's log (`certificate`)
            try:
                v = int(average(s, np.int64(under), cands, search.rules, memo, sym, depth, 0))
            finally:
                counters["split"][0], counters["guarded"][0], counters["brothers"][0] = 0, False, False
            self._entered()
            if not counters["stopped"][0]:  # halted part-way, its frames stand past parts that wait: not kept
                self.line = line = saved(frames) if frames.head[0] else ()  # kept by a stop (`_drain`)
            if halted():
                self._drain()
            search.check()
            if v != PENDING:
                choice = int(counters["choice"][0])
                if entry and v < under and choice < 0:  # settled by the table before any experiment
                    choice = search.held(s, depth)[3]
                return v, choice if v < under else -1
            if self._refresh(path):  # answers crowded out of the table written again: search again at once
                continue
            self.after, self.read = tuple(self.read), []  # what the tasks handed out now waited for
            self._send()
            self._wait(done, told)

    def _entered(self) -> None:
        """Each set below the start that the searches from the start searched themselves counts its work once."""
        handed, counters = self.search.memo.handed, self.search.memo.counters
        for h1, h2, n in handed.entered[: int(handed.head[2])].tolist():
            if (h1, h2) in self.entered:
                counters["work"][0] -= n
            self.entered.add((h1, h2))

    def _refresh(self, path: tuple[int, ...]) -> int:
        """What the last search from the start handed back becomes what waits (what it no longer needs is
        dropped); an answer it asked for again (crowded out of the table) is written again. How many were."""
        handed, again, waiting = self.search.memo.handed, 0, {}
        self.blocker = (int(handed.keys[0, 0]), int(handed.keys[0, 1])) if handed.head[0] else None
        out: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for o, _, _, slot in self.running.values():
            out.setdefault(o.key, []).append((now(self.search.memo, o.budget, slot), slot))
        n, rows = int(handed.head[0]), handed.rows  # (read as Python's lists: numpy's scalars one by one cost more)
        read = zip(rows[:n, :5].tolist(), rows[:n, EXPERIMENT].tolist(), handed.keys[:n].tolist(), strict=True)
        for r, ((budget, depth, level, start, end), g, (k1, k2)) in enumerate(read):
            value, exact, choice = self.answers.get(key := (k1, k2), (0, False, -1))
            if exact or value >= budget:  # answered (a bound proved under a tighter budget does not answer)
                record(self.search.memo, np.uint64(key[0]), np.uint64(key[1]), np.int64(value), exact, choice)
                again += 1
                continue
            if ahead := [slot for out_budget, slot in out.get(key, ()) if out_budget >= budget]:  # out, no tighter:
                lower = [slot for slot in ahead if slot >= 0]  # it goes on below this budget (`sets.lowered`)
                self.search.memo.ceilings[lower] = np.minimum(self.search.memo.ceilings[lower], budget)
                continue
            row = handed.rows[r]
            place = row[5 + FRAME_LEVELS : 5 + FRAME_LEVELS + level], row[5 + 2 * FRAME_LEVELS :][:level]
            sub = (*path, *row[5 : 5 + level - (g >= 0)].tolist())  # a brother's path: its set's
            waiting[key] = Open(tuple(np.stack(place).T.ravel().tolist()), key, handed.members[start:end].copy(),
                                budget, depth, sub, g)  # fmt: skip
        self.waiting = dict(sorted(waiting.items(), key=lambda item: item[1].place))  # the serial order (`_send`)
        return again

    def _send(self) -> None:
        """Hand out what waits, earliest in the serial order first, while a process has room."""
        after = self.after
        for key in list(self.waiting):
            if len(self.running) >= self.room:
                return
            o = self.waiting.pop(key)
            number, self.numbers = self.numbers, self.numbers + 1
            if (slot := self.free.pop() if self.free else -1) >= 0:
                self.search.memo.ceilings[slot] = o.budget
            self.running[number] = (o, time.perf_counter() - self.start, after, slot)
            try:
                future = self.executor.submit(o.s, o.budget, o.path, o.depth, o.experiment, slot)
            except BrokenProcessPool:  # a worker died since the last result
                return self._restart()
            future.add_done_callback(self._to(number))

    def _to(self, number: int) -> Callable[[Future[Found]], None]:
        """Where the executor's thread puts subproblem number's result (or what it raised)."""
        results, generation = self.results, self.generation
        return lambda future: results.put((generation, number, future))

    def _wait(self, done: dict[int, int], told: Callable[[int, int], None]) -> None:
        """Take results until the one the search from the start stopped at is in (each search from the start
        costs the parent time) or a process would idle, handing out what waits meanwhile (halted: `_drain`)."""
        if not self.running:
            raise AssertionError("the proof has nothing left to run and no result")
        blocker, self.arrived = self.blocker, set()
        while True:
            if halted():
                self._drain()
            if (got := self._next()) is None:
                continue
            self._arrived(*got, done, told)
            if not self.results.empty():
                continue
            if blocker is None or blocker in self.arrived or len(self.running) + len(self.waiting) < self.executor.jobs:
                return
            self._send()

    def _arrived(self, number: int, future: Future[Found], done: dict[int, int], told: Callable[[int, int], None]
                 ) -> bool:  # fmt: skip
        """A result: into the table (and the log); False if it was lost with its worker (`_restart`)."""
        try:
            found = future.result()
        except BrokenProcessPool:
            self._restart()
            return False
        except self.executor.lost as e:  # a cluster's worker lost more often than it retries a task
            raise WorkersLost(f"the proofs' cluster lost a task's workers: {str(e).splitlines()[0][:200]}") from e
        o, sent, after, slot = self.running.pop(number)
        self.free += [slot] * (slot >= 0)
        self.arrived.add(o.key)
        search = self.search
        self.work += 0 if self.inline else found.work  # run here: already the search's own
        if found.paused is not None:  # halted as it ran
            self.paused += found.paused
            return False
        if found.entries:  # a cluster's worker: the optimal tree of what it settled
            search.adopt(list(found.entries))
        value, exact, choice = self.answers.get(o.key, (-1, False, -1))
        if not exact and (found.exact or found.value > value):  # a weaker answer keeps the stronger one
            value, exact, choice = self.answers[o.key] = (found.value, found.exact, found.choice)
            pin(search.memo.handed, o.key, value, exact)
        record(search.memo, np.uint64(o.key[0]), np.uint64(o.key[1]), np.int64(value), exact, choice)
        self.read.append(number)
        row = (found.exact, found.work, found.seconds, sent, time.perf_counter() - self.start, after, o.experiment >= 0)
        self.log.append(Task(number, len(o.place) // 2, len(o.s), o.budget, *row))
        if len(o.place) == 2:  # a part of an experiment at the start
            done[o.place[0]] = done.get(o.place[0], 0) + len(o.s)
            told(o.place[0], done[o.place[0]])
        if search.keep is not None and search.work + self.work - self.kept_at >= self.keep_every:
            self.kept_at = search.work + self.work  # what the workers proved, into the checkpoint
            search.keep_new(every=True)
        return True

    def _restart(self) -> None:
        """A worker was lost: a new pool, and every subproblem that was out handed out again."""
        self.restarts += 1
        if self.restarts > RESTARTS:
            raise WorkersLost(f"the proof's worker processes died {self.restarts} times (killed, or out of memory?)")
        self.executor.restart()
        self.generation += 1
        lost, self.running = self.running, {}
        for o, _, _, slot in lost.values():
            self.waiting[o.key] = o._replace(budget=now(self.search.memo, o.budget, slot))  # out again, as lowered
            self.free += [slot] * (slot >= 0)
        self.waiting = dict(sorted(self.waiting.items(), key=lambda item: item[1].place))
        self._send()

    def _drain(self) -> None:
        """Halted: wait (DRAIN_SECONDS at most) for the running subproblems to stop and hand back where they stood,
        then Paused with all of it."""
        deadline = time.monotonic() + DRAIN_SECONDS
        while self.running and time.monotonic() < deadline:
            if (got := self._next()) is not None:
                self.paused += (got[1].exception() is None and got[1].result().paused) or ()
                self.running.pop(got[0], None)
        raise Paused(self.paused + [self.line] * bool(self.line))  # the parent's own searches' frames too

    def _next(self) -> tuple[int, Future[Found]] | None:
        """A subproblem's number and result, if one of this pool's comes within POLL_SECONDS (a simulated pool's
        clock, `benchmarks/scaling.py`, moved on to the next result first)."""
        if self.results.empty() and isinstance(self.executor, Cluster):
            getattr(self.executor.pool, "advance", lambda: None)()
        try:
            generation, number, future = self.results.get(timeout=POLL_SECONDS)
        except queue.Empty:
            return None
        return (number, future) if generation == self.generation else None
