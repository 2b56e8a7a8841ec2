"""Several cores for one search: processes forked from the searching one (so they start with its tables and
compiled kernels), each dying with it, however it ends.

How a search runs is one value, `Execution`, chosen by its entry point (a command, a job, a benchmark) and passed
down to the search: how many processes (1 keeps a search in its own process), or a cluster (an `Engine` whose
workers, on other machines too, run the same tasks; `webapp.results.cluster` makes one, nothing here imports it).
Nothing below an entry point reads the environment or a global to decide it: `default_jobs` is for entry points only.
"""

from __future__ import annotations

import contextlib
import heapq
import os
import signal
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from .numbers import whole_number

if TYPE_CHECKING:  # the pool's modules load only for a search that forks one (an `Execution` is cheap to import)
    from concurrent.futures import Future, ProcessPoolExecutor

PR_SET_PDEATHSIG = 1


def default_jobs() -> int:
    """COIN_PUZZLES_JOBS when set to a whole number of at least 1, else the cores this process may use (an entry
    point's default for `Execution.jobs`)."""
    jobs = whole_number(os.environ.get("COIN_PUZZLES_JOBS", ""))
    if jobs is not None and jobs >= 1:
        return jobs
    return len(os.sched_getaffinity(0))


def die_with_parent() -> None:
    """Ask Linux to SIGKILL this process when the one that forked it dies (elsewhere: nothing)."""
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def _start_worker() -> None:
    die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the parent, which stops its workers
    # a stop is the parent's to ask (its halt flag is theirs too): a SIGTERM ends a worker (the executor's shutdown
    # sends it), never halts the flag it shares, nor wakes the parent's signal socket, as its forked handler would
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.set_wakeup_fd(-1)


def forked_executor(jobs: int) -> ProcessPoolExecutor:
    """`jobs` processes forked from this one when the first task is submitted (state set before it is theirs). A
    worker that dies (killed, out of memory) breaks the executor: every task not done raises BrokenProcessPool
    instead of never ending, so the caller can start another and hand the lost tasks out again."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork"), initializer=_start_worker)


def kill(executor: ProcessPoolExecutor) -> None:
    """Stop an executor's workers now, a task still running included (`shutdown` alone waits for it)."""
    for process in list((executor._processes or {}).values()):  # the executor's own record of its workers
        with contextlib.suppress(OSError):
            process.kill()
    executor.shutdown(wait=True, cancel_futures=True)


class Inline:
    """Tasks run in this very process, each as it is handed out, what it raises raised to the caller: one process as
    the executor of a search's tasks (`Pool`), beside the forked processes and a cluster's workers."""

    def submit(self, fn: Callable[..., Any], /, *args: Any) -> Future[Any]:
        """fn(*args) now; its result in a future already done."""
        from concurrent.futures import Future

        future: Future[Any] = Future()
        future.set_result(fn(*args))
        return future


class Pool(Protocol):
    """Where tasks run: `submit` as concurrent.futures has it."""

    def submit(self, fn: Callable[..., Any], /, *args: Any) -> Future[Any]:
        """Run fn(*args) on a worker; its result (or what it raised) in the future."""


class Engine(Protocol):
    """A cluster's side of a split proof (`webapp.results.cluster`): how many tasks it runs at once, and for one search
    the pool that runs its tasks, each task with the search rebuilt (once per worker process) from what `start` was
    given, its table its own. A worker lost mid-task is the engine's to
    retry; one it could not raises one of `lost`."""

    jobs: int
    lost: tuple[type[BaseException], ...]

    def start(self, game: Any, recipe: Callable[[Any], Any]) -> Pool:
        """A search's pool: its game kept where the workers read it, and recipe(the engine's handle to it) what
        rebuilds the search there."""

    def stop(self) -> None:
        """Drop the search's workers' state (tasks still running are abandoned)."""


@dataclass(frozen=True)
class Execution:
    """How a search runs, chosen by its entry point: on `jobs` processes forked from it (1: in its own), or on a
    cluster (`connect` joins it, once a proof needs it; its engine says how many tasks it runs at once)."""

    jobs: int = 1
    connect: Callable[[], Engine] | None = None

    def engine(self) -> Engine | None:
        """The cluster, joined; None when the search runs on this machine."""
        return None if self.connect is None else self.connect()


ONE = Execution()  # in the searching process alone


class Logged(NamedTuple):
    """A task of a proof's log as a simulated schedule reads it (`makespan`): its number, its CPU seconds, and the
    tasks it waited for."""

    number: int
    seconds: float
    after: list[int]


def makespan(tasks: list[Logged], workers: int) -> float:
    """The end of a list schedule: each task, in order, on the first process free once every task it waited for
    is done; workers 0: as many processes as tasks (the critical path)."""
    end: dict[int, float] = {}
    free = [0.0] * workers
    for task in tasks:
        ready = max((end[a] for a in task.after if a in end), default=0.0)
        if workers:
            end[task.number] = max(heapq.heappop(free), ready) + task.seconds
            heapq.heappush(free, end[task.number])
        else:
            end[task.number] = ready + task.seconds
    return max(end.values(), default=0.0)
