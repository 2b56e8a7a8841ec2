"""A proof's first experiments searched on several cores.

The first experiments (one per symmetry class) are handed out in their order to processes forked from the
search (`solvers.parallel`), each with the best cost known when it starts as its budget; each keeps its own table
across the experiments it is given. The result is the serial search's: the least cost, and among the experiments
achieving it the first in the order (an experiment started before the best was known is searched exactly, one
started after it ties at best and loses to the earlier one). The winner's process hands back the table entries
of every set on its optimal tree (`AverageSearch.proof_below`), so the tree is read back without searching again.

The worst case stays in one process: its depths are searched one after another, each reusing the table of the
ones before, a reuse that processes with tables of their own would lose (docs/decisions.md).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import queue
import time
from collections.abc import Callable
from multiprocessing.pool import AsyncResult, Pool
from multiprocessing.queues import Queue
from multiprocessing.sharedctypes import Synchronized
from typing import NamedTuple, Protocol

import numpy as np
from numpy.typing import NDArray

from solvers.checkpoint import Entry
from solvers.parallel import forked_pool

from .rules import BIG

POLL_SECONDS = 0.005  # how long the parent waits for progress before it looks whether a task is done


class Searcher(Protocol):
    """What the workers need of a search (`average_search.AverageSearch`, which imports this module)."""

    keep: Callable[[list[Entry]], None] | None  # where proved sets' entries go (a checkpoint), if anywhere

    @property
    def work(self) -> int:
        """The secrets of every set searched so far."""

    def everyone(self) -> NDArray[np.int32]:
        """Every secret."""

    def load_kernels(self) -> None:
        """Load every kernel before forking."""

    def first_total(
        self, s: NDArray[np.int32], g: int, best: int, told: Callable[[int], None], cap: Callable[[], int] | None = None
    ) -> int:
        """The total with experiment g first if below best, else a lower bound."""

    def keep_new(self, every: bool = False) -> int:
        """Keep the newly proved sets (with a checkpoint)."""

    def proof_below(self, s: NDArray[np.int32], g: int, budget: int) -> list[Entry]:
        """The table entries of the optimal tree below experiment g."""


class Found(NamedTuple):
    """What a worker found for one first experiment."""

    value: int  # the total, or a lower bound when not exact
    exact: bool
    entries: list[Entry]  # an exact result's proof: its tree's table entries
    work: int
    seconds: float  # the worker's CPU time on it


class Task(NamedTuple):
    """One first experiment's search as it ran, for the scaling benchmark (`benchmarks/scaling.py`): its index
    in the order, the budget it started with, whether it was settled exactly, its work and CPU seconds, and when
    it was handed out and its result arrived (seconds from the search's start)."""

    first: int
    budget: int
    exact: bool
    work: int
    seconds: float
    sent: float
    done: float


INDEX_BITS = 20  # the shared best: total << INDEX_BITS | the index of its first experiment (BIG << 20 fits)

_search: Searcher | None = None  # the search the workers were forked from (each has its own copy)
_progress: Queue[tuple[int, int, list[Entry]]] | None = None
_shared: Synchronized[int] | None = None  # the best total known so far, and its experiment's index


def _average_task(i: int, g: int, budget: int) -> Found:
    """Experiment i (g) first: its total if below the budget (lowered while it runs as other processes find
    better: to their best, or one above it for an experiment before theirs, which wins a tie); else a bound."""
    assert _search is not None and _progress is not None and _shared is not None
    search, progress, shared = _search, _progress, _shared
    limit = [budget]

    def cap() -> int:
        best, index = shared.value >> INDEX_BITS, shared.value & ((1 << INDEX_BITS) - 1)
        limit[0] = min(limit[0], best + (1 if i < index else 0))
        return limit[0]

    s = search.everyone()
    before, clock = search.work, time.process_time()
    if search.keep is not None:  # a settled part's entries go to the parent, which keeps them
        search.keep = lambda entries: progress.put((i, -1, entries))
    total = search.first_total(s, g, budget, lambda done: progress.put((i, done, [])), cap)
    search.keep_new(every=True)
    exact = total < limit[0]
    proof = search.proof_below(s, g, total) if exact else []
    seconds = time.process_time() - clock
    return Found(total if exact else max(total, limit[0]), exact, proof, search.work - before, seconds)


class Workers:
    """The forked processes of one search, and the progress they report."""

    def __init__(self, search: Searcher, jobs: int) -> None:
        global _search, _progress, _shared
        search.load_kernels()
        context = multiprocessing.get_context("fork")
        _search = search
        self.progress: Queue[tuple[int, int, list[Entry]]] = context.Queue()
        self.keep = search.keep
        self.shared: Synchronized[int] = context.Value("q", int(BIG) << INDEX_BITS | ((1 << INDEX_BITS) - 1))
        _progress, _shared = self.progress, self.shared
        self.pool: Pool = forked_pool(jobs)
        self.jobs = jobs
        self.work = 0
        self.log: list[Task] = []  # every task, as it ran

    def close(self) -> None:
        """Stop every worker (one still searching an experiment no longer needed included)."""
        self.pool.terminate()
        self.pool.join()

    def _wait(self, running: dict[int, AsyncResult[Found]], told: Callable[[int, int], None]) -> int:
        """Pass on progress until one running task is done; its index."""
        while True:
            for i, result in running.items():
                if result.ready():
                    return i
            with contextlib.suppress(queue.Empty):
                i, done, entries = self.progress.get(timeout=POLL_SECONDS)
                if done < 0:
                    if self.keep is not None:
                        self.keep(entries)
                else:
                    told(i, done)

    def average(
        self, cands: NDArray[np.int64], told: Callable[[int, int], None], under: int = int(BIG)
    ) -> tuple[int, int, list[Entry]]:
        """(the least total below under, the index of the first experiment achieving it (-1: none is below), its
        proof); told(i, done) as each experiment's parts are settled."""
        running: dict[int, AsyncResult[Found]] = {}
        sent: dict[int, tuple[int, float]] = {}
        start = time.perf_counter()
        best, best_i, proof, following = under, -1, [], 0
        if under < BIG:  # every task's budget is under: as if an experiment after them all had found under - 1
            self.shared.value = (under - 1) << INDEX_BITS | ((1 << INDEX_BITS) - 1)
        while running or following < len(cands):
            while len(running) < self.jobs and following < len(cands) and cands[following][0] < best:
                running[following] = self.pool.apply_async(_average_task, (following, int(cands[following][1]), best))
                sent[following] = (best, time.perf_counter() - start)
                following += 1
            if following < len(cands) and cands[following][0] >= best:
                following = len(cands)  # in bound order: no later experiment can do better
            if not running:
                break
            i = self._wait(running, told)
            found = running.pop(i).get()
            self.work += found.work
            budget, at = sent[i]
            self.log.append(Task(i, budget, found.exact, found.work, found.seconds, at, time.perf_counter() - start))
            if found.exact and (found.value < best or (found.value == best and i < best_i)):
                best, best_i, proof = found.value, i, found.entries
                self.shared.value = best << INDEX_BITS | best_i
        self._drain()
        return best, best_i, proof

    def _drain(self) -> None:
        """Keep the settled parts still in the queue (the last tasks' entries may arrive after their results)."""
        while self.keep is not None:
            try:
                _, done, entries = self.progress.get(timeout=POLL_SECONDS)
            except queue.Empty:
                return
            if done < 0:
                self.keep(entries)
