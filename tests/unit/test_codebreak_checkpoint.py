"""A long proof's checkpoint: the parts it settles are kept, and a search that starts from them (all of them, or
the first part of a run cut short) proves the same optimum with less work and a tree that verifies, on one process
and on several."""

from __future__ import annotations

from pathlib import Path

import pytest

from solvers.codebreak import build, build_tree, parse, verify
from solvers.codebreak.optimal import search as search_module
from solvers.codebreak.optimal.rules import Entry
from solvers.codebreak.optimal.search import Search

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
    the first half of them (a run cut short), prove 905 again, with less work, and their trees verify."""
    monkeypatch.setattr(search_module, "PARALLEL_FROM", 100)  # the forked workers on a small game
    g = build(parse((GAMES / "mastermind.game").read_text()), {"length": 4, "colours": 4})
    first = Kept()
    s1 = Search(g, worst=False, jobs=jobs, checkpoint=first)
    proved = s1.solve()
    assert proved.cost == 905 and len(first.batches) >= 3
    for kept in (first.batches, first.batches[: len(first.batches) // 2]):
        again = Search(g, worst=False, jobs=jobs, checkpoint=Kept(kept))
        found = again.solve()
        assert found.cost == 905 and found.work < proved.work
    tree = build_tree(g, "optimal-average", checkpoint=Kept(first.batches))
    st = verify(g, tree)
    assert st.verified and st.total == 905


def test_capped_and_worst_case_searches_keep_nothing() -> None:
    """The checkpoint is for uncapped average proofs: capped ones (whose table keys carry the depth) and the worst
    case neither read nor keep entries."""
    g = build(parse((GAMES / "mastermind.game").read_text()), {"length": 3, "colours": 3})
    for kw in ({"worst": True}, {"worst": False, "cap": 4}):
        kept = Kept()
        s = Search(g, jobs=1, checkpoint=kept, **kw)  # type: ignore[arg-type]
        s.solve()
        assert kept.batches == [] and s.keep is None
