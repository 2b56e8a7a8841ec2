"""A long proof's checkpoint: the parts it settles are kept, and a search that starts from them (all of them, or
the first part of a run cut short) proves the same optimum with less work and a tree that verifies, on one process
and on several."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from solvers.checkpoint import Entry
from solvers.codebreak import Proving, build, build_tree, parse, verify
from solvers.codebreak.optimal import average_search as search_module
from solvers.codebreak.optimal.average_search import AverageSearch
from solvers.parallel import Execution

GAMES = Path(__file__).resolve().parents[2] / "games"


class Kept:
    """A checkpoint in memory: the entries of each settled part, batch by batch."""

    def __init__(self, known: list[list[Entry]] | None = None) -> None:
        self.batches: list[list[Entry]] = []
        self.start = [e for batch in known or [] for e in batch]

    def known(self) -> list[Entry]:
        return self.start

    def keep(self, entries: list[Entry]) -> None:
        self.batches.append(entries)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_resumed_proof_gives_the_same_optimum_with_less_work(jobs: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Mastermind 4x4 (905, Goddard 2004): a first run keeps its settled parts; a run from all of them, and one from
    the first half of them (a run cut short), prove 905 again (with less work, compared on one process), and their
    trees verify."""
    monkeypatch.setattr(search_module, "PARALLEL_FROM", 100)  # the forked workers on a small game
    monkeypatch.setattr(search_module, "KEEP_MIN_COST", 0)  # every set kept
    monkeypatch.setattr(search_module, "KEEP_WORK", 0)  # kept after every part
    g = build(parse((GAMES / "mastermind.game").read_text()), {"length": 4, "colours": 4})
    first = Kept()
    s1 = AverageSearch(g, run=Execution(jobs), checkpoint=first)
    proved = s1.solve()
    assert proved.cost == 905 and len(first.batches) >= 3
    for kept in (first.batches, first.batches[: len(first.batches) // 2]):
        again = AverageSearch(g, run=Execution(jobs), checkpoint=Kept(kept))
        found = again.solve()
        assert found.cost == 905 and (jobs > 1 or found.work < proved.work)  # two processes' work depends on timing
    tree = build_tree(g, "optimal-average", checkpoint=Kept(first.batches))
    st = verify(g, tree)
    assert st.verified and st.total == 905


def test_capped_and_worst_case_searches_keep_nothing() -> None:
    """The checkpoint is for uncapped average proofs: capped ones (whose table keys carry the depth) and the worst
    case (its search takes none) neither read nor keep entries, and their trees verify."""
    g = build(parse((GAMES / "mastermind.game").read_text()), {"length": 3, "colours": 3})
    kept = Kept()
    s = AverageSearch(g, checkpoint=kept, cap=4)
    s.solve()
    assert kept.batches == [] and s.keep is None
    for strategy, cap in (("optimal-worst", None), ("optimal-average", 4)):
        tree = build_tree(g, strategy, checkpoint=kept, max_guesses=cap, proving=Proving(compiled=True))
        assert verify(g, tree).verified and kept.batches == []


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_large_part_searched_in_slices_keeps_what_each_slice_proved(
    jobs: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With parts of 20 secrets or more searched in slices of 20 secrets' work (FINE_FROM, SLICE_WORK lowered),
    Mastermind 4x4 is proved at 905 (Goddard 2004) as by the kernel alone, in more batches (one per slice that
    proved something), and a run from the first third of them (a run stopped inside a part) proves 905 again,
    with less work, to a tree that verifies."""
    monkeypatch.setattr(search_module, "PARALLEL_FROM", 100)
    monkeypatch.setattr(search_module, "KEEP_MIN_COST", 0)  # every set kept
    monkeypatch.setattr(search_module, "KEEP_WORK", 0)  # kept after every part
    g = build(parse((GAMES / "mastermind.game").read_text()), {"length": 4, "colours": 4})
    coarse = Kept()
    whole = AverageSearch(g, run=Execution(jobs), checkpoint=coarse)
    assert whole.solve().cost == 905 and whole.slices == 0
    monkeypatch.setattr(search_module, "FINE_FROM", 20)
    monkeypatch.setattr(search_module, "SLICE_WORK", 20)  # slices of a small game's parts
    fine = Kept()
    sliced = AverageSearch(g, run=Execution(jobs), checkpoint=fine)
    proved = sliced.solve()
    # on two processes the batches depend on which process searches what, and the slices are the workers'
    assert proved.cost == 905 and (jobs > 1 or (len(fine.batches) > len(coarse.batches) and sliced.slices > 0))
    again = AverageSearch(g, run=Execution(jobs), checkpoint=Kept(fine.batches[: len(fine.batches) // 3]))
    found = again.solve()
    # on two processes the work depends on when each learns the other's best, so only one process's is compared
    assert found.cost == 905 and (jobs > 1 or found.work < proved.work)
    tree = build_tree(g, "optimal-average", checkpoint=Kept(fine.batches))
    st = verify(g, tree)
    assert st.verified and st.total == 905


@pytest.mark.parametrize(("pegs", "colours", "total"), [(3, 4, 206), (3, 5, 451), (4, 3, 246), (5, 3, 816)])
def test_slices_give_the_published_optima(pegs: int, colours: int, total: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every part of 8 secrets or more searched in slices of 5 secrets' work, each slice's end a stop of the kernel
    in mid-search: the optimal averages Goddard (2004) published."""
    monkeypatch.setattr(search_module, "FINE_FROM", 8)
    monkeypatch.setattr(search_module, "SLICE_WORK", 5)
    g = build(parse((GAMES / "mastermind.game").read_text()), {"length": pegs, "colours": colours})
    search = AverageSearch(g, checkpoint=Kept())
    assert search.solve().cost == total and search.slices > 0


def test_a_proof_resumes_from_its_large_sets_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """A checkpoint keeps only the entries of sets that cost at least KEEP_MIN_COST guesses (50), as a snapshot in
    git does. Mastermind 4x4 resumed from them (the small sets below them searched again) proves 905 (Goddard 2004)
    with less work, to a tree that verifies; they are under a quarter of every set's entries."""
    monkeypatch.setattr(search_module, "FINE_FROM", 20)
    monkeypatch.setattr(search_module, "SLICE_WORK", 20)  # slices of a small game's parts
    g = build(parse((GAMES / "mastermind.game").read_text()), {"length": 4, "colours": 4})
    kept = Kept()
    proved = AverageSearch(g, checkpoint=kept).solve()
    assert all(e[2] >= search_module.KEEP_MIN_COST == 50 for batch in kept.batches for e in batch)
    monkeypatch.setattr(search_module, "KEEP_MIN_COST", 0)
    monkeypatch.setattr(search_module, "KEEP_WORK", 0)  # kept after every part
    every = Kept()
    AverageSearch(g, checkpoint=every).solve()
    count = sum(map(len, kept.batches))
    assert 0 < count < sum(map(len, every.batches)) // 4
    again = AverageSearch(g, checkpoint=Kept(kept.batches))
    found = again.solve()
    assert found.cost == 905 and found.work < proved.work
    st = verify(g, build_tree(g, "optimal-average", checkpoint=Kept(kept.batches)))
    assert st.verified and st.total == 905


def test_a_proof_guessing_possible_codes_only_resumes_from_its_checkpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    """Super Mastermind's proof guesses possible codes only and is checkpointed: on Mastermind 4x5 a run keeps its
    settled parts, and a run from half of them proves the same total with less work, above the unrestricted
    optimum (the kept costs are those guessing possible codes only), to a tree that verifies and guesses only
    possible codes."""
    monkeypatch.setattr(search_module, "FINE_FROM", 50)
    monkeypatch.setattr(search_module, "SLICE_WORK", 20)  # slices of a small game's parts
    g = build(parse((GAMES / "mastermind.game").read_text()), {"length": 4, "colours": 5})
    first = Kept()
    proved = AverageSearch(g, checkpoint=first, possible_only=True).solve()
    free = AverageSearch(g).solve().cost
    assert len(first.batches) >= 3 and proved.cost > free
    half = Kept(first.batches[: len(first.batches) // 2])
    found = AverageSearch(g, checkpoint=half, possible_only=True).solve()
    assert found.cost == proved.cost and found.work < proved.work
    tree = build_tree(g, "optimal-average", checkpoint=Kept(first.batches), possible_only=True)
    st = verify(g, tree, possible_only=True)
    assert st.verified and st.total == proved.cost


def test_a_resumed_proof_looks_below_the_best_first_guess_it_settled(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search resumed from a checkpoint in which some first guess has every part settled knows a strategy of that
    total, and looks only below it plus one: from a finished 4x4 proof, below 906 (Goddard 2004's 905 plus one),
    where it proves 905 again; with only a worse first guess settled, below that guess's exact total plus one, and
    905 still; from an empty checkpoint, no bound (it searches as a fresh proof)."""
    monkeypatch.setattr(search_module, "KEEP_MIN_COST", 0)  # every set kept
    monkeypatch.setattr(search_module, "KEEP_WORK", 0)  # kept after every part
    g = build(parse((GAMES / "mastermind.game").read_text()), {"length": 4, "colours": 4})
    first = Kept()
    assert AverageSearch(g, checkpoint=first).solve().cost == 905
    resumed = AverageSearch(g, checkpoint=Kept(first.batches))
    assert resumed.settled_under() == 906
    assert resumed.solve().cost == 905 and resumed.under == 906
    s = np.arange(len(g.secrets), dtype=np.int32)
    worse = g.experiments.index("AAAA")
    other = Kept()
    alone = AverageSearch(g, checkpoint=other)
    exact = alone.with_first(s, [], worse)
    outcomes = g.outcomes(worse, s)
    for o in np.unique(outcomes):
        part = s[outcomes == o]
        if o != g.win_outcome and len(part) > 2:  # smaller parts are exact without a search, never kept
            other.keep(alone.part_proof(part, alone.average(part, 10**9)))
    partial = AverageSearch(g, checkpoint=Kept(other.batches))
    assert exact > 905 and partial.settled_under() == exact + 1 and partial.solve().cost == 905
    assert AverageSearch(g, checkpoint=Kept()).settled_under() > 10**9


def test_a_resumed_proof_completes_a_first_guess_whose_open_parts_are_small(monkeypatch: pytest.MonkeyPatch) -> None:
    """A snapshot keeps only the larger sets, so even a first guess whose large parts are all settled has small
    parts open: a resumed search settles those now (they are a sixteenth of the secrets at most) and looks below
    that guess's exact total plus one. 4x4 with AAAA first: parts of 81, 108, 54 and 12 codes; with all but the 12
    kept the bound is AAAA's exact total plus one (computed by a search of its own), and with the 54 open too (66
    codes: more than 256 / 16) there is no bound; the optimum is 905 either way (Goddard 2004)."""
    monkeypatch.setattr(search_module, "KEEP_MIN_COST", 0)  # every set kept
    monkeypatch.setattr(search_module, "KEEP_WORK", 0)  # kept after every part
    g = build(parse((GAMES / "mastermind.game").read_text()), {"length": 4, "colours": 4})
    s = np.arange(len(g.secrets), dtype=np.int32)
    worse = g.experiments.index("AAAA")
    alone = AverageSearch(g)
    exact = alone.with_first(s, [], worse)
    outcomes = g.outcomes(worse, s)
    parts = [s[outcomes == o] for o in np.unique(outcomes) if o != g.win_outcome]
    assert sorted(len(p) for p in parts) == [12, 54, 81, 108]
    for smallest_kept, bound in ((13, exact + 1), (55, None)):
        kept = Kept()
        for part in parts:
            if len(part) >= smallest_kept:
                kept.keep(alone.part_proof(part, alone.average(part, 10**9)))
        resumed = AverageSearch(g, checkpoint=Kept(kept.batches))
        assert not any(all(done for _, _, done in p) for _, _, p in resumed.standing())  # no guess fully settled
        under = resumed.settled_under()
        assert under == bound if bound else under > 10**9
        assert resumed.solve().cost == 905


def test_slices_are_fitted_to_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    """After its first slice, a large part's slices are sized by the work done per second so each takes about
    SLICE_SECONDS (a job stopped at any moment loses about that much): with a tiny SLICE_SECONDS there are many
    more slices than with a huge one, and both prove Mastermind 4x4's 905 (Goddard 2004)."""
    monkeypatch.setattr(search_module, "KEEP_MIN_COST", 0)
    monkeypatch.setattr(search_module, "FINE_FROM", 20)
    monkeypatch.setattr(search_module, "SLICE_WORK", 20)
    g = build(parse((GAMES / "mastermind.game").read_text()), {"length": 4, "colours": 4})
    counts = []
    for seconds in (1e6, 1e-6):
        monkeypatch.setattr(search_module, "SLICE_SECONDS", seconds)
        search = AverageSearch(g, checkpoint=Kept())
        assert search.solve().cost == 905
        counts.append(search.slices)
    assert counts[1] > 2 * counts[0] > 0, counts


def test_every_second_guess_resumes_from_its_checkpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    """The totals of every second guess of Bulls and Cows 3x5 kept their proved sets as they went (every cost kept:
    this game's sets are small); a run from that checkpoint reads them back and gives the same totals with less
    work."""
    from solvers.codebreak.second import second_totals

    monkeypatch.setattr(search_module, "KEEP_MIN_COST", 0)
    g = build(parse((GAMES / "bulls-and-cows.game").read_text()), {"length": 3, "colours": 5})
    kept = Kept()
    first = AverageSearch(g, checkpoint=kept)
    totals = second_totals(first)
    assert kept.batches
    again = AverageSearch(g, checkpoint=Kept(kept.batches))
    assert again.resumed > 0 and second_totals(again) == totals and again.work < first.work
