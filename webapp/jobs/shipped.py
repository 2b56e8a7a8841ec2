"""Results shipped in the package, so that a fresh install serves what the project has proved before its own
precomputation has run: the precomputation queues only what is not shipped, then `install` puts the rest into the
result store, checked (`coin-puzzles worker --queue precompute`, `coin-puzzles precompute`); until then every
reader finds them through `kept`.

Two kinds, each checked when it is loaded:
- the Mastermind certificates (webapp/data/certificates) inside the optima table: each one's tree replayed by the
  game's own rules (`certified_tree`) and stored as that size's proved optimal average;
- the stored results of the slow listed computations (`shipped_items`: what the background precomputation takes
  more than a few seconds to make), one file each in webapp/data/results, written by `coin-puzzles artifacts`
  (`make artifacts`). A file is the store's own encoding of the result, compressed; it is decoded against the
  computation's stored type; a strategy tree is also verified against every secret and a peg solution replayed
  (the other kinds are checked by tests/unit/test_shipped.py against their sources, not when loaded).
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import json
import os
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from solvers.codebreak import Node, Stats, build, optima, verify
from solvers.codebreak.game import PROOF_COLOURS, Game
from solvers.codebreak.optima import Kept
from solvers.codebreak.sequences import sequences_of, strategy_of
from solvers.errors import InputError
from solvers.pegs import board, pegs, replay
from webapp.config import CERTIFICATES, ROOT
from webapp.jobs.precompute import Item, everything
from webapp.results.catalogue import AEQUITAS, DEVIL, PEGS_REPORT, PEGS_TABLE, VARIANT_TABLE
from webapp.results.codebreak_results import CODEBREAK, PROOFS, SECOND, StrategyParams, codebreak_params
from webapp.results.computations import Computation, Failed, P, R, dumps, loads, read, run, unpack, write
from webapp.results.games import game_spec
from webapp.store import Store, codec

if TYPE_CHECKING:
    from webapp.jobs.queues import Queues

SHIPPED_RESULTS = ROOT / "webapp" / "data" / "results"
# the computations whose slow listed results are shipped (the others: outcome tables and small searches, made in
# seconds by the precomputation)
SHIPPED_KINDS: tuple[Computation[Any, Any], ...] = (
    CODEBREAK,
    SECOND,
    PEGS_REPORT,
    PEGS_TABLE,
    AEQUITAS,
    DEVIL,
    VARIANT_TABLE,
)
SLOW_SECONDS = 2.0  # a listed result that took more CPU than this to make is shipped (`coin-puzzles artifacts`)


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
    """A kept certificate's tree, or else the tree of a size `make frontier` proved and no certificate covers yet
    (`frontier_tree`), played against every secret by the game's own rules (`strategy_of`, `verify`): the tree and
    its statistics, or None when neither is kept for the size or its tree does not verify at the total it claims.
    The game is scored on demand along the tree (untabled), not as a whole table: the 8 sizes past the optima
    table took 1.1-1.4 s of CPU here instead of 1.5-2.0 s (3x16's table alone is 16 million outcomes)."""
    kept = certificates().get((pegs, colours))
    path = CERTIFICATES / kept.name if kept is not None else frontier_tree(pegs, colours)
    if path is None:
        return None
    game = build(
        game_spec("mastermind"), {"length": pegs, "colours": colours}, untabled=True, colours_up_to=PROOF_COLOURS
    )
    with np.load(path) as f:
        lengths, guesses, total = f["lengths"], f["guesses"], int(f["total"])
    try:
        tree = strategy_of(game, lengths, guesses)
    except InputError:
        return None
    stats = verify(game, tree)
    return (tree, stats) if stats.verified and stats.total == total else None


def frontier_sizes() -> list[tuple[int, int]]:
    """The sizes whose optimal trees `make frontier` kept (`write_tree`)."""
    return [(int(p), int(c)) for p, c in (f.name[11:-9].split("x") for f in PROOFS.glob("mastermind-*x*.tree.npz"))]


def frontier_tree(pegs: int, colours: int) -> Path | None:
    """The optimal tree `make frontier` wrote when it proved a size, as each secret's guesses (`write_tree`), kept
    beside its snapshot and runs (`PROOFS`), if there is one."""
    path = PROOFS / f"mastermind-{pegs}x{colours}.tree.npz"
    return path if path.is_file() else None


def write_tree(pegs: int, colours: int, game: Game, tree: Node, total: int) -> Path:
    """A proved size's optimal tree (of game, built as `certified_tree` builds it) written beside its snapshot."""
    lengths, guesses = sequences_of(game, tree)
    path = PROOFS / f"mastermind-{pegs}x{colours}.tree.npz"
    with path.open("wb") as f:
        np.savez_compressed(f, pegs=pegs, colours=colours, total=total, lengths=lengths, guesses=guesses)
    return path


def frontier_runs(pegs: int, colours: int) -> tuple[float, int, str]:
    """A size's proof by `make frontier`: its CPU seconds over every run, the number of runs, the last run's day."""
    runs = json.loads((PROOFS / f"mastermind-{pegs}x{colours}.runs.json").read_text())
    return sum(float(r["cpu_seconds"]) for r in runs), len(runs), str(runs[-1]["date"])


Summary = tuple[int | None, Stats]  # what the table shows of a tree: its first experiment and its statistics
SUMMARY = ":summary"  # the store key of a tree's summary: the tree's own key and this


def keep_summary(store: Store, params: StrategyParams, tree: tuple[Node, Stats]) -> Summary:
    """Store a tree's summary beside it (derivable: under the visitors' budget, made again if evicted)."""
    kept: Summary = (tree[0].experiment, tree[1])
    store.put(CODEBREAK.key(params) + SUMMARY, codec.encode(kept))
    return kept


def summary(store: Store, params: StrategyParams) -> Summary | None:
    """A stored tree's summary, so that the table decodes no whole tree (4x9's optimal tree is 6,561 leaves) on a
    request: read from its own entry, else made once from the tree (then kept); None when the tree is not stored
    (LimitError for a stored refusal, as `stored` raises it)."""
    blob = store.get(CODEBREAK.key(params) + SUMMARY)
    if blob is not None:
        with contextlib.suppress(*codec.DecodeErrors):
            return codec.decode(codec.open_envelope(blob).value, Summary)
    found = kept(store, CODEBREAK, params)  # stored, or shipped (a certificate's tree: then stored too)
    return None if found is None else keep_summary(store, params, unpack(found))  # a stored refusal raised again


def path_of(c: Computation[Any, Any], params: Any) -> Path:
    """The shipped file of a result: the computation's name and a digest of its store key (which holds the stored
    type's schema, so a change to what is stored names new files, and the test finds the old ones stale)."""
    return SHIPPED_RESULTS / f"{c.name}-{hashlib.sha256(c.key(params).encode()).hexdigest()[:16]}.gz"


def shipped_items() -> list[Item]:
    """The listed results shipped in the package: those of `everything` (what the site lists) that have a file
    (the certified sizes' optimal averages come from their certificates instead)."""
    certified = {p for _, p in certified_items()}
    return [
        (c, p)
        for c, p in everything(large=True)
        if c in SHIPPED_KINDS and p not in certified and path_of(c, p).is_file()
    ]


def _tree_holds(p: StrategyParams, value: Any) -> bool:
    """A stored strategy tree played against every secret gives the statistics stored with it."""
    tree, stats = value
    return bool(stats.verified) and verify(p.load(), tree, bool(p.possible_only)) == stats


def _solution_holds(p: Any, value: Any) -> bool:
    """A peg report's solution replayed by the rules ends with one coin (on the finish hole, where one is set)."""
    if not value.solution:
        return value.solvable is not True
    b = board(p.board)
    end = replay(b, p.position, [tuple(b.index(x) for x in move) for move in value.solution])
    return pegs(end) == 1 and (p.finish is None or end == 1 << b.index(p.finish))


CHECKS: dict[str, Callable[[Any, Any], bool]] = {CODEBREAK.name: _tree_holds, PEGS_REPORT.name: _solution_holds}


def load(c: Computation[Any, Any], params: Any) -> Any:
    """A shipped result read and checked (decoded against the stored type; a tree verified, a solution replayed);
    ValueError when it is not what it claims to be."""
    value = loads(c, gzip.decompress(path_of(c, params).read_bytes()))
    if value is None or isinstance(value, Failed):
        raise ValueError(f"{path_of(c, params).name}: not a stored result of {c.name}")
    check = CHECKS.get(c.name)
    if check is not None and not check(params, value):
        raise ValueError(f"{path_of(c, params).name}: its result does not hold ({c.title(params)})")
    return value


def certified_items() -> list[tuple[tuple[int, int], StrategyParams]]:
    """The optima table's sizes with a kept certificate, and the store's parameters of their optimal average."""
    inside = set(optima.sizes())
    return [(s, codebreak_params("mastermind", (*s, None), "optimal-average")) for s in certificates() if s in inside]


@lru_cache(maxsize=1)
def shipped_keys() -> frozenset[str]:
    """The store keys of everything shipped (the certified sizes' optimal averages and the files): the
    precomputation queues none of them (`install` stores them)."""
    certified = {CODEBREAK.key(p) for _, p in certified_items()}
    return frozenset(certified | {c.key(p) for c, p in shipped_items()})


def lookup(c: Computation[P, R], params: P) -> R | None:
    """A shipped result, checked, for a reader that found none in the store (the command line): a certified size's
    optimal average, or a shipped file's result; None when nothing is shipped for it."""
    certified: dict[Any, tuple[int, int]] = {tree: size for size, tree in certified_items()}
    if c is CODEBREAK and params in certified:
        return cast(R | None, certified_tree(*certified[params]))
    if c in SHIPPED_KINDS and path_of(c, params).is_file():
        try:
            return cast(R, load(c, params))
        except (ValueError, OSError):
            return None
    return None


def kept(store: Store, c: Computation[P, R], params: P) -> R | Failed | None:
    """The stored result, or else one shipped in the package (checked as it is read, then stored: the
    precomputation stores them all at its start, `install`), or None: every reader's way to a result."""
    key = c.key(params)
    found = read(store, c, key)
    if found is None or isinstance(found, Failed):  # a refusal stored before (an older version's) yields to it
        shipped = lookup(c, params)
        if shipped is not None:
            write(store, c, key, shipped)
            found = shipped
    return found


def _holds(store: Store, key: str) -> bool:
    """Whether the store holds a result under key (a stored refusal does not count: what is shipped replaces it),
    from the entry's envelope: its value is decoded by whoever reads it (`read`, which drops one that does not decode
    as its stored type, and `kept` then stores what is shipped), not here, where decoding took 3.0 of a pass's 3.8 CPU
    s over the 30 entries stored (each serve's master and precomputation consumer make a pass as they start)."""
    blob = store.get(key)
    try:
        return blob is not None and (envelope := codec.open_envelope(blob)).failed is None and len(envelope.value) > 0
    except codec.DecodeErrors:
        return False


def install(store: Store, say: Callable[[str], None] = lambda line: None) -> int:
    """Store every shipped result the store does not hold yet, each checked first (one that fails its check is
    left out and said); how many were stored. Seconds: 1.2 s for the 14 certificates' trees here."""
    stored = 0
    for size, tree in certified_items():
        if not _holds(store, CODEBREAK.key(tree)):
            found = certified_tree(*size)
            if found is None:
                say(f"the certificate of Mastermind {size[0]}x{size[1]} does not verify: left out")
                continue
            write(store, CODEBREAK, CODEBREAK.key(tree), found)
            keep_summary(store, tree, found)
            stored += 1
    for c, params in shipped_items():
        if not _holds(store, c.key(params)):
            try:
                write(store, c, c.key(params), load(c, params))
                stored += 1
            except (ValueError, OSError) as e:
                say(f"a shipped result was left out: {e}")
    return stored


def start(queues: Queues, store: Store, say: Callable[[str], None]) -> Callable[[], None]:
    """The precomputation's start: what the site lists and does not ship queued now; what it ships stored by the
    step returned, which the consumer runs once it serves (its reviver looking meanwhile)."""
    shipped = shipped_keys()
    queued = queues.enqueue_missing(store, [(c, p) for c, p in everything() if c.key(p) not in shipped])
    say(f"{queued} results queued for precomputation")
    return lambda: say(f"{install(store, say)} shipped results stored")


def make(items: Iterable[Item], say: Callable[[str], None] = print) -> list[Path]:
    """Compute each item here and write its shipped file (`coin-puzzles artifacts`); the files written."""
    SHIPPED_RESULTS.mkdir(parents=True, exist_ok=True)
    written = []
    for c, params in items:
        value = run(c, params, lambda done, total: None)
        if isinstance(value, Failed):
            say(f"{c.title(params)}: refused ({value.message}); not shipped")
            continue
        path = path_of(c, params)
        path.write_bytes(gzip.compress(dumps(c, value), 9, mtime=0))
        say(f"{path.name}: {c.title(params)}")
        written.append(path)
    return written


def _cpu() -> float:
    """The CPU seconds of this process and of its ended children (a search's forked processes) so far."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def remake(only: Sequence[str] = (), say: Callable[[str], None] = print) -> list[str]:
    """Make the shipped results again (`coin-puzzles artifacts`, `make artifacts`): every listed result of the
    shipped computations (`only`: these names) that took more than `SLOW_SECONDS` of CPU to make here, or that is
    shipped already, each computed in this process; files no longer listed are removed. The names kept."""
    certified = {p for _, p in certified_items()}  # stored from their certificates instead
    kept = []
    for c, params in everything():
        if c not in SHIPPED_KINDS or params in certified or (only and c.name not in only):
            continue
        had, start = path_of(c, params).is_file(), _cpu()
        written = make([(c, params)], lambda line: None)
        seconds = _cpu() - start
        if written and not had and seconds < SLOW_SECONDS:
            written[0].unlink()  # made in seconds by the precomputation: not worth its bytes in git
        elif written:
            kept.append(written[0].name)
            say(f"{written[0].name}: {c.title(params)} ({seconds:.1f} CPU s)")
    for old in {p.name for p in SHIPPED_RESULTS.glob("*.gz")} - set(kept) if not only else ():
        (SHIPPED_RESULTS / old).unlink()
        say(f"{old}: no longer a listed result; removed")
    return kept
