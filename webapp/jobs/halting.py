"""A stop asked of a long proof (SIGTERM, as a session's end or `kill` sends; Ctrl+C) halts it where it stands
(`solvers.halt`) instead of killing it, so that it keeps its frames and the next run goes on from there.

The proof spends its time in compiled kernels that hold no Python frame, where Python runs no signal handler until
they return: the signal's number goes to a socket (`signal.set_wakeup_fd`, which writes the number of every signal
with a handler here), and a thread waiting on it sets the flag at once for a stop (`STOPS`: a child's SIGCHLD or a
SIGHUP that a library handles does not halt), which every kernel reads at every set it enters (the kernels release
the GIL, so the thread runs). The handler itself, run once the kernel returned, raises KeyboardInterrupt when no
proof is running (`solvers.halt.running`), so that a stop between proofs stops the command as before; but not
inside a callback from C (LLVM's, as Numba loads a kernel), where it would be printed and lost: the signal is sent
again a moment later instead."""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import socket
import threading
from collections.abc import Iterator
from types import FrameType

from solvers.halt import halt, own, running

STOPS = (signal.SIGTERM, signal.SIGINT)  # the signals that halt; any other (SIGCHLD, SIGHUP, ...) does not
CALLBACKS = f"{os.sep}llvmlite{os.sep}"  # the Python code C calls back as Numba loads or compiles a kernel
AGAIN_SECONDS = 0.05  # a stop that came in such a callback is sent again this much later
_SOCKETS: list[socket.socket] = []
_INSTALLED: list[int] = []  # the process that installed them


def halt_on_signals(interrupt: bool = True) -> None:
    """From now on SIGTERM and SIGINT halt this process's proofs (and their forked workers', not the process's that
    forked this one: the flag is made anew, `solvers.halt.own`), or, when none runs and interrupt is true, raise
    KeyboardInterrupt (a job's process, told by its stopping worker, halts whatever runs: a search that cannot
    resume raises Paused with nothing kept, and anything else is killed after the worker's grace)."""
    own()
    if os.getpid() in _INSTALLED:  # once a process (the command line's tests call it in theirs again and again)
        return
    for inherited in _SOCKETS:  # a forked process's: the thread that read them did not survive the fork
        inherited.close()
    wake, woken = socket.socketpair()
    woken.setblocking(False)
    signal.set_wakeup_fd(woken.fileno())
    _SOCKETS[:] = [wake, woken]  # kept open for the process's life (a collected socket closes its descriptor)
    _INSTALLED[:] = [os.getpid()]
    atexit.register(_closed, os.getpid())

    def watch() -> None:  # each byte the number of a signal with a handler here: only a stop halts
        with contextlib.suppress(OSError):  # the socket closed at the process's exit (`_closed`)
            while got := wake.recv(1):
                if got[0] in STOPS:
                    halt()

    threading.Thread(target=watch, name="halt on signals", daemon=True).start()

    def handler(signum: int, frame: FrameType | None) -> None:
        halt()
        if interrupt and not running():
            if _called_back(frame):
                again = threading.Timer(AGAIN_SECONDS, os.kill, (os.getpid(), signum))
                again.daemon = True  # never what the process waits for at its exit
                again.start()
                return
            raise KeyboardInterrupt

    for stop in STOPS:
        signal.signal(stop, handler)


def _called_back(frame: FrameType | None) -> bool:
    """Whether Python runs here inside a callback from C (ctypes), where an exception raised is printed and
    dropped, not raised to the caller: LLVM's, while Numba loads or compiles a kernel."""
    while frame is not None:
        if CALLBACKS in frame.f_code.co_filename:
            return True
        frame = frame.f_back
    return False


def _closed(pid: int) -> None:
    """At the exit of the process that installed them: no more wake-ups, and the sockets closed (Python warned of
    them, unclosed, at the exit of every test process)."""
    if os.getpid() != pid or os.getpid() not in _INSTALLED:
        return
    with contextlib.suppress(ValueError):  # not the main thread
        signal.set_wakeup_fd(-1)
    for s in _SOCKETS:
        s.close()


@contextlib.contextmanager
def stops_ignored() -> Iterator[None]:
    """SIGTERM and SIGINT ignored while the block runs, then handled as before: what a stop writes or waits for (a
    halted proof's snapshot, a job's process halting, serve's processes stopping) is not cut short by a stop asked
    again (a session's end, Ctrl+C pressed twice, a consumer's exit). In the main thread only, where Python runs
    every handler whatever thread a signal reaches (a signal mask would hold it back from one thread alone)."""
    main = threading.current_thread() is threading.main_thread()
    before = {stop: signal.signal(stop, signal.SIG_IGN) for stop in STOPS} if main else {}
    try:
        yield
    finally:
        for stop, handler in before.items():
            if handler is not None:  # None: set outside Python, which cannot put it back
                signal.signal(stop, handler)
