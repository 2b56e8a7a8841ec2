"""Several cores for one search: processes forked from the searching one (so they start with its tables and
compiled kernels), each dying with it, however it ends.

How many: COIN_PUZZLES_JOBS when set (1 keeps a search in its own process), else every core this process may
run on.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
from concurrent.futures import ProcessPoolExecutor

PR_SET_PDEATHSIG = 1


def default_jobs() -> int:
    """COIN_PUZZLES_JOBS when set to a whole number of at least 1, else the cores this process may use."""
    raw = os.environ.get("COIN_PUZZLES_JOBS", "").strip()
    if raw.isdigit() and int(raw) >= 1:
        return int(raw)
    return len(os.sched_getaffinity(0))


def die_with_parent() -> None:
    """Ask Linux to SIGKILL this process when the one that forked it dies (elsewhere: nothing)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def _start_worker() -> None:
    die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the parent, which stops its workers


def forked_executor(jobs: int) -> ProcessPoolExecutor:
    """`jobs` processes forked from this one when the first task is submitted (state set before it is theirs). A
    worker that dies (killed, out of memory) breaks the executor: every task not done raises BrokenProcessPool
    instead of never ending, so the caller can start another and hand the lost tasks out again."""
    return ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork"), initializer=_start_worker)


def kill(executor: ProcessPoolExecutor) -> None:
    """Stop an executor's workers now, a task still running included (`shutdown` alone waits for it)."""
    for process in list((executor._processes or {}).values()):  # the executor's own record of its workers
        with contextlib.suppress(OSError):
            process.kill()
    executor.shutdown(wait=True, cancel_futures=True)
