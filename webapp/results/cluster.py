"""The proofs' cluster: Ray (docs/decisions.md), when COIN_PUZZLES_CLUSTER names one.

Without it a split proof runs on processes forked from the one proving (`solvers.parallel`), which share its table.
With it, the split's tasks go to the cluster's workers, on every machine that joined it:
- COIN_PUZZLES_CLUSTER=host:port: the cluster whose head listens there (`ray start --head --port=...`, and
  `ray start --address=host:port` on each other machine: docs/operations.md);
- COIN_PUZZLES_CLUSTER=local: a Ray of its own on this machine, started by the proof and ended with it.

Each worker process rebuilds the search once per proof (`average_search.rebuilt`, the game read from Ray's object
store, once per machine) with a table of its own, and hands back the optimal tree of each task it settles exactly,
as table entries; the proving process keeps them in its table and in its checkpoint (the result store: Redis when
shared), so a restarted proof resumes from them. Ray hands a task out again when its worker or machine is lost
(RETRIES times), and a proof past that fails with a message (`WorkersLost`).

Ray is imported only when a split proof first needs the cluster: a command or a page never waits for it.
"""

from __future__ import annotations

import contextlib
import copy
import logging
import os
import resource
import signal
import socket
import sys
import threading
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from typing import Any

import numpy as np

from solvers.errors import LimitError, Paused
from solvers.halt import halt, halted
from solvers.parallel import Execution, default_jobs

VARIABLE = "COIN_PUZZLES_CLUSTER"
LOCAL = "local"  # the variable's value for a Ray of the proof's own on this machine
RETRIES = 3  # times Ray hands a task out again after its worker process or machine was lost
NAMESPACE = "coin-puzzles"
REACH_SECONDS = 5  # a cluster's head that does not answer this soon is not there


class ClusterError(LimitError):
    """The cluster named by COIN_PUZZLES_CLUSTER cannot be joined (or has no CPU): the proof fails, saying so."""


def search_run() -> Execution:
    """How a proof started here runs (an entry point's choice: a job, a command): on COIN_PUZZLES_CLUSTER's cluster
    when it names one (joined at the first proof that needs it), else on COIN_PUZZLES_JOBS processes (default: every
    core this process may use)."""
    address = os.environ.get(VARIABLE, "").strip()
    return Execution(default_jobs(), (lambda: joined(address)) if address else None)


_engine: RayEngine | None = None  # this process's connection to the cluster


def joined(address: str) -> RayEngine:
    """This process's connection to the cluster at address (made once)."""
    global _engine
    if _engine is None:
        _engine = RayEngine(address)
    return _engine


def reachable(address: str) -> None:
    """ClusterError unless something listens at address (host:port) within REACH_SECONDS."""
    host, _, port = address.rpartition(":")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=REACH_SECONDS).close()
    except (OSError, ValueError) as e:
        why = "not host:port" if isinstance(e, ValueError) else str(e) or type(e).__name__
        raise ClusterError(f"the proofs' cluster at {address!r} ({VARIABLE}) cannot be reached: {why}") from e


@contextlib.contextmanager
def _stop_handlers_kept() -> Iterator[None]:
    """While Ray joins: its calls to put a handler of its own in place of SIGTERM's or SIGINT's are not carried
    out (Ray's, sys.exit, would raise SystemExit wherever the process stood, even where Python only prints it, as
    in a fork's lock hooks), so a stop halts there as anywhere in a proof."""
    original = signal.signal

    def kept(signum: int, handler: Any) -> Any:
        return signal.getsignal(signum) if signum in (signal.SIGTERM, signal.SIGINT) else original(signum, handler)

    signal.signal = kept  # type: ignore[assignment]
    try:
        yield
    finally:
        signal.signal = original


