"""One flag that stops every proof of this process and of the processes it forks: `HALT`, a byte of memory shared with
every process forked after it was made (a process that is itself forked and may be halted makes its own: `own`). An
entry point sets it (`halt`) when it is told to stop (SIGTERM, Ctrl+C: `webapp.jobs.halting`); each compiled
kernel reads it at every set it enters and stops there as at the end of its work, and a search that can resume raises
`solvers.errors.Paused` with where it stood, which its entry point keeps (a proof's checkpoint) so that the next run
goes on from there.

No search sets the flag, and nothing here reads a signal: a search runs the same whether or not anyone may stop it."""

from __future__ import annotations

import mmap
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
from numpy.typing import NDArray


def shared_flag() -> NDArray[np.bool_]:
    """A flag in memory shared with the processes forked after this call (MAP_SHARED)."""
    return np.frombuffer(mmap.mmap(-1, mmap.PAGESIZE), dtype=np.bool_, count=1)


HALT = shared_flag()  # this process's flag (`own`), read by every search made after it was made


def own() -> None:
    """Give this process a flag of its own, which its forked workers share from now on but the process that forked
    this one does not: a job's process halted must not halt the consumer that forked it, nor its later jobs."""
    global HALT
    HALT = shared_flag()


def halt() -> None:
    """Stop every proof of this process and of its forked workers at the next set each enters."""
    HALT[0] = True


def halted() -> bool:
    """Whether `halt` was called (and not `clear`ed)."""
    return bool(HALT[0])


def clear() -> None:
    """Let proofs run again (a test that halted one, or an entry point that runs another)."""
    HALT[0] = False


_proofs = [0]  # proofs running in this process that keep their frames when halted (`proving`)


@contextmanager
def proving() -> Iterator[None]:
    """Mark a proof that keeps its frames when halted (and raises Paused) as running while the block runs."""
    _proofs[0] += 1
    try:
        yield
    finally:
        _proofs[0] -= 1


def running() -> bool:
    """Whether a proof that keeps its frames runs now (`proving`)."""
    return _proofs[0] > 0
