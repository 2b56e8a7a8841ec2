"""Mastermind with possible codes only, except the second guess, which may be any code (`optimal.second_free`):
against an exhaustive search written here on small games, and the published 4x6 figure."""

from __future__ import annotations

import pytest

from solvers.codebreak import build
from solvers.codebreak.optimal.second_free import second_free, second_free_bound
from solvers.codebreak.strategy import guesses_possible_codes
from tests.oracle import second_free_total, second_free_totals
from tests.unit.test_codebreak import spec


@pytest.mark.parametrize(("pegs", "colours"), [(2, 3), (2, 4), (3, 2), (3, 3), (2, 5), (3, 4), (4, 3)])
def test_second_guess_free_equals_the_exhaustive_search(pegs: int, colours: int) -> None:
    """(4x3: 246, where possible codes only need 247.)"""
    g = build(spec("mastermind"), {"length": pegs, "colours": colours}).tabled()
    found = second_free(g)
    assert found.total == second_free_total(pegs, colours) == found.stats.total and found.stats.verified


@pytest.mark.proof
def test_mastermind_3x6_where_the_three_rules_differ() -> None:
    """3x6: 856 under this rule against the exhaustive search (two minutes here), where every code as a guess
    gives 854 and possible codes only 864."""
    g = build(spec("mastermind"), {"length": 3, "colours": 6}).tabled()
    assert second_free(g).total == second_free_total(3, 6) == 856


def test_mastermind_4x6_second_guess_free_is_5636() -> None:
    """5,636 over 1,296 secrets, as the supermastermind site gives it for this rule (quoted in issue 66): between
    the possible-codes-only optimum, 5,660 (same site), and the unrestricted one, 5,625 (Koyama and Lai 1993). Its
    tree verifies on every secret and guesses only possible codes from the third guess on, not from the second."""
    g = build(spec("mastermind"), {"length": 4, "colours": 6}).tabled()
    ticks: list[tuple[int, int]] = []
    found = second_free(g, tick=lambda done, of: ticks.append((done, of)))
    assert found.total == 5636 and found.stats.verified and found.stats.total == 5636
    # progress as the first guesses' parts settle: the chosen first guess's all do (every secret but itself)
    assert all(0 < done <= of for done, of in ticks) and max(done for done, _ in ticks) >= 1296 - 1
    assert guesses_possible_codes(g, found.tree, from_depth=2)
    assert not guesses_possible_codes(g, found.tree, from_depth=1)  # some second guess is not a possible code


def test_a_possible_only_proofs_table_does_not_answer_for_a_free_second_guess(monkeypatch: pytest.MonkeyPatch) -> None:
    """Super Mastermind's run resumes from the possible-codes-only proof's checkpoint, whose entries hold the parts
    of the first guesses at their possible-only costs: those must not stand for the parts' costs with any code as
    the second guess (a run from them gave 179,792 for Super Mastermind, above the published 179,274), nor may what
    this rule settles stand for a possible-only cost. On 4x6 from a finished possible-only proof's entries: still
    5,636, not 5,660; and a possible-only proof from what that run kept: still 5,660."""
    from solvers.codebreak.optimal import average_search as search_module
    from solvers.codebreak.optimal.average_search import AverageSearch
    from tests.unit.test_codebreak_checkpoint import Kept

    monkeypatch.setattr(search_module, "KEEP_WORK", 0)  # what is settled is kept at once

    g = build(spec("mastermind"), {"length": 4, "colours": 6}).tabled()
    kept = Kept()
    assert AverageSearch(g, checkpoint=kept, possible_only=True).solve().cost == 5660
    found = second_free(g, checkpoint=Kept(kept.batches))
    assert found.total == 5636 and found.stats.verified and found.stats.total == 5636
    free = Kept()
    assert second_free(g, checkpoint=free).total == 5636
    assert free.batches  # what it settled was kept, and holds no part at its cost under this rule:
    assert AverageSearch(g, checkpoint=Kept(free.batches), possible_only=True).solve().cost == 5660


