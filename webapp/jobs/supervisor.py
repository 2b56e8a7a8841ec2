"""A job consumer's worker runs each job in a child process of its own and watches it: it keeps the job's claim
alive while the child works (so a dead worker's claim lapses within STALE_SECONDS, not ten minutes), stops the
child at the job's wall-clock limit, and runs a job again once if its process was killed (by an operator, the
kernel's out-of-memory killer) before marking it failed. The child dies with its worker (PR_SET_PDEATHSIG).

A child is needed because a job spends its time in compiled code that no signal or thread can interrupt; the
worker, idle in waitpid, always can.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import select
import signal
import sys
import time
import traceback
from collections.abc import Sequence
from typing import Any

from solvers.errors import Paused
from solvers.parallel import die_with_parent
from webapp.jobs.halting import halt_on_signals, stops_ignored
from webapp.jobs.precompute import store_budget
from webapp.results.computations import Computation, P, read, work
from webapp.store import Store, open_store, stale_seconds

ATTEMPTS = 2  # a job whose process is killed is run once more before it is marked failed


FAILED_CODE = 3  # a job process's exit status after an error it stored as the job's failure (not run again)
PAUSED_CODE = 4  # ... after it was halted (its worker stopping) and kept where its proof stood in its checkpoint
HALT_SECONDS = 3.0  # how long a stopping worker gives its job's process to halt and keep its frames, then kills it


def _child(
    address: str,
    keys: Sequence[bytes],
    c: Computation[P, Any],
    params: P,
    mask: set[int | signal.Signals] | None = None,
) -> None:
    """In the forked process: compute and store the result, then exit (never return into the worker's code). An
    error is logged once (its traceback) and stored as the job's failure with its reason, which the page and the
    API show; the same job would fail the same way again, so it is not run again. mask: the signal mask to restore
    once the halting handler replaced the worker's (forked with SIGTERM held back, which would otherwise reach
    Huey's handler, which raises)."""
    code = 1
    try:
        halt_on_signals(interrupt=False)  # a stopping worker's SIGTERM halts the proof, which keeps where it stood
        if mask is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        die_with_parent()
        # forked from a consumer's worker, which multiprocessing started as a daemon: a job is not one (its proof
        # forks a pool of its own, which multiprocessing refuses to a daemon), and it dies with its worker anyway
        multiprocessing.current_process().daemon = False
        # a store of its own: no connection shared across the fork
        work(open_store(address, keys, store_budget()), c, params)
        code = 0
    except Paused:
        code = PAUSED_CODE
    except Exception as e:  # noqa: BLE001 - reported, stored as the failure, and the exit status tells the worker
        traceback.print_exc()
        with contextlib.suppress(Exception):
            open_store(address, keys).fail(c.key(params), f"the solver stopped with an error ({type(e).__name__})")
            code = FAILED_CODE
    except BaseException:  # noqa: BLE001 - SystemExit, KeyboardInterrupt: the worker decides
        traceback.print_exc()
    finally:
        sys.stderr.flush()
        os._exit(code)


def _wait(store: Store, key: str, pid: int, deadline: float) -> int | None:
    """Wait for the child, keeping the claim alive; its wait status (as soon as it ends: the worker wakes on the
    child's pidfd), or None at the deadline."""
    beat = max(0.2, stale_seconds() / 6)
    try:
        fd = os.pidfd_open(pid)
    except (AttributeError, OSError):  # not Linux 5.3 or later: poll for the child's end
        fd = -1
    try:
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return status
            if time.monotonic() >= deadline:
                return None
            store.touch(key)
            pause = min(beat, max(0.05, deadline - time.monotonic()))
            if fd >= 0:
                select.select([fd], [], [], pause)
            else:
                time.sleep(min(pause, 0.1))
    finally:
        if fd >= 0:
            os.close(fd)


def _halted(pid: int) -> int | None:
    """Ask a child to halt (SIGTERM: a proof halts within a second, keeping where it stood in its checkpoint); its
    exit status if it ended (collected) within HALT_SECONDS (-1: collected by someone else), else None."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + HALT_SECONDS
    while time.monotonic() < deadline:
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            return -1
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.02)
    return None


def _kill(pid: int, halt: bool = False) -> None:
    """Stop a child and collect it (halt: asked first, `_halted`, and killed only if it did not end)."""
    if halt and _halted(pid) is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)


def _duration(seconds: float) -> str:
    """A limit in words."""
    return f"{seconds / 60:g} minutes" if seconds >= 120 else f"{seconds:g} seconds"


def supervise(address: str, keys: Sequence[bytes], c: Computation[P, Any], params: P, seconds: float) -> str:
    """Run one job under watch; what became of it: 'stored', 'skipped' (stored already), 'failed' (an error, its
    reason stored), 'paused' (halted, its checkpoint kept), 'timeout' or 'killed'."""
    store = open_store(address, keys, store_budget())
    store_budget().kept(c.key(params))  # the site's list made once, before the job's process forks
    key = c.key(params)
    if read(store, c, key) is not None:
        store.release(key)
        return "skipped"
    deadline = time.monotonic() + seconds
    pid = 0
    try:
        for attempt in range(1, ATTEMPTS + 1):
            if attempt > 1:
                store.report(key, "running", 0, 0, "")
            # the consumer's stop signal is held back while the process forks: Huey's handler raises in the worker,
            # and raised inside fork's own lock handling it left an 'Exception ignored' traceback in the log
            # (the child's until its own handler is in place: `_child`)
            held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
            try:
                pid = os.fork()
                if pid == 0:
                    _child(address, keys, c, params, held)
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, held)
            status = _wait(store, key, pid, deadline)
            if status is None:
                _kill(pid)  # before marking it failed: its progress reports would overwrite the mark
                pid = 0
                store.fail(key, f"it ran past the limit of {_duration(seconds)} for one computation here")
                return "timeout"
            pid = 0
            if os.waitstatus_to_exitcode(status) == 0 and read(store, c, key) is not None:
                store.release(key)
                return "stored"
            if os.waitstatus_to_exitcode(status) == FAILED_CODE:
                return "failed"  # its reason is stored; its traceback was logged once
            if os.waitstatus_to_exitcode(status) == PAUSED_CODE:  # halted by a signal of its own: its checkpoint
                store.release(key)  # keeps where it stood, and the next request for it runs it again from there
                return "paused"
            how = f"signal {-os.waitstatus_to_exitcode(status)}" if os.WIFSIGNALED(status) else "an error"
            print(f"coin-puzzles job: {key} ended by {how} (attempt {attempt})", file=sys.stderr, flush=True)
        store.fail(key, f"its process was stopped ({how}) twice, perhaps for lack of memory")
        return "killed"
    finally:
        if pid > 0:  # the worker itself was stopped (SIGTERM from the consumer) while the child ran
            # a second stop is ignored until the child halted: the consumer waits a second for its workers, then
            # its exit terminates them again (multiprocessing's exit handler), and Huey's handler raising here cut
            # the wait short, so the child died with this worker (PR_SET_PDEATHSIG) before it kept its frames
            with stops_ignored():
                _kill(pid, halt=True)
                store.release(key)
