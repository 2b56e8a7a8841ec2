"""The table of proved Mastermind optima read from the result store (the precomputation fills it: every size up
to `optima.AUTOMATIC_SECRETS` secrets in `make run`'s background queue, the rest by `make precompute`), for the
page, the API and the command line alike."""

from __future__ import annotations

import contextlib
import hashlib
import json
from dataclasses import asdict, replace
from functools import lru_cache

from solvers.cachedir import account_cache
from solvers.codebreak.optima import AUTOMATIC_SECRETS, OptimaCell, OptimaReport, cell, report, sizes
from solvers.errors import LimitError
from webapp.config import CERTIFICATES, ROOT, write_private
from webapp.http.caching import changing
from webapp.jobs.shipped import Summary, certificates, certified_tree, frontier_runs, frontier_sizes, summary
from webapp.results.codebreak_results import CODEBREAK, PROOFS, codebreak_params
from webapp.results.games import analysis
from webapp.store import Store

OPTIMA_STRATEGIES = ("optimal-average", "optimal-worst")


@lru_cache(maxsize=1)
def beyond() -> tuple[OptimaCell, ...]:
    """The sizes past the table's games proved with a certificate, or by `make frontier` with none yet (marked so,
    with the CPU its runs took), each tree replayed (`certified_tree`) before it is listed, one whose tree does not
    verify at its total left out; once per process, in gunicorn's master. The replay (1.5 s of CPU here with 3x10
    to 3x16 and 4x10, a third of it loading the compiled scorer) is kept in the account's cache under a digest of
    what it read and of the code that replayed it (`_replay_key`), so that the next process of this clone (every
    server start, every test's) reads the cells instead (as Numba's kernels and the templates are kept). (The
    certified sizes inside the table are stored as proved results when the precomputation starts,
    `shipped.install`.)"""
    folder, key = account_cache("verified"), _replay_key()
    kept = folder / f"beyond-{key}.json" if folder is not None and key is not None else None
    if kept is not None and kept.exists():
        try:
            return tuple(OptimaCell(**fields) for fields in json.loads(kept.read_text()))
        except (OSError, ValueError, TypeError):  # damaged or of another shape: replayed again
            pass
    cells = _replayed()
    if kept is not None:
        with contextlib.suppress(OSError):  # a full disk: not kept, never a failed start
            write_private(kept, json.dumps([asdict(c) for c in cells]))
    return cells


def _replay_key() -> str | None:
    """A digest of what `beyond` replays (the certificates' and the frontier's files: their names, sizes and times)
    and of everything that reads, plays and describes them: every solver's source, the result and job modules and
    the game files (their paths and contents: 7 ms here)."""
    digest = hashlib.sha256()
    read = [*CERTIFICATES.glob("made.json"), *CERTIFICATES.glob("mastermind-*"), *PROOFS.glob("mastermind-*")]
    web = [
        ROOT / "webapp" / "config.py",
        *(ROOT / "webapp" / "jobs").glob("*.py"),
        *(ROOT / "webapp" / "results").glob("*.py"),
    ]
    code = [*(ROOT / "solvers").rglob("*.py"), *web, *(ROOT / "games").glob("*.game")]
    try:
        for path in sorted(read):
            found = path.stat()
            digest.update(f"{path.name}:{found.st_size}:{found.st_mtime_ns}\n".encode())
        for path in sorted(code):
            digest.update(f"{path.relative_to(ROOT)}:".encode() + path.read_bytes())
    except OSError:  # a file gone meanwhile (a dangling link): nothing kept or read
        return None
    return digest.hexdigest()[:24]


def _replayed() -> tuple[OptimaCell, ...]:
    """`beyond`'s cells, each tree replayed against every secret."""
    inside = set(sizes())
    out = []
    for pegs, colours in sorted({*certificates(), *frontier_sizes()}, key=lambda size: (size[1] ** size[0], size)):
        found = None if (pegs, colours) in inside else certified_tree(pegs, colours)
        if found is None:
            continue
        c = cell(pegs, colours, (found[0].experiment, found[1]), None, certified=certificates())
        if c.certificate is None:  # make frontier's proof, not checked by the independent checker yet
            seconds, runs, day = frontier_runs(pegs, colours)
            note = f"proved by our search over {runs} runs (make frontier), the last on {day}; not certified yet"
            c = replace(c, note=note, proof_cpu_seconds=seconds)
        out.append(c)
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
