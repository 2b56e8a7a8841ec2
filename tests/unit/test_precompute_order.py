"""The order of the precomputation (`webapp.jobs.precompute.everything`): cheapest first, and the small sizes of the
Mastermind optima table before anything else (a fresh server's table showed 2x2 to 4x4 queued for minutes)."""

from __future__ import annotations

import pytest

from solvers.codebreak import optima
from webapp.jobs.precompute import OPTIMA_FIRST, everything
from webapp.results.codebreak_results import StrategyParams


@pytest.mark.parametrize("large", [False, True])
def test_the_small_optima_cells_are_proved_first_and_each_cell_once(large: bool) -> None:
    items = [p for _, p in everything(large)]
    trees = [p for p in items if isinstance(p, StrategyParams) and p.game == "mastermind" and not p.possible_only]
    cells = [(p.pegs, p.colours, p.strategy) for p in trees]
    small = [(p, c) for p, c in optima.sizes(OPTIMA_FIRST) if (p, c) not in optima.FRONTIER]
    head = items[: 2 * len(small)]
    assert all(isinstance(p, StrategyParams) for p in head) and len(small) >= 15  # 2x2 to 4x4 among them
    assert {(p.pegs, p.colours) for p in head if isinstance(p, StrategyParams)} == set(small)
    assert all(cells.count((p, c, s)) == 1 for p, c in small for s in ("optimal-average", "optimal-worst"))
    assert {(p, c) for p, c, _ in cells} >= set(optima.sizes(optima.AUTOMATIC_SECRETS)) - set(optima.FRONTIER)
