"""The proof split all the way down on several processes (`optimal.prove`): with sets as small as 20 secrets handed
back as subproblems (and the younger brothers of larger ones, each alone), it proves what the search on one process
proves (the same optimum and first guess, capped, guessing possible codes only, or looking below a total), and the
tree read back from the parent's table verifies."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray

from solvers.codebreak import build, parse, verify
from solvers.codebreak.game import Game
from solvers.codebreak.optimal import average_search as search_module
from solvers.codebreak.optimal.average_search import AverageSearch, NoneBelow
from solvers.codebreak.optimal.readback import read_back
from solvers.codebreak.optimal.rules import SECOND_FREE
from solvers.codebreak.optimal.table import Tuning
from solvers.codebreak.strategy import guesses_possible_codes
from solvers.codebreak.tree import Node
from solvers.parallel import Execution

GAMES = Path(__file__).resolve().parents[2] / "games"


def game(name: str, pegs: int, colours: int) -> Game:
    return build(parse((GAMES / f"{name}.game").read_text()), {"length": pegs, "colours": colours})


CASES = [
    ("mastermind", 4, 4, {}),  # 905 (Goddard 2004)
    ("mastermind", 4, 5, {}),
    ("mastermind", 5, 3, {}),
    ("mastermind-black", 4, 4, {}),  # place-by-place symmetries
    ("mastermind", 4, 5, {"cap": 5}),
    ("mastermind", 4, 4, {"possible_only": True}),
]


@pytest.mark.parametrize(("name", "pegs", "colours", "asked"), CASES)
@pytest.mark.parametrize("split_from", [20, 60])
def test_the_split_proof_is_the_serial_one(
    name: str, pegs: int, colours: int, asked: dict[str, object], split_from: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(search_module, "PARALLEL_FROM", 1)
    g = game(name, pegs, colours).tabled()
    alone = AverageSearch(g, **asked)  # type: ignore[arg-type]
    expected = alone.solve()
    split = AverageSearch(g, Tuning(split_from=split_from), run=Execution(2), **asked)  # type: ignore[arg-type]
    found = split.solve()
    assert (found.cost, split.root_choice) == (expected.cost, alone.root_choice)
    levels = {t.level for t in split.tasks}
    # sets below those the search from the start searched itself are handed back (level 1 may have none: a worker
    # that met a small part of the start deeper may prove it first, the table being shared)
    assert levels and (max(levels) > 1 or split_from > 20)
    assert {t.level for t in alone.tasks} == {1}  # on one process: every part of the start, and nothing below
    if (name, pegs, colours) == ("mastermind", 4, 5):  # younger brothers of sets it searched itself, handed out
        assert sum(t.brother for t in split.tasks) > 100 and not any(t.brother for t in alone.tasks)
    s = np.arange(len(g.secrets), dtype=np.int32)
    tree = read_back(g, split, s, found.cost, False, split.root_choice, split.cap)
    stats = verify(g, tree)
    assert stats.verified and stats.total == found.cost
    assert not asked.get("possible_only") or guesses_possible_codes(g, tree)
    assert "cap" not in asked or stats.worst <= 5


def test_the_split_proof_below_a_total(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mastermind 4x4 (905, Goddard 2004) below 906 proves 905; below 905 it proves that none exists (`NoneBelow`)."""
    monkeypatch.setattr(search_module, "PARALLEL_FROM", 1)
    g = game("mastermind", 4, 4)
    assert AverageSearch(g, Tuning(split_from=20), run=Execution(2), under=906).solve().cost == 905
    with pytest.raises(NoneBelow, match="fewer than 905"):
        AverageSearch(g, Tuning(split_from=20), run=Execution(2), under=905).solve()


UNDER = 10**6  # a bound (not `UNBOUNDED`): the serial search may not need an experiment's later parts


def _aabc() -> tuple[Game, AverageSearch, NDArray[np.int32], int, NDArray[np.int64]]:
    """Mastermind 4x5, its search, its secrets, the first guess AABC and the sizes of AABC's parts (its win none)."""
    g = game("mastermind", 4, 5).tabled()
    search = AverageSearch(g)
    s, first = search.everyone(), g.experiments.index("AABC")
    sizes = np.bincount(search.rules.table[first, s], minlength=search.rules.outcomes)
    sizes[search.rules.win] = 0
    return g, search, s, first, sizes


