"""The one schedule of an average-case search's tasks, whatever runs them (`Workers`): this process alone (each task
run as it is handed out, in the serial search's order: `least`, `solve` on one process), processes forked from it,
or a cluster's workers, where the proof is split all the way down its tree, in the serial search's order (young
brothers wait). The tasks search with the compiled kernel (`tasks`); this module only decides what runs next and
merges what comes back.

The search's tree: at a set S the least total over S's experiments; an experiment's total is |S| plus its open
parts' costs. The kernel tries S's experiments best bound first: the first (the eldest) with the budget S was
given, each later one (a younger brother) with the best total found so far. Here the parent (`Workers`) settles
the large sets itself and hands the rest out as tasks to processes forked from it (`tasks`):

- a set of at least `Tuning.split_from` secrets is settled by the parent (`OpenSet`), once a worker opened it (its
  experiments in order, its eldest's parts: `tasks.opening`). Its eldest experiment's parts
  are searched at once when its budget is unbounded (at the start, and on the eldest's eldest and so on: as in the
  serial search, every such part is searched exactly, so nothing is lost by searching them together), else one
  after another, largest first, each with the budget the serial search gives it. Each part is opened here again
  if it is that large, else it is one task (`tasks.settle`: the kernel's search of the part in a worker);
- once the eldest is settled, every younger brother whose bound is below the best total is a task of its own
  (`tasks.brother`), all at once. Each reads S's best total so far from memory shared by every process before each
  of its parts, so it stops as soon as another process found better. One whose largest part is that large hands
  its parts back, and the parent searches them one after another, each part opened or a task. Among equal totals
  the earliest in the order wins, as in the serial search (a brother caps itself one above the best found by a
  later one);
- at a bounded start (a resumed proof, or one told to look below a total) the younger brothers go out with the
  eldest, as the budget already bounds them;
- a set with no total below its budget hands a lower bound up, which settles the experiment above it as too
  costly; what still runs below that experiment is no longer waited for.

The result is the serial search's: the least total, and among the experiments achieving it at the start the first
in the order. The parent and its workers share one table of proved sets (`rules.new_memo(shared=True)`: memory
mapped before the workers are forked), so a set proved by one process is read by all (a set reached by two orders
of the same experiments, say, is searched once) and the optimal tree is read back from it when the proof ends.
Each entry is sealed with a hash of its fields (`sets.seal`): an entry two processes wrote at once fails it and
reads as absent, so that no process ever reads one set's key with another's cost. The parent keeps what the table
proved in the checkpoint as the work goes on (`AverageSearch.keep_new`).

A worker that dies (killed, out of memory) breaks the executor (`solvers.parallel.forked_executor`): the parent
starts another and hands every task that was out again (a task's result depends only on what it is given), up to
RESTARTS times, after which the proof fails (`WorkersLost`) rather than wait for a result that will never come.

Every task is logged (`tasks.Task`: its size, budget, CPU seconds and the tasks it waited for), so that the scaling
benchmark replays the same schedule on more processes (`benchmarks/scaling.py`).

The worst case stays in one process: its depths are searched one after another, each reusing the table of the
ones before, a reuse that processes with tables of their own would lose (docs/decisions.md).
"""

from __future__ import annotations

import contextlib
import heapq
import multiprocessing
import queue
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import numpy as np
from numpy.typing import NDArray

from solvers.errors import LimitError, Paused
from solvers.halt import halted
from solvers.parallel import Engine, Inline, Pool, Shared, forked_executor, kill

from .nodes import Experiment, Handout, OpenSet
from .rules import BIG, below
from .sets import feasible, record, split
from .tasks import (
    INDEX_BITS,
    NO_INDEX,
    ROOT_SLOT,
    Context,
    Found,
    Searcher,
    Task,
    brother,
    in_worker,
    opening,
    settle,
    share,
)

