"""The table of proved Mastermind optima read from the result store (the precomputation fills it: every size up
to `optima.AUTOMATIC_SECRETS` secrets in `make run`'s background queue, the rest by `make precompute`), for the
page, the API and the command line alike."""

from __future__ import annotations

import contextlib
import json
from functools import lru_cache

import numpy as np

from solvers.codebreak import Node, Stats, build, verify
from solvers.codebreak.game import PROOF_COLOURS
from solvers.codebreak.optima import AUTOMATIC_SECRETS, Kept, OptimaCell, OptimaReport, cell, report, sizes
from solvers.codebreak.sequences import strategy_of
from solvers.errors import InputError, LimitError
from webapp.config import ROOT
from webapp.http.caching import changing
from webapp.results.codebreak_results import CODEBREAK, StrategyParams, codebreak_params
from webapp.results.computations import stored
from webapp.results.games import analysis, game_spec
from webapp.store import Store, codec

OPTIMA_STRATEGIES = ("optimal-average", "optimal-worst")
CERTIFICATES = ROOT / "webapp" / "data" / "certificates"  # `coin-puzzles certify` made them (docs/certificates)
MADE = CERTIFICATES / "made.json"  # file name -> when each was made and the CPU seconds it and its check took


@lru_cache(maxsize=1)
def certificates() -> dict[tuple[int, int], Kept]:
    """The certificates kept in the project, (pegs, colours) -> the file, the total it certifies and how it was made
    (`MADE`), read once per process (the total alone: numpy reads one array of the file)."""
    made = json.loads(MADE.read_text())
    out = {}
    for path in sorted(CERTIFICATES.glob("mastermind-*x*.npz")):
        with np.load(path) as f:
            pegs, colours, total = int(f["pegs"]), int(f["colours"]), int(f["total"])
        how = made.get(path.name, {})
        figures = (how.get(field) for field in ("made", "proof_cpu_seconds", "check_cpu_seconds", "claims"))
        out[pegs, colours] = Kept(path.name, total, *figures)
    return out


def certified_tree(pegs: int, colours: int) -> tuple[Node, Stats] | None:
    """A kept certificate's tree played against every secret by the game's own rules (`strategy_of`, `verify`):
    the tree and its statistics, or None when no certificate is kept for the size or its tree does not verify at
    the total it certifies (0.5 s for 5x6, the largest, here)."""
    kept = certificates().get((pegs, colours))
    if kept is None:
        return None
    game = build(game_spec("mastermind"), {"length": pegs, "colours": colours}, colours_up_to=PROOF_COLOURS)
    with np.load(CERTIFICATES / kept.name) as f:
        lengths, guesses = f["lengths"], f["guesses"]
    try:
        tree = strategy_of(game, lengths, guesses)
    except InputError:
        return None
    stats = verify(game, tree)
    return (tree, stats) if stats.verified and stats.total == kept.total else None


@lru_cache(maxsize=1)
def beyond() -> tuple[OptimaCell, ...]:
    """The certified sizes past the table's games, each certificate's tree replayed (`certified_tree`) before it is
    listed, once per process (0.7 s with 3x10 to 3x16 here: it grows with each certificate, and past about a second
    belongs in a job); one whose tree does not verify at its total is left out. (The certified sizes inside the
    table are stored as proved results before the precomputation queues anything: `shipped.install`.)"""
    inside = set(sizes())
    out = []
    for pegs, colours in sorted(certificates(), key=lambda size: (size[1] ** size[0], size)):
        found = None if (pegs, colours) in inside else certified_tree(pegs, colours)
        if found is not None:
            out.append(cell(pegs, colours, (found[0].experiment, found[1]), None, certified=certificates()))
    return tuple(out)


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


Summary = tuple[int | None, Stats]  # what the table shows of a tree: its first experiment and its statistics
SUMMARY = ":summary"  # the store key of a tree's summary: the tree's own key and this


def keep_summary(store: Store, params: StrategyParams, tree: tuple[Node, Stats]) -> Summary:
    """Store a tree's summary beside it (derivable: under the visitors' budget, made again if evicted)."""
    kept: Summary = (tree[0].experiment, tree[1])
    store.put(CODEBREAK.key(params) + SUMMARY, codec.encode(kept))
    return kept


def summary(store: Store, params: StrategyParams) -> Summary | None:
    """A stored tree's summary, so that the table decodes no whole tree (4x9's optimal tree is 6,561 leaves) on a
    request: read from its own entry, else made once from the tree (then kept); None when the tree is not stored."""
    blob = store.get(CODEBREAK.key(params) + SUMMARY)
    if blob is not None:
        with contextlib.suppress(*codec.DecodeErrors):
            return codec.decode(codec.open_envelope(blob).value, Summary)
    found = stored(store, CODEBREAK, params)
    return None if found is None else keep_summary(store, params, found)


def optima_cell(store: Store, pegs: int, colours: int, compute_up_to: int = 0) -> OptimaCell:
    """One size: the summaries of its two proofs from the store, or proved here when it has at most compute_up_to
    secrets."""
    found: list[Summary | None] = []
    try:
        for strategy in OPTIMA_STRATEGIES:
            result = summary(store, codebreak_params("mastermind", (pegs, colours, None), strategy))
            if result is None and colours**pegs <= compute_up_to:
                tree = analysis("mastermind", pegs, colours, None, strategy)
                result = (tree[0].experiment, tree[1])
            found.append(result)
    except LimitError as e:
        return cell(pegs, colours, None, None, f"refused: {e.message}")
    average, worst = found
    if average is None:
        return cell(pegs, colours, None, None, _waiting(store, pegs, colours))
    return cell(
        pegs,
        colours,
        average,
        None if worst is None else worst[1],
        certified=certificates(),
    )


def optima_table(store: Store, compute_up_to: int = 0) -> OptimaReport:
    """Every size of the table, proved or not yet (a page showing it changes as the precomputation proves sizes)."""
    changing()
    return report([optima_cell(store, p, c, compute_up_to) for p, c in sizes()], beyond())
