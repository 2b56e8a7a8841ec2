"""Proofs through a real Ray cluster, in a process of its own that joins the cluster COIN_PUZZLES_CLUSTER names (run
by test_cluster.py): Mastermind 4x5 by the site's own call (`solve`), its tree verified on every secret; 4x6 with a
worker process SIGKILLed as soon as one runs a task, keeping a checkpoint; and 4x6 once more, resumed from it. One
JSON line per proof: the proved total, whether the tree verified, its first guess, the parents (raylets) of every
worker process seen running a task, and the worker killed (with whether the proof was still running then); the
resumed run's line adds the checkpoint's entries and the serial search's first guess. Then 4x6 afresh, stopped by a
SIGTERM once a task runs: whether it halted (Paused), what it kept, and whether this process's handler survived."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
import time
from pathlib import Path

import numpy as np

from solvers.checkpoint import Entry
from solvers.codebreak import build, parse, verify
from solvers.codebreak.game import Game
from solvers.codebreak.optimal import average_search
from solvers.codebreak.optimal.average_search import AverageSearch
from solvers.codebreak.optimal.readback import read_back
from solvers.codebreak.solve import TreeRequest, solve
from solvers.codebreak.strategy import Proving
from solvers.errors import Paused
from webapp.jobs.halting import halt_on_signals
from webapp.results.cluster import search_run

GAMES = Path(__file__).resolve().parents[2] / "games"
SAMPLE_SECONDS = 0.2  # the workers run tasks throughout a proof (a scan of /proc costs milliseconds)


def running_tasks() -> list[tuple[int, int]]:
    """(pid, parent pid) of the cluster's worker processes running a task of a proof (Ray names them after the
    function)."""
    out = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and (proc / "cmdline").read_bytes().startswith(b"ray::run"):
                ppid = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
                out.append((int(proc.name), ppid))
        except (OSError, ValueError, IndexError):  # a process that ended meanwhile
            continue
    return out


def watch(parents: set[int], kill: bool, killed: list[tuple[int, float]], done: threading.Event) -> None:
    """Until done: note the parent of every worker process running a task; if kill, SIGKILL the first one seen."""
    while not done.is_set():
        for pid, ppid in running_tasks():
            parents.add(ppid)
            if kill and not killed:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                    killed.append((pid, time.monotonic()))
        time.sleep(SAMPLE_SECONDS)


class Kept:
    """A proof's checkpoint in memory (the site's is in its result store)."""

    def __init__(self) -> None:
        self.entries: list[Entry] = []

    def known(self) -> list[Entry]:
        return list(self.entries)

    def keep(self, entries: list[Entry]) -> None:
        self.entries += entries


def main() -> None:
    halt_on_signals(interrupt=False)  # as in a job's process: a stop halts the proof
    handler = signal.getsignal(signal.SIGTERM)
    average_search.CLUSTER_FROM = 1  # 4x5 (625 secrets) goes to the cluster too: the site's from 1,000
    spec = parse((GAMES / "mastermind.game").read_text())
    kept = Kept()
    for pegs, colours, kill in [(4, 5, False), (4, 6, True)]:
        game = build(spec, {"length": pegs, "colours": colours}).tabled()
        parents: set[int] = set()
        killed: list[tuple[int, float]] = []
        done = threading.Event()
        watcher = threading.Thread(target=watch, args=(parents, kill, killed, done), daemon=True)
        watcher.start()
        began = time.monotonic()
        if kill:  # with a checkpoint, which the site's call keeps in its store
            row = prove(game, kept)
        else:
            tree, stats = solve(TreeRequest(game, "optimal-average", proving=Proving(run=search_run())))
            first = game.experiments[tree.experiment] if tree.experiment is not None else None
            row = {"total": stats.total, "verified": stats.verified, "first": first}
        ended = time.monotonic()
        done.set()
        watcher.join()
        row |= {
            "pegs": pegs,
            "colours": colours,
            "parents": sorted(parents),
            "killed": killed[0][0] if killed else None,
            "killed_mid_proof": bool(killed) and killed[0][1] < ended,
            "seconds": round(ended - began, 1),
        }
        print(json.dumps(row), flush=True)
    # a run resumed from what the killed run kept (sent back by the cluster's workers): the same optimum
    began = time.monotonic()
    row = prove(game, kept) | {"kept": len(kept.entries), "seconds": round(time.monotonic() - began, 1)}
    alone = AverageSearch(game)  # the serial search, in this process
    alone.solve()
    print(json.dumps(row | {"serial_first": game.experiments[alone.root_choice]}), flush=True)

    # a stop (SIGTERM, as a job's stopping worker sends it) while 4x6 is proved afresh on the cluster: halted, with
    # what it proved kept, as a job on one machine (Ray's driver puts a handler of its own in the place of this one)
    fresh = Kept()
    threading.Thread(target=stop_at_first_task, daemon=True).start()
    try:
        prove(game, fresh)
        stopped = False
    except Paused:
        stopped = True
    print(json.dumps({"stopped": stopped, "kept": len(fresh.entries), "handler_kept": signal.getsignal(signal.SIGTERM)
                      is handler}), flush=True)  # fmt: skip


def stop_at_first_task() -> None:
    """SIGTERM to this process as soon as a worker of the cluster runs a task."""
    while not running_tasks():
        time.sleep(SAMPLE_SECONDS / 4)
    os.kill(os.getpid(), signal.SIGTERM)


def prove(game: Game, kept: Kept) -> dict[str, object]:
    """The optimal average proved on the cluster with a checkpoint (resumed from what it holds): the total of the
    tree read back, whether it verified, its first guess, and the proof's work (secrets of every set searched)."""
    search = AverageSearch(game, checkpoint=kept, run=search_run())  # the cluster COIN_PUZZLES_CLUSTER names
    found = search.solve()
    s = np.arange(len(game.secrets), dtype=np.int32)
    stats = verify(game, read_back(game, search, s, found.cost, False, search.root_choice))
    first = game.experiments[search.root_choice]
    brothers = sum(t.brother for t in search.tasks)  # a cluster's workers have tables of their own: none handed out
    return {"total": stats.total, "verified": stats.verified, "first": first, "work": found.work, "brothers": brothers,
            "tasks": len(search.tasks)}  # fmt: skip


if __name__ == "__main__":
    main()