POLL_SECONDS = 0.005  # how long the parent waits for a result before it passes on the settled parts' entries
AHEAD = 2  # tasks handed to each process at once (one running, the next waiting: no process idles between tasks)
SLOTS = 1 << 16  # the sets whose best total is shared (each set with younger brothers out takes one)
DRAIN_SECONDS = 2.0  # a halted proof waits this long at most for its running tasks to hand back where they stood
# (a job's process is given 3 s: `webapp.jobs.supervisor.HALT_SECONDS`)
RESTARTS = 3  # workers lost (killed, out of memory) that a proof survives: its lost tasks are handed out again
UNBOUNDED = int(BIG) // 2  # a budget this large bounds nothing: the eldest's parts are searched exactly, at once


class WorkersLost(LimitError):
    """The proof's worker processes died more often than it restarts them (RESTARTS), or a cluster's more often
    than it retries a task: the proof fails with this message."""


class Workers:
    """The executor of one search's tasks and the parent's side of its split: the sets opened here, the tasks
    waiting for a process, the ones handed out, and the log. The executor: this process alone (jobs 1, no cluster:
    each task run as it is handed out, one after another in the serial search's order, no set split below the
    start), processes forked from it, or a cluster's workers."""

    def __init__(self, search: Searcher, jobs: int, keep_every: int, engine: Engine | None = None) -> None:
        self.inline = engine is None and jobs == 1
        self.search, self.jobs = search, jobs
        self.split_from = int(BIG) if self.inline else search.split_from
        self.ahead = 1 if self.inline else AHEAD
        self.keep = search.keep is not None
        self.kept_at, self.keep_every = 0, keep_every  # the work done when the shared table was last looked over
        # for the checkpoint, and how much more before the next look
        self.engine = engine  # a cluster's (its workers' tables their own: their results carry their entries)
        self.best: Shared
        self.pool: Pool
        if self.inline:
            self.best, self.pool = np.zeros(SLOTS, dtype=np.int64), Inline()
        elif engine is None:
            search.load_kernels()
            self.best = multiprocessing.get_context("fork").Array("q", SLOTS, lock=False)
            share(search, self.best)
            self.pool = forked_executor(jobs)
        else:
            self.best, self.pool = engine.start(search.game, search.recipe, SLOTS)
        self.here = Context(search, self.best, self.split_from)  # what a task run by this process runs against
        self.generation = 0  # the executor's: results of an earlier (broken) one are dropped
        self.restarts = 0
        self.results: queue.SimpleQueue[tuple[int, int, Future[Found]]] = queue.SimpleQueue()
        self.waiting: list[tuple[int, int, Handout]] = []  # (priority, number, task)
        self.running: dict[int, tuple[Handout, float]] = {}
        self.numbers = 0
        self.slots = 0
        self.start = time.perf_counter()
        self.work = 0
        self.log: list[Task] = []  # every task, as it ran
        self.told: Callable[[int, int], None] = lambda i, done: None
        self.root: tuple[int, int] | None = None  # the start's (total or bound, first experiment or -1)
        self.paused: list[tuple[int, ...]] = []  # halted: where the tasks handed back stood (`Found.paused`)
        self.entry = True  # the start's table entry is its own (`least`)

    def close(self) -> None:
        """Stop every worker (one still searching what is no longer needed included); a cluster's workers are
        only told that the search is over."""
        if self.engine is not None:
            return self.engine.stop()
        if self.inline:
            return None
        assert isinstance(self.pool, ProcessPoolExecutor)
        return kill(self.pool)

    def _restart(self) -> None:
        """A worker was lost: a new executor, and every task that was out handed out again, first."""
        self.restarts += 1
        if self.restarts > RESTARTS:
            raise WorkersLost(f"the proof's worker processes died {self.restarts} times (killed, or out of memory?)")
        assert isinstance(self.pool, ProcessPoolExecutor)
        kill(self.pool)
        self.pool, self.generation = forked_executor(self.jobs), self.generation + 1
        lost, self.running = self.running, {}
        for number, (task, _) in lost.items():
            heapq.heappush(self.waiting, (-1, number, task))

    def least(
        self,
        s: NDArray[np.int32],
        path: tuple[int, ...],
        cands: NDArray[np.int64],
        under: int,
        told: Callable[[int, int], None],
        entry: bool = True,
    ) -> tuple[int, int]:
        """(the least total of s (the set the experiments of path left) below under, the experiment achieving it
        first in the order of cands (the experiments to try, each with its bound, best first); or a bound at least
        under and -1), told(i, done) as the i-th experiment's secrets are settled. entry False: s's own entry in the
        table is neither read nor written (cands are not the experiments the table's entry for s was proved over:
        `second_free`'s any code at a set where the search below guesses possible codes only)."""
        self.told, self.entry = told, entry
        if self.inline:  # a brother run here tells its parts as they settle
            self.here = self.here._replace(tell=told)
        self._open(OpenSet(s, path, under, None, -1, ()), cands)
        while self.root is None:
            if halted():
                self._drain()
            self._send()
            if self.root is not None:  # settled by the bounds alone as tasks were handed out
                break
            if not self.running:
                raise AssertionError("the split proof has nothing left to run and no result")
            with contextlib.suppress(queue.Empty):
                generation, number, future = self.results.get(timeout=POLL_SECONDS)
                if generation == self.generation:
                    self._arrived(number, future)
        return self.root

    def _drain(self) -> None:
        """Halted: wait (DRAIN_SECONDS at most) for the running tasks to stop and hand back where they stood, then
        Paused with all of it."""
        deadline = time.monotonic() + DRAIN_SECONDS
        while self.running and time.monotonic() < deadline:
            with contextlib.suppress(queue.Empty):
                generation, number, future = self.results.get(timeout=POLL_SECONDS)
                if generation == self.generation:
                    self.paused += (future.exception() is None and future.result().paused) or ()
                    self.running.pop(number, None)
        raise Paused(self.paused)

    def _arrived(self, number: int, future: Future[Found]) -> None:
        """A task's result: logged, then acted on if it still counts (a lost worker: `_restart`)."""
        lost = self.engine.lost if self.engine is not None else ()
        try:
            found = future.result()
        except BrokenProcessPool:
            return self._restart()
        except lost as e:  # a cluster's worker lost more often than it retries a task
            raise WorkersLost(f"the proofs' cluster lost a task's workers: {str(e).splitlines()[0][:200]}") from e
        task, sent = self.running.pop(number)
        self.work += 0 if self.inline else found.work  # run here: already the search's own
        if found.paused is not None:  # halted as it ran: `least` drains the rest
            self.paused += found.paused
            return None
        if found.entries:  # a cluster's worker: the optimal tree of what it settled, kept here
            self.search.adopt(list(found.entries))
        done = time.perf_counter() - self.start
        size = len(task.node.s) if task.kind == "brother" else len(task.args[0])
        row = (found.exact, found.work, found.seconds, sent, done, task.after)
        self.log.append(Task(number, task.kind, size, task.budget, *row))
        if self.keep and self.work - self.kept_at >= self.keep_every:  # what the workers proved, into the checkpoint
            self.kept_at = self.work
            self.search.keep_new(every=True)
        if task.wanted():
            task.on(found)

    def _send(self) -> None:
        """Hand out waiting tasks, most urgent first, while a process has room (tasks whose result no longer counts
        are dropped)."""
        while self.waiting and len(self.running) < self.jobs * self.ahead:
            _, number, task = heapq.heappop(self.waiting)
            if not task.wanted():
                continue
            if task.outdone():  # settled by its bound, as the kernel's loop stops there
                task.on(Found(task.low, False, 0, 0.0))
                continue
            try:
                future = (
                    self.pool.submit(task.fn, self.here, *task.args)
                    if self.inline
                    else self.pool.submit(in_worker, task.fn, *task.args)
                )
            except BrokenProcessPool:  # a worker died since the last result
                heapq.heappush(self.waiting, (-1, number, task))
                self._restart()
                continue
            future.add_done_callback(self._to(number))
            self.running[number] = (task, time.perf_counter() - self.start)

    def _to(self, number: int) -> Callable[[Future[Found]], None]:
        """Where the executor's thread puts task number's result (or what it raised)."""
        results, generation = self.results, self.generation
        return lambda future: results.put((generation, number, future))

    def _number(self, node: OpenSet, e: Experiment | None = None) -> int:
        """A new task's number, which joins every set and experiment above it (what a younger brother, or a
        brother's next part, waits for)."""
        number = self.numbers
        self.numbers += 1
        for up in node.above():
            up.issued.append(number)
            if up.up is not None:
                up.up.issued.append(number)
        if e is not None:
            e.issued.append(number)
        return number

    def _task(self, task: Handout, number: int, priority: int) -> None:
        """Queue a task: the eldest experiments' parts first (every one is needed), younger brothers after."""
        heapq.heappush(self.waiting, (priority, number, task))

    def _open(self, node: OpenSet, cands: NDArray[np.int64] | None = None) -> None:
        """Settle a large set here: at once if the table or the bounds do, else have it opened (`tasks.opening`: the
        start, whose experiments are given, here and now)."""
        search = self.search
        depth, n = search.depth_at(len(node.path)), len(node.s)
        if not feasible(n, depth, search.rules):
            return self._finish(node, int(BIG))
        node.low = int(search.rules.bound[n])
        own = self.entry or node.up is not None  # the table's entry is this set's (`least`)
        held, value, exact, choice = search.held(node.s, depth) if own else (False, 0, False, -1)
        if held and exact and choice >= 0 and value < node.budget:
            node.best, node.choice = value, choice
            return self._finish(node)
        node.low = max(node.low, value) if held else node.low
        if node.low >= node.budget:
            return self._finish(node, node.low)
        assert self.slots < SLOTS, "more large sets opened than the shared best totals have room for"
        node.slot, self.slots = self.slots, self.slots + 1
        self.best[node.slot] = (node.budget - 1) << INDEX_BITS | NO_INDEX
        on = self._on_open(node)
        if cands is not None:
            assert node.slot == ROOT_SLOT
            return on(opening(self.here, node.s, node.path, node.budget, cands))
        self.work += n
        args = (node.s, node.path, node.budget)
        self._task(Handout("open", opening, args, node, None, on, node.budget, node.gate), self._number(node), -2)
        return None

    def _on_open(self, node: OpenSet) -> Callable[[Found], None]:
        """What to do once a set is opened (its experiments in order, its eldest's parts): settle it from there."""

        def on(found: Found) -> None:
            assert found.cands is not None
            node.cands = found.cands
            if not len(node.cands) or node.cands[0, 0] >= node.budget:
                return self._finish(node, int(node.cands[0, 0]) if len(node.cands) else int(BIG))
            g = int(node.cands[0, 1])
            members, start = split(node.s, g, self.search.rules)
            parts = [(members[start[o] : start[o + 1]], low, o) for o, low in found.parts]
            settled = len(node.s) - sum(len(p) for p, _, _ in parts)
            eldest = Experiment(node, 0, g, found.value, parts, node.budget >= UNBOUNDED, settled=settled)
            if node.up is None and node.budget < UNBOUNDED:  # a bounded start (a resumed proof, `under`): the
                node.early = True  # budget already bounds the younger brothers, so they need not wait for the eldest
                self._brothers(node)
            return self._go_on(eldest)

        return on

    def _go_on(self, e: Experiment) -> None:
        """Hand out an experiment's parts (all of them, or the next one), or settle it when it is done."""
        node = e.node
        while e.parts and not e.done:
            if e.total >= node.cap(e.i):
                break
            part, low, o = e.parts.pop(0)
            left = node.cap(e.i) - (e.total - low)
            e.lows[o] = low
            path, gate = (*node.path, e.g), tuple(e.issued) if not e.together and e.issued else node.gate
            if len(part) >= self.split_from:
                self._open(OpenSet(part, path, left, e, o, gate))
            else:
                on = self._on_part(e, o, len(part))
                args = (part, left, path, below(self.search.depth_at(len(node.path))))
                self._task(Handout("part", settle, args, node, e, on, left, gate), self._number(node, e), e.i > 0)
            if not e.together:
                return None
        if not e.done and (not e.lows or e.total >= node.cap(e.i)):
            e.done = True
            self._settled(e)
        return None

    def _on_part(self, e: Experiment, o: int, size: int) -> Callable[[Found], None]:
        """What to do with a part's result (from a task)."""
        return lambda found: self._part_done(e, o, found.value, found.exact, size)

    def _part_done(self, e: Experiment, o: int, value: int, exact: bool, size: int) -> None:
        """A part of an experiment settled (exact: its cost; else a bound at least its budget)."""
        if e.done:
            return
        e.total += value - e.lows.pop(o)
        e.settled += size
        if e.node.up is None:
            self.told(e.i, e.settled)
        if not exact:
            e.total = max(e.total, e.node.cap(e.i))
            e.done = True
            return self._settled(e)
        return self._go_on(e)

    def _settled(self, e: Experiment) -> None:
        """An experiment settled: its total (exact if below the set's cap for it) or a bound."""
        node = e.node
        if not e.lows and not e.parts and e.total < node.cap(e.i):
            node.best, node.choice, node.index = e.total, e.g, e.i
            self.best[node.slot] = node.best << INDEX_BITS | e.i
        else:
            node.floor = min(node.floor, e.total)
        if e.i == 0 and not node.early:
            self._brothers(node)
        else:
            self._brother_done(node)

    def _brothers(self, node: OpenSet) -> None:
        """Every younger brother below the best total a task, all at once: once the eldest settled, or with it (early:
        the eldest counts as one more to wait for)."""
        after = node.gate if node.early else tuple(node.issued) or node.gate
        for i in range(1, len(node.cands)):
            bound, g = int(node.cands[i, 0]), int(node.cands[i, 1])
            limit = node.cap(i)
            if bound >= limit:
                node.floor = min(node.floor, bound)
                break
            node.waiting += 1
            args, number = (node.slot, i, node.s, node.path, g, limit), self._number(node)
            on = self._on_brother(node, i, g, number)
            self._task(Handout("brother", brother, args, node, None, on, limit, after, bound, i), number, 1)
        node.waiting += 1
        if not node.early:
            self._brother_done(node)

    def _on_brother(self, node: OpenSet, i: int, g: int, number: int) -> Callable[[Found], None]:
        """What to do with a younger brother's result (task number): settled, or its parts to search from here."""

        def on(found: Found) -> None:
            if found.parts:
                members, start = split(node.s, g, self.search.rules)
                parts = [(members[start[o] : start[o + 1]], low, o) for o, low in found.parts]
                return self._go_on(Experiment(node, i, g, found.value, parts, False, issued=[number]))
            if node.up is None:
                self.told(i, len(node.s))
            if found.exact and found.value < node.cap(i):
                node.best, node.choice, node.index = found.value, g, i
                self.best[node.slot] = node.best << INDEX_BITS | i
            elif not found.exact:
                node.floor = min(node.floor, found.value)
            return self._brother_done(node)

        return on

    def _brother_done(self, node: OpenSet) -> None:
        """One younger brother fewer to wait for; the set settled when none is left."""
        node.waiting -= 1
        if not node.waiting:
            self._finish(node)

    def _finish(self, node: OpenSet, bound: int | None = None) -> None:
        """A set settled: its least total (recorded, with its experiment) or a lower bound, handed up."""
        search = self.search
        exact = bound is None and node.choice >= 0 and node.best < node.budget
        value = node.best if exact else bound if bound is not None else max(node.floor, node.low)
        if self.entry or node.up is not None:
            h1, h2 = search.key(node.s, search.depth_at(len(node.path)))
            record(search.memo, h1, h2, np.int64(value), exact, node.choice if exact else -1)
        if node.up is None:
            self.root = (value, node.choice if exact else -1)
        else:
            self._part_done(node.up, node.outcome, value, exact, len(node.s))
