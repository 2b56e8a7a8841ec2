"""The table of proved Mastermind optima read from the result store (the precomputation fills it: every size up
to `optima.AUTOMATIC_SECRETS` secrets in `make run`'s background queue, the rest by `make precompute`), for the
page, the API and the command line alike."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from solvers.codebreak.optima import AUTOMATIC_SECRETS, OptimaCell, OptimaReport, cell, report, sizes
from solvers.errors import LimitError
from webapp.config import ROOT
from webapp.http.caching import changing
from webapp.results.codebreak_results import CODEBREAK, codebreak_params
from webapp.results.computations import stored
from webapp.results.games import analysis
from webapp.store import Store

OPTIMA_STRATEGIES = ("optimal-average", "optimal-worst")
CERTIFICATES = ROOT / "webapp" / "data" / "certificates"  # `coin-puzzles certify` made them (docs/certificates)


@lru_cache(maxsize=1)
def certificates() -> dict[tuple[int, int], tuple[str, int]]:
    """The certificates kept in the project, (pegs, colours) -> (file name, the total each certifies), read once per
    process (the total alone: numpy reads one array of the file)."""
    out = {}
    for path in sorted(CERTIFICATES.glob("mastermind-*x*.npz")):
        with np.load(path) as f:
            out[int(f["pegs"]), int(f["colours"])] = (path.name, int(f["total"]))
    return out


def _waiting(store: Store, pegs: int, colours: int) -> str:
    """What a size not proved yet is waiting for."""
    progress = store.progress(
        CODEBREAK.key(codebreak_params("mastermind", (pegs, colours, None), OPTIMA_STRATEGIES[0]))
    )
    if progress is not None and progress.state == "running":
        return f"being proved: {progress.done:,} of {progress.total:,} secrets settled"
    if progress is not None and progress.state == "queued":
        return "queued"
    if colours**pegs <= AUTOMATIC_SECRETS:
        return "not proved yet: not queued now (the background precomputation proves it when it runs)"
    return "not proved yet: left to make precompute (minutes each)"


def optima_cell(store: Store, pegs: int, colours: int, compute_up_to: int = 0) -> OptimaCell:
    """One size: its two proofs from the store, or proved here when it has at most compute_up_to secrets."""
    found = []
    try:
        for strategy in OPTIMA_STRATEGIES:
            result = stored(store, CODEBREAK, codebreak_params("mastermind", (pegs, colours, None), strategy))
            if result is None and colours**pegs <= compute_up_to:
                result = analysis("mastermind", pegs, colours, None, strategy)
            found.append(result)
    except LimitError as e:
        return cell(pegs, colours, None, None, f"refused: {e.message}")
    average, worst = found
    if average is None:
        return cell(pegs, colours, None, None, _waiting(store, pegs, colours))
    return cell(
        pegs,
        colours,
        (average[0].experiment, average[1]),
        None if worst is None else worst[1],
        certified=certificates(),
    )


def optima_table(store: Store, compute_up_to: int = 0) -> OptimaReport:
    """Every size of the table, proved or not yet (a page showing it changes as the precomputation proves sizes)."""
    changing()
    return report([optima_cell(store, p, c, compute_up_to) for p, c in sizes()])