class RayEngine:
    """A split proof's tasks on a Ray cluster (`solvers.parallel.Engine`)."""

    def __init__(self, address: str) -> None:
        import ray

        # a job's memory budget (`jobs.limit_memory`) does not hold here: Ray maps the cluster's whole object store
        # (shared memory, 30% of a machine's by default) into every process that joins it, while the proof that
        # joins keeps only its game and its table of proved sets
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        resource.setrlimit(resource.RLIMIT_AS, (hard, hard))
        if address != LOCAL:
            reachable(address)  # Ray itself would retry for minutes
        # ray.init puts a SIGTERM handler of its own (sys.exit) in the place of this process's: a stop would then
        # raise SystemExit wherever the proof stood instead of halting it (`webapp.jobs.halting`), losing its frames
        # and logging a traceback: its calls to replace them are not carried out meanwhile, and the handlers there
        # before are put back once it returned (a stop meanwhile: Paused)
        main = threading.current_thread() is threading.main_thread()
        handlers = {stop: signal.getsignal(stop) for stop in (signal.SIGTERM, signal.SIGINT)} if main else {}
        try:
            with _stop_handlers_kept():
                ray.init(
                    address=None if address == LOCAL else address,
                    namespace=NAMESPACE,
                    log_to_driver=False,
                    logging_level=logging.ERROR,
                    include_dashboard=False if address == LOCAL else None,
                )
        except (ConnectionError, RuntimeError, ValueError) as e:
            first = str(e).splitlines()[0][:200] if str(e) else type(e).__name__
            raise ClusterError(f"the proofs' cluster at {address!r} ({VARIABLE}) cannot be joined: {first}") from e
        except SystemExit as e:  # a stop while Ray's handler stood: halted before it began, not an error
            if e.code != signal.SIGTERM:
                raise
            halt()
            raise Paused([]) from None
        finally:
            for stop, handler in handlers.items():
                if handler is not None:  # None: not set from Python, which cannot put it back
                    signal.signal(stop, handler)
        if halted():  # stopped while it joined (a stop Ray's handler met where Python ignores exceptions too): it
            ray.shutdown()  # leaves at once (a local cluster's processes stopped); at its exit Ray's own shutdown
            raise Paused([])  # would wait a minute for a cluster gone meanwhile, then end the process with status 1
        resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
        cpus = int(resources.get("CPU", 0))
        if cpus < 1:
            raise ClusterError(f"the proofs' cluster at {address!r} ({VARIABLE}) has no CPU to run a task on")
        self.jobs = cpus
        print(f"coin-puzzles: split proofs go to the cluster at {address} ({cpus} CPUs)", file=sys.stderr, flush=True)
        self.lost: tuple[type[BaseException], ...] = (
            ray.exceptions.WorkerCrashedError,
            ray.exceptions.NodeDiedError,
            ray.exceptions.ObjectLostError,
            ray.exceptions.OwnerDiedError,
            ray.exceptions.RayActorError,
            ray.exceptions.LocalRayletDiedError,
            ray.exceptions.TaskCancelledError,
        )
        self._pool: RayPool | None = None

    def start(self, game: Any, recipe: Callable[[Any], Any]) -> RayPool:
        """A proof's pool; the game put in the object store once."""
        import ray

        # the handles inside lists, so that Ray hands a task the handles, not what they name (read once a process)
        proof = ray.put(recipe([ray.put(game)]))
        self._pool = RayPool(uuid.uuid4().hex, [proof])
        return self._pool

    def stop(self) -> None:
        """Cancel the proof's tasks still out."""
        if self._pool is not None:
            self._pool.cancel()
        self._pool = None


class RayPool:
    """A proof's tasks as Ray tasks (`solvers.parallel.Pool`), each run by `run` with the proof's recipe."""

    def __init__(self, key: str, proof: list[Any]) -> None:
        import ray

        self.key, self.proof = key, proof
        self.remote = ray.remote(run).options(
            num_cpus=1, max_retries=RETRIES, retry_exceptions=False, scheduling_strategy="SPREAD"
        )
        self.out: dict[Any, None] = {}  # tasks handed out, not answered yet

    def submit(self, fn: Callable[..., Any], /, *args: Any) -> Future[Any]:
        ref = self.remote.remote(self.key, self.proof, fn, args)
        self.out[ref] = None
        future: Future[Any] = ref.future()
        future.add_done_callback(lambda _: self.out.pop(ref, None))
        return future

    def cancel(self) -> None:
        """Cancel every task still out (one running is interrupted once its kernel is back in Python)."""
        import ray

        for ref in self.out.copy():  # a copy made at once (Ray's thread drops the answered ones meanwhile)
            ray.cancel(ref)
        self.out.clear()


_held: tuple[str, Any] | None = None  # a worker process's search: (its proof's key, the search)


def run(key: str, proof: list[Any], fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    """One task in a cluster's worker process: the proof's search rebuilt at its first task here (an earlier
    proof's dropped first) from its recipe (proof: its handle), then fn(*args) with it."""
    global _held
    if _held is None or _held[0] != key:
        import ray

        from solvers.codebreak.optimal.average_search import rebuilt

        _held = None
        recipe = ray.get(proof[0])
        # copies: the object store's arrays are read-only, which the kernels were not compiled for
        search = rebuilt(recipe, copy.deepcopy(ray.get(recipe.game[0])))
        search.load_kernels()
        _held = (key, search)
    from solvers.codebreak.optimal.prove import share

    share(_held[1], entries=True)
    return fn(*(copy.copy(a) if isinstance(a, np.ndarray) else a for a in args))  # writable, as above
