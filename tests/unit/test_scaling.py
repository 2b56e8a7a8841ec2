"""The parallel proof's task log and the scaling benchmark's schedule (`benchmarks/scaling.py`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from solvers.codebreak import build, parse
from solvers.codebreak.optimal import average_search
from solvers.codebreak.optimal.average_search import AverageSearch

GAMES = Path(__file__).resolve().parents[2] / "games"


def test_the_task_log_has_one_task_per_first_guess_handed_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mastermind 4x4 (905, Goddard 2004) on two processes: one task per first guess handed out, in the order
    they were handed out, their work adding up to the workers' share, and the winner's task exact."""
    monkeypatch.setattr(average_search, "PARALLEL_FROM", 100)  # the forked workers on a small game
    g = build(parse((GAMES / "mastermind.game").read_text()), {"length": 4, "colours": 4})
    search = AverageSearch(g, jobs=2)
    found = search.solve()
    tasks = sorted(search.tasks, key=lambda t: t.first)
    assert found.cost == 905 and tasks and [t.first for t in tasks] == list(range(len(tasks)))
    assert all(t.seconds >= 0 and t.done >= t.sent >= 0 for t in tasks)
    assert sum(t.work for t in tasks) == found.work - search.work
    cands = search.root_candidates(search.everyone(), search.root_allowed())
    assert any(t.exact for t in tasks if int(cands[t.first][1]) == search.root_choice)
    alone = AverageSearch(g, jobs=1)
    assert alone.solve().cost == 905 and alone.tasks == []  # one process: no tasks


def test_the_simulated_schedule() -> None:
    """List scheduling: each task on the first process free; never before the longest task or the total over the
    processes."""
    from benchmarks.scaling import makespan

    assert makespan([3.0, 1.0, 1.0, 1.0], 1) == 6.0
    assert makespan([3.0, 1.0, 1.0, 1.0], 2) == 3.0
    assert makespan([1.0, 1.0, 1.0, 3.0], 2) == 4.0  # the order handed out matters
    assert makespan([1.0, 2.0], 8) == 2.0