def _from_the_start(
    search: AverageSearch, s: NDArray[np.int32], first: int, split: int, shared: bool
) -> tuple[int, NDArray[np.int64]]:
    """The kernel's search from the start with first alone, under UNDER, split from split, its workers sharing the
    table or not (the brothers flag): its value and the rows it handed back."""
    from solvers.codebreak.optimal.average import average

    counters, memo = search.memo.counters, search.memo
    counters["split"][0], counters["brothers"][0] = split, shared
    memo.frames.head[:], memo.handed.head[:] = 0, 0
    v = average(s, np.int64(UNDER), np.array([[0, first]]), search.rules, memo, search.sym_of(()), search.cap, 0)
    counters["split"][0], counters["brothers"][0] = 0, False
    return int(v), memo.handed.rows[: int(memo.handed.head[0])]


@pytest.mark.parametrize("shared", [True, False])
def test_the_parts_ahead_of_a_waiting_one_are_handed_back_where_workers_share_the_table(shared: bool) -> None:
    """A search from the start under a bound, every part below it handed back (split past the game): where the
    workers share the table (`average.ahead`, the schedule's brothers flag), every open part of the first guess is
    handed back at once, largest first, each budget counting the parts before it at their bounds (so never tighter
    than the serial search's, which counts their costs); else only the first, the rest waiting for its cost."""
    from solvers.codebreak.optimal.average import open_parts
    from solvers.codebreak.optimal.rules import PENDING
    from solvers.codebreak.optimal.symmetry import narrowed

    g, search, s, first, sizes = _aabc()
    v, rows = _from_the_start(search, s, first, len(s) + 1, shared)
    assert v == PENDING and (rows[:, 2] == 1).all()
    assert len(rows) == (int((sizes > 2).sum()) if shared else 1)  # parts of 2 or fewer: exact by the shortcuts
    fresh = AverageSearch(g)  # the parts' bounds as the search opened the guess, on a table as fresh as its was
    _, _, lows, total, order = open_parts(
        s, first, np.int64(UNDER), fresh.rules, fresh.memo, fresh.cap, narrowed(fresh.sym_of(()), first)
    )
    assert rows[:, 0].tolist() == [UNDER - (total - lows[o]) for o in order[: len(rows)]]  # the others at bounds
    assert [int(r[4] - r[3]) for r in rows] == sorted((int(n) for n in sizes if n > 2), reverse=True)[: len(rows)]


@pytest.mark.parametrize("shared", [True, False])
def test_past_a_waiting_part_the_parent_goes_on_into_the_next_large_one_where_workers_share_the_table(
    shared: bool,
) -> None:
    """Split at the first guess's second-largest part, so the parent searches the two largest itself: the largest
    waits on the smaller sets it hands back; where the workers share the table (`average.ahead`), the search goes
    on into the second part too and hands back its smaller sets in the same search from the start (while a long
    task is out, the other processes get work); else it stops at the first waiting part."""
    from solvers.codebreak.optimal.rules import FRAME_LEVELS, PART, PENDING

    _, search, s, first, sizes = _aabc()
    v, rows = _from_the_start(search, s, first, int(np.sort(sizes)[-2]), shared)
    below = rows[rows[:, 2] == 2]  # the sets handed back from inside a part of the first guess
    parts = set(below[:, 5 + 2 * FRAME_LEVELS].tolist())  # which part (largest first) each came from
    assert v == PENDING and len(below) and parts == ({0, 1} if shared else {0})
    assert search.memo.frames.state[0, PART] == 0  # its frames set back to the first waiting part, where it resumes


def test_a_search_with_its_log_on_hands_out_no_brother(monkeypatch: pytest.MonkeyPatch) -> None:
    """A proof log (`certificate.logging`'s) notes each set's cost as the search proves it; a younger brother's answer
    is a set's cost under one experiment alone, so a logging search hands none out, even on several processes."""
    monkeypatch.setattr(search_module, "PARALLEL_FROM", 1)
    g = game("mastermind", 4, 5)
    logged = AverageSearch(g, Tuning(split_from=60), run=Execution(2))
    logged.memo = logged.memo._replace(log=np.zeros(1 << 20, dtype=np.int64))
    assert logged.solve().cost == AverageSearch(g).solve().cost
    assert logged.tasks and not any(t.brother for t in logged.tasks)