@pytest.mark.parametrize("jobs", [1, 2])
def test_only_below_a_total_and_on_two_processes(jobs: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Looking only below the published 5,636 proves that none is below it (NoneBelow); one more finds it, on one
    process and split over two (forked workers search the parts, their sets free to be guessed any code)."""
    from solvers.codebreak.optimal import average_search as search_module
    from solvers.codebreak.optimal.average_search import NoneBelow
    from solvers.parallel import Execution

    monkeypatch.setattr(search_module, "PARALLEL_FROM", 1)
    g = build(spec("mastermind"), {"length": 4, "colours": 6}).tabled()
    with pytest.raises(NoneBelow):
        second_free(g, run=Execution(jobs), under=5636)
    found = second_free(g, run=Execution(jobs), under=5637)
    assert found.total == 5636 and found.stats.verified


def test_a_free_set_is_bounded_as_if_every_code_were_allowed() -> None:
    """The bound one guess deeper at a free set (`rules.free`) under possible-codes-only rules is the unrestricted
    rules' bound, never the possible-only one (which is higher where a code outside the set splits it better: it
    would cut the optimum off); and a cap past UNCAPPED means nothing but SECOND_FREE."""
    import numpy as np

    from solvers.codebreak.optimal.average_search import AverageSearch
    from solvers.codebreak.optimal.candidates import lookahead
    from solvers.codebreak.optimal.rules import SECOND_FREE, UNCAPPED
    from solvers.codebreak.strategy import check_options
    from solvers.errors import InputError

    g = build(spec("mastermind"), {"length": 3, "colours": 4}).tabled()
    only, every = AverageSearch(g, possible_only=True), AverageSearch(g)
    rng = np.random.default_rng(5)
    higher = 0
    for _ in range(200):
        s = np.sort(rng.choice(64, size=int(rng.integers(3, 20)), replace=False)).astype(np.int32)
        free = int(lookahead(s, only.rules, only.rules.everything, True))
        assert free == int(lookahead(s, every.rules, every.rules.everything, False))
        higher += int(lookahead(s, only.rules, only.rules.everything, False)) > free
    assert higher  # the rules differ on these sets, so the test tells them apart
    with pytest.raises(ValueError):
        AverageSearch(g, cap=UNCAPPED + 3)
    assert AverageSearch(g, cap=SECOND_FREE, possible_only=True).cap == SECOND_FREE
    with pytest.raises(InputError):
        check_options("optimal-average", UNCAPPED + 1, False)


@pytest.mark.parametrize(("pegs", "colours"), [(2, 4), (3, 3), (3, 4), (4, 3)])
def test_a_bound_from_the_first_guess_of_every_class_reaches_the_exhaustive_optimum(pegs: int, colours: int) -> None:
    """`second_free_bound` (the best of the first few second guesses in each part, possible codes only below): over
    the sorted codes as first guesses (one of each class at least), every second guess tried, its least total from
    each is the exhaustive search's from that first guess (the least of them its optimum); with fewer tried it is
    never below that (a strategy of the rule, its tree verified)."""
    g = build(spec("mastermind"), {"length": pegs, "colours": colours}).tabled()
    each = second_free_totals(pegs, colours)
    best = min(each)
    firsts = [i for i, c in enumerate(g.experiments) if c == "".join(sorted(c))]  # every first guess's class
    assert [second_free_bound(g, first).total for first in firsts] == [each[first] for first in firsts]
    for first in firsts:
        for per_part in (1, 2):
            bound = second_free_bound(g, first, per_part)
            assert bound.total >= best and bound.stats.verified
            assert guesses_possible_codes(g, bound.tree, from_depth=2)


class _Stop(Exception):
    """A stop in the middle of a strategy's search."""


def test_a_strategy_stopped_between_second_guesses_goes_on_where_it_stood(monkeypatch: pytest.MonkeyPatch) -> None:
    """`second_free_bound` stopped after its k-th report and run again with what it kept ends with the same parts'
    totals and second guesses as a run never stopped, and tries no second guess twice (its reports, one a second
    guess, add up to the unstopped run's)."""
    from solvers.codebreak.optimal import second_free as module

    monkeypatch.setattr(module, "STEP", 1)  # a report after every second guess
    g = build(spec("mastermind"), {"length": 3, "colours": 4}).tabled()
    first = g.experiments.index("AAB")
    whole: module.PartBests = {}
    reports: list[int] = []
    best = second_free_bound(g, first, kept=whole, told=lambda kept: reports.append(1))
    assert len(reports) > 10 and best.stats.verified
    for k in (1, len(reports) // 2, len(reports) - 1):
        kept: module.PartBests = {}
        calls: list[int] = []

        def told(kept: module.PartBests, calls: list[int] = calls, stop_at: int = k) -> None:
            calls.append(1)
            if len(calls) == stop_at:
                raise _Stop

        with pytest.raises(_Stop):
            second_free_bound(g, first, kept=kept, told=told)
        again = second_free_bound(g, first, kept=kept, told=told)
        assert again.total == best.total and kept == whole and len(calls) == len(reports)
    # a part whose last candidate tried is not where the order now puts it is searched again from its first
    key, (tried, value, choice, last) = next((k, v) for k, v in whole.items() if v[0] > 1)
    moved = {**whole, key: (tried, value, choice, last + 1)}
    calls = []
    assert second_free_bound(g, first, kept=moved, told=lambda kept: calls.append(1)).total == best.total
    assert calls and moved == whole
    # ... and so is one kept before the last candidate was recorded (-1) that claims more candidates than there are
    unrecorded = {**whole, key: (10_000, value, choice, -1)}
    calls = []
    assert second_free_bound(g, first, kept=unrecorded, told=lambda kept: calls.append(1)).total == best.total
    assert calls and unrecorded == whole


def test_shards_of_the_parts_together_find_what_one_run_finds() -> None:
    """`second_guesses` on shards (0, 2) and (1, 2) (two processes, one kept each, merged) searches each part once:
    merged, they hold what one run over every part holds, and the strategy read from them needs no search more."""
    from solvers.codebreak.optimal.second_free import PartBests, second_guesses

    g = build(spec("mastermind"), {"length": 3, "colours": 4}).tabled()
    first = g.experiments.index("AAB")
    whole: PartBests = {}
    second_guesses(g, first, None, whole)
    shards: list[PartBests] = [{}, {}]
    for i, kept in enumerate(shards):
        second_guesses(g, first, None, kept, shard=(i, 2))
    assert shards[0] and shards[1] and not set(shards[0]) & set(shards[1])
    merged = {**shards[0], **shards[1]}
    assert merged == whole
    reports: list[int] = []
    found = second_free_bound(g, first, kept=merged, told=lambda kept: reports.append(1))
    assert not reports and found.total == second_free_bound(g, first).total and found.stats.verified
