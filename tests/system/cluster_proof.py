"""Proofs through a real Ray cluster, in a process of its own that joins the cluster COIN_PUZZLES_CLUSTER names (run
by test_cluster.py): Mastermind 4x5 and 4x6 by the site's own call (`solve`), each tree verified on every secret;
then 4x6 again with a worker process SIGKILLed as soon as one runs a task. One JSON line per proof: the proved
total, whether the tree verified, its first guess, the parents (raylets) of every worker process seen running a
task, and the worker killed (with whether the proof was still running then)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
import time
from pathlib import Path

from solvers.codebreak import build, parse
from solvers.codebreak.optimal import average_search
from solvers.codebreak.solve import TreeRequest, solve
from webapp.cluster import install

GAMES = Path(__file__).resolve().parents[2] / "games"
SAMPLE_SECONDS = 0.02


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


def main() -> None:
    install()
    average_search.PARALLEL_FROM = 1  # 4x5 (625 secrets) is split too: the site splits games from 1,000
    spec = parse((GAMES / "mastermind.game").read_text())
    for pegs, colours, kill in [(4, 5, False), (4, 6, False), (4, 6, True)]:
        game = build(spec, {"length": pegs, "colours": colours}).tabled()
        parents: set[int] = set()
        killed: list[tuple[int, float]] = []
        done = threading.Event()
        watcher = threading.Thread(target=watch, args=(parents, kill, killed, done), daemon=True)
        watcher.start()
        tree, stats = solve(TreeRequest(game, "optimal-average"))
        ended = time.monotonic()
        done.set()
        watcher.join()
        row = {
            "pegs": pegs,
            "colours": colours,
            "total": stats.total,
            "verified": stats.verified,
            "first": game.experiments[tree.experiment] if tree.experiment is not None else None,
            "parents": sorted(parents),
            "killed": killed[0][0] if killed else None,
            "killed_mid_proof": bool(killed) and killed[0][1] < ended,
        }
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