def test_the_task_log(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every task is logged once, waits only for tasks handed out before it, and the tasks' work adds up to the
    workers' share of the proof's."""
    monkeypatch.setattr(search_module, "PARALLEL_FROM", 1)
    g = game("mastermind", 4, 5)
    search = AverageSearch(g, Tuning(split_from=40), run=Execution(2))
    found = search.solve()
    numbers = [t.number for t in search.tasks]
    assert len(numbers) == len(set(numbers))
    sent = {t.number: t.sent for t in search.tasks}
    assert all(sent.get(a, -1.0) <= t.sent for t in search.tasks for a in t.after if a in sent)
    assert all(a < t.number for t in search.tasks for a in t.after)
    assert all(t.seconds >= 0 and t.done >= t.sent >= 0 for t in search.tasks)
    assert sum(t.work for t in search.tasks) == found.work - search.work  # the workers' work, the rest the parent's
    alone = AverageSearch(g)
    here = alone.solve()  # one process: the same subproblems, run here, their work the whole proof's
    assert here.cost == found.cost and sum(t.work for t in alone.tasks) == here.work > 0


def test_a_worker_killed_mid_proof(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker process killed (SIGKILL) after ten results, with tasks still to run: the tasks that were out are
    handed out again on fresh processes, and the proof ends with the one-process optimum and a tree that verifies."""
    import os
    import signal

    from solvers.codebreak.optimal import prove

    monkeypatch.setattr(search_module, "PARALLEL_FROM", 1)
    arrived = prove.Schedule._arrived
    seen: list[int] = []
    killed: list[int] = []

    def arrive_and_kill(self: prove.Schedule, number: int, future: object, *rest: object) -> bool:
        seen.append(number)
        if len(seen) >= 10 and (self.waiting or self.running) and not killed:  # work left to hand out again
            killed.append(number)
            assert isinstance(self.executor, prove.Forked)
            os.kill(next(iter(self.executor.pool._processes.values())).pid or 0, signal.SIGKILL)
        return arrived(self, number, future, *rest)  # type: ignore[arg-type]

    g = game("mastermind", 4, 5).tabled()
    expected = AverageSearch(g).solve().cost
    monkeypatch.setattr(prove.Schedule, "_arrived", arrive_and_kill)
    search = AverageSearch(g, Tuning(split_from=20), run=Execution(2))
    found = search.solve()
    assert found.cost == expected and search.restarts == 1
    s = np.arange(len(g.secrets), dtype=np.int32)
    stats = verify(g, read_back(g, search, s, found.cost, False, search.root_choice))
    assert stats.verified and stats.total == expected


def tree_total(node: Node | None) -> int:
    """The guesses a tree of a must-hit game makes over its secrets (each secret counts the guesses up to and
    including the one that hits it)."""
    if node is None:
        return 0
    return node.secrets + sum(tree_total(child) for child in node.children.values())


def test_a_cluster_task_hands_back_the_optimal_tree_of_what_it_settled() -> None:
    """A cluster's worker has a table of its own, so what it settles exactly comes back as entries (`prove.share`
    with entries): the largest parts of Mastermind 4x4's first guesses AABB and AABC. A fresh search that adopts
    them reads back their costs and trees of those totals without searching anything."""
    from solvers.codebreak.optimal import prove
    from solvers.codebreak.optimal.rules import BIG, UNCAPPED, below

    g = game("mastermind", 4, 4).tabled()
    worker = AverageSearch(g)
    s = worker.everyone()
    found = []
    prove.share(worker, entries=True)
    try:
        for first in (g.experiments.index("AABB"), g.experiments.index("AABC")):
            outcomes = worker.rules.table[first, s]
            part = s[outcomes == np.bincount(outcomes).argmax()]  # the largest part
            found.append((part, prove.in_worker(part, int(BIG), (first,), below(UNCAPPED))))
    finally:
        prove.share(None)
    parent = AverageSearch(g)
    for _, answer in found:
        assert answer.exact and answer.entries and answer.choice >= 0
        parent.adopt(list(answer.entries))
    for part, answer in found:
        cost, choice = parent.best_of(part, answer.value, below(UNCAPPED))
        assert (cost, choice) == (answer.value, answer.choice)
        tree = read_back(g, parent, part, cost, False)
        assert tree_total(tree) == answer.value
    assert parent.work == 0  # read back from the entries alone


def test_how_a_search_runs_is_its_entry_points_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search runs where the `Execution` it is given says, whatever the environment: in its own process by
    default, on forked processes when told; the entry points' `search_run` reads COIN_PUZZLES_JOBS and
    COIN_PUZZLES_CLUSTER, and nothing in solvers/ below `parallel` reads them (a search's modules name neither)."""
    from webapp.results.cluster import search_run

    monkeypatch.setenv("COIN_PUZZLES_JOBS", "4")
    monkeypatch.delenv("COIN_PUZZLES_CLUSTER", raising=False)
    g = game("mastermind", 4, 7).tabled()  # 2,401 secrets: large enough to split
    alone = AverageSearch(g)
    assert (alone.jobs, alone.split, alone.engine) == (1, False, None)
    two = AverageSearch(g, run=Execution(2))
    assert (two.jobs, two.split, two.engine) == (2, True, None)
    small = AverageSearch(game("mastermind", 4, 6).tabled(), run=Execution(2))  # 1,296: one process finishes first
    assert (small.split, small.engine) == (False, None)
    assert search_run() == Execution(4)
    monkeypatch.setenv("COIN_PUZZLES_CLUSTER", "10.0.0.1:6379")
    assert search_run().connect is not None
    solvers = Path(__file__).resolve().parents[2] / "solvers"
    readers = sorted(
        str(p.relative_to(solvers))
        for p in solvers.rglob("*.py")
        if any(name in p.read_text() for name in ("COIN_PUZZLES_JOBS", "COIN_PUZZLES_CLUSTER", "default_jobs("))
    )
    assert readers == ["parallel.py"], readers


def test_the_split_second_free_proof_is_the_serial_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under the second-free rule (`rules.SECOND_FREE`: the sets one guess below the start may be guessed any code,
    the others possible codes only), the split proof hands out younger brothers of free sets too and proves what one
    process proves: Mastermind 4x5's optimum and first guess, its tree verified and possible from the third guess."""
    monkeypatch.setattr(search_module, "PARALLEL_FROM", 1)
    g = game("mastermind", 4, 5).tabled()
    rule = {"cap": SECOND_FREE, "possible_only": True}
    alone = AverageSearch(g, **rule)  # type: ignore[arg-type]
    expected = alone.solve()
    split = AverageSearch(g, Tuning(split_from=60), run=Execution(2), **rule)  # type: ignore[arg-type]
    found = split.solve()
    assert (found.cost, split.root_choice) == (expected.cost, alone.root_choice)
    assert sum(t.brother for t in split.tasks) > 0
    s = np.arange(len(g.secrets), dtype=np.int32)
    tree = read_back(g, split, s, found.cost, False, split.root_choice, SECOND_FREE)
    stats = verify(g, tree)
    assert stats.verified and stats.total == found.cost and guesses_possible_codes(g, tree, from_depth=2)


def test_a_subproblem_goes_on_below_the_budget_its_schedule_needs_now() -> None:
    """A subproblem whose slot's ceiling (`Memo.ceilings`, which the schedule lowers as answers come in) is below its
    budget is searched below the ceiling (`sets.lowered`): exact where its cost is below it, else a lower bound at
    least the ceiling and at most its cost (the cost one process proves with no ceiling); a total found at or above
    a ceiling lowered as the search runs is refuted, one below it stands, and the start's frame says the budget."""
    from solvers.codebreak.optimal.prove import Found, settle
    from solvers.codebreak.optimal.rules import BETA, BIG
    from solvers.codebreak.optimal.sets import lowered

    g = game("mastermind", 4, 5).tabled()
    first, s = g.experiments.index("AABC"), np.arange(len(g.secrets), dtype=np.int32)
    outcomes = AverageSearch(g).rules.table[first, s]
    part = s[outcomes == np.bincount(outcomes).argmax()]  # the largest part (its cost is not a shortcut's)

    def found(ceiling: int, slot: int = 3) -> Found:
        search = AverageSearch(g)
        search.memo.ceilings[3] = ceiling
        return settle(search, False, part, 10**6, (first,), search.depth_at(1), -1, slot)

    cost = found(0, -1).value  # no slot: no ceiling
    assert found(0, -1).exact and len(part) < cost < 10**6
    assert all(found(ceiling)[:2] == (cost, True) for ceiling in (cost + 1, 10**7))
    for ceiling in (cost, cost - 1, cost - 40):
        bound = found(ceiling)
        assert not bound.exact and ceiling <= bound.value <= cost
    assert found(cost - 40).work < found(0, -1).work  # the kernel itself searched below it (not `settle` alone)
    memo = AverageSearch(g).memo
    memo.counters["slot"][0], memo.ceilings[0] = 0, 50
    refuted = 80  # the least total refuted so far
    assert [int(x) for x in lowered(memo, 0, np.int64(100), np.int64(40), 7, np.int64(refuted))] == [50, 40, 7, 80]
    assert memo.frames.state[0, BETA] == 50
    assert [int(x) for x in lowered(memo, 0, np.int64(100), np.int64(60), 7, np.int64(refuted))] == [50, 50, -1, 60]
    assert [int(x) for x in lowered(memo, 0, np.int64(100), np.int64(100), -1, BIG)] == [50, 50, -1, BIG]
    assert [int(x) for x in lowered(memo, 1, np.int64(100), np.int64(60), 7, BIG)] == [100, 60, 7, BIG]  # below it
    memo.ceilings[0] = 100
    assert [int(x) for x in lowered(memo, 0, np.int64(100), np.int64(60), 7, BIG)] == [100, 60, 7, BIG]


def test_the_schedule_lowers_the_ceiling_of_a_subproblem_out_once_the_search_from_the_start_needs_less(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two processes sharing the table, stood in for by an executor that settles each subproblem here as it is handed
    out but holds back the answers of younger brothers (a set under one experiment alone, handed out with the
    budget its parent set had then): the parent set's first experiment settles, so the search from the start needs
    a brother below less than the budget it went out with, and the schedule lowers its slot's ceiling to that
    (`Schedule._refresh`) instead of handing it out again; a held answer comes in once its ceiling falls or
    nothing else runs, and the proof is the serial one."""
    from concurrent.futures import Future

    from solvers.codebreak.optimal import prove

    monkeypatch.setattr(search_module, "PARALLEL_FROM", 1)
    g = game("mastermind", 4, 5).tabled()
    serial = AverageSearch(g).solve().cost
    held: list[tuple[int, int, Future[prove.Found], prove.Found]] = []  # slot, budget, future, answer
    lowered: list[tuple[int, int]] = []  # (budget it went out with, its ceiling now)

    class Holding:
        jobs, lost = 2, ()

        def __init__(self, search: AverageSearch, jobs: int) -> None:
            self.search = search

        def submit(self, s: object, budget: int, *rest: int) -> Future[prove.Found]:
            future: Future[prove.Found] = Future()
            found = prove.settle(self.search, False, s, budget, *rest)  # type: ignore[arg-type]
            if rest[2] >= 0:  # a younger brother: its answer held back
                held.append((rest[3], budget, future, found))
            else:
                future.set_result(found)
            return future

        def close(self) -> None: ...

    refresh, take = prove.Schedule._refresh, prove.Schedule._next

    def refreshed(self: prove.Schedule, path: tuple[int, ...]) -> int:
        again = refresh(self, path)
        for slot, out, future, answer in held:
            if not future.done() and self.search.memo.ceilings[slot] < out:  # lowered where it runs: answered
                lowered.append((out, int(self.search.memo.ceilings[slot])))
                future.set_result(answer)
        return again

    def taken(self: prove.Schedule) -> tuple[int, Future[prove.Found]] | None:
        pending = [h for h in held if not h[2].done()]
        if pending and self.results.empty() and {r[3] for r in self.running.values()} <= {h[0] for h in pending}:
            pending[0][2].set_result(pending[0][3])  # nothing else runs: the oldest held answer comes in
        return take(self)

    monkeypatch.setattr(prove, "Forked", Holding)
    monkeypatch.setattr(prove.Schedule, "_refresh", refreshed)
    monkeypatch.setattr(prove.Schedule, "_next", taken)
    split = AverageSearch(g, Tuning(split_from=40), run=Execution(2), under=serial + 1)
    assert split.solve().cost == serial
    assert held and lowered and all(now < out for out, now in lowered), (len(held), lowered)
