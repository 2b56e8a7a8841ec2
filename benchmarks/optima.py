"""The table of proved Mastermind optima, size by size, with how long each proof took (one process, the search's
own parallel first guesses on every core for 2,000 secrets and more), and the other long proofs' timings.

Each size: the optimal-average search, its tree verified on every secret, and the optimal-worst search, as the
site's jobs run them (`build_tree`), each row saved as soon as it is proved, so a run cut short keeps what it
proved; sizes already recorded are skipped unless --again. A proof keeps its settled sets in the files of
`webapp/commands/frontier.py` (`FileCheckpoint`: a local file resumed from, and the snapshot in git a proof longer
than a session carries to the next clone), which `make frontier` runs past the table's sizes.

    python benchmarks/optima.py [--up-to 8000] [--again]
    python benchmarks/optima.py --size 4x8                     # one size proved again
    python benchmarks/optima.py --size 4x8 --max-guesses 6     # one size's optimal average within a cap
    python benchmarks/optima.py --possible-only [--up-to N]    # the optima guessing possible codes only
    python benchmarks/optima.py --super                        # Super Mastermind 5x8 guessing possible codes only
    python benchmarks/optima.py --super --under 179930         # ... looking only below the published figure + 1
    python benchmarks/optima.py --second-free super            # possible codes only except the second guess
    python benchmarks/optima.py --second-free super --per-part 30 --first AABBC  # a strategy of that rule, verified
    python benchmarks/optima.py --second-free super --per-part all --first AABBC # the rule's optimum from AABBC
    python benchmarks/optima.py --site-job 4x9                 # make precompute's jobs, from the snapshot in git
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.record import FOLDER, Record  # noqa: E402
from solvers.checkpoint import Checkpoint, Entry  # noqa: E402
from solvers.codebreak import Game, Proving, build, build_tree, verify  # noqa: E402
from solvers.codebreak.optima import OPTIMA_MAX_SECRETS, sizes  # noqa: E402
from solvers.codebreak.optimal.average_search import NoneBelow  # noqa: E402
from solvers.codebreak.optimal.entries import snapshot_name  # noqa: E402
from solvers.codebreak.optimal.table import Tuning  # noqa: E402
from solvers.codebreak.strategy import guesses_possible_codes  # noqa: E402
from solvers.errors import LimitError, Paused  # noqa: E402
from solvers.parallel import Execution, default_jobs  # noqa: E402
from webapp.commands.admin import niced_session  # noqa: E402
from webapp.commands.frontier import (  # noqa: E402
    CHECKPOINTS,
    FRONTIER_SIZES,
    LONG,
    FileCheckpoint,
    cpu_seconds,
    note_run,
    peaks,
    progress,
    prove,
    proved_tree,
    second_free_checkpoint,
    stopped,
    whole,
)
from webapp.config import file_lock  # noqa: E402
from webapp.jobs.halting import halt_on_signals, stops_ignored  # noqa: E402
from webapp.results.codebreak_results import PROOFS  # noqa: E402
from webapp.results.games import game_spec  # noqa: E402

SUPER_PUBLISHED = 179_929  # supermastermind.github.io/playonline/optimal_strategy.html: possible codes only, worst 8


def task(pegs: int, colours: int) -> str:
    """A size's row name."""
    return f"Mastermind {pegs}x{colours} ({colours**pegs:,} secrets): optimal average and optimal worst case, proved"


def prove_size(record: Record, pegs: int, colours: int) -> None:
    """One size proved (`frontier.prove`: resumed from its checkpoint and snapshot, its tree verified, its least
    worst case) and recorded at once."""
    before = cpu_seconds()
    found = prove(pegs, colours)
    record.row(task(pegs, colours), found)
    record.save()  # each size as soon as it is proved
    if (pegs, colours) in FRONTIER_SIZES:  # make frontier's record too, so that it skips the size
        note_run(snapshot_name("mastermind", pegs, colours, False), cpu_seconds() - before, f"proved: {found}")


def main() -> None:
    """Prove each size not yet recorded, smallest first (or what the options ask)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--up-to", type=int, default=OPTIMA_MAX_SECRETS)
    parser.add_argument("--again", action="store_true")
    parser.add_argument("--size", help="PxC: one size (proved again), or with --max-guesses its capped optimum")
    parser.add_argument("--max-guesses", type=int)
    parser.add_argument("--possible-only", action="store_true", help="the optima guessing possible codes only")
    parser.add_argument("--average-only", action="store_true", help="with --possible-only: leave out the worst case")
    parser.add_argument("--super", action="store_true", help="Super Mastermind 5x8 guessing possible codes only")
    parser.add_argument("--under", type=int, help="with --super or --second-free: look only below this total")
    parser.add_argument("--second-free", metavar="PxC|super", help="possible codes only but the second guess")
    parser.add_argument("--per-part", help="with --second-free: a strategy, K (or all) second guesses tried a part")
    parser.add_argument("--first", help="with --per-part: its first guess (a code such as AABBC)")
    parser.add_argument("--shard", help="I/N: this process's share of the parts (no strategy; --per-part all)")
    parser.add_argument(
        "--site-job", metavar="PxC|super", help="time make precompute's jobs for a long proof, from its snapshot"
    )
    args = parser.parse_args()
    at = re.fullmatch(r"(\d+)/(\d+)", args.shard or "0/1")
    if not (re.fullmatch(r"all|[1-9]\d*", args.per_part or "all") and at and int(at[1]) < int(at[2])):
        parser.error("--per-part: K (at least 1) or all; --shard: I/N with 0 <= I < N")
    niced_session()  # a long proof started niced yields to everything else, its session's group included
    halt_on_signals()  # a stop (SIGTERM, Ctrl+C) halts a proof where it stands, its frames kept in its checkpoint
    try:
        return run(args)
    except (KeyboardInterrupt, Paused):
        print(f"{time.strftime('%H:%M:%S')} stopped (a proof with a checkpoint keeps where it stood)", flush=True)
        return None


def run(args: argparse.Namespace) -> None:
    """What the options ask for."""
    if args.site_job:
        return site_job(args.site_job)
    if args.super:
        return super_possible_only(args.under)
    if args.second_free and (args.per_part or args.shard):
        per_part = None if args.per_part in (None, "all") else int(args.per_part)
        shard = (int(args.shard.split("/")[0]), int(args.shard.split("/")[1])) if args.shard else None
        return second_free_strategy(args.second_free, args.first, per_part, shard)
    if args.second_free:
        return second_free_run(args.second_free, args.under)
    if args.possible_only:
        return possible_only(args.up_to, args.again, not args.average_only)
    record = Record("optima")
    if args.size and args.max_guesses:
        pegs, colours = (int(x) for x in args.size.split("x"))
        return capped(record, pegs, colours, args.max_guesses)
    path = FOLDER / "optima.json"
    done = {r["task"] for r in json.loads(path.read_text())} if path.exists() and not args.again else set()
    chosen = [tuple(int(x) for x in args.size.split("x"))] if args.size else sizes(args.up_to)
    for pegs, colours in chosen:
        if task(pegs, colours) not in done or args.size:
            prove_size(record, pegs, colours)
    return None


def possible_only(up_to: int, again: bool, worst_case: bool = True) -> None:
    """Each size's optimal average and optimal worst case among the strategies guessing only codes still possible,
    proved, the average's tree verified and checked to guess only possible codes; beside the unrestricted optimum
    where the table has it."""
    record = Record("optima-possible")
    path = FOLDER / "optima-possible.json"
    done = {r["task"] for r in json.loads(path.read_text())} if path.exists() and not again else set()
    free = {r["task"]: r["ours"] for r in json.loads((FOLDER / "optima.json").read_text())}
    for pegs, colours in sizes(up_to):
        name = f"Mastermind {pegs}x{colours} ({colours**pegs:,} secrets), guessing possible codes only: proved"
        if name in done:
            continue
        g = build(game_spec("mastermind"), {"length": pegs, "colours": colours})
        t = time.perf_counter()
        tree = build_tree(g, "optimal-average", possible_only=True, proving=Proving(node_limit=LONG))
        average = time.perf_counter() - t
        st = verify(g, tree)
        assert st.verified and guesses_possible_codes(g, tree)
        t = time.perf_counter()
        try:
            if not worst_case:
                raise LimitError("not searched: left out (--average-only)")
            worst_tree = build_tree(g, "optimal-worst", possible_only=True)
            worst = verify(g, worst_tree)
            assert worst.verified and guesses_possible_codes(g, worst_tree)
            least = f"{worst.worst}"
        except LimitError as limit:  # the counting test one deeper is weak here: past the search's budget
            why = str(limit)
            least = why if not worst_case else f"not settled within the search's budget ({why.rsplit(': ', 1)[-1]})"
        took = time.perf_counter() - t
        unrestricted = free.get(task(pegs, colours), "").split(" (")[0].removeprefix("total ")
        first = g.experiments[tree.experiment or 0]
        record.row(
            name,
            f"total {st.total:,} (average {st.total / st.secrets:.6f}, worst {st.worst}, first guess {first}) in "
            f"{average:.1f} s; least worst case {least} in {took:.1f} s"
            + (f"; the unrestricted optimum: {unrestricted}" if unrestricted else ""),
        )
        record.save()


def super_possible_only(under: int | None) -> None:
    """Super Mastermind (5 pegs, 8 colours) guessing possible codes only: the optimal average proved on every core,
    its settled parts checkpointed (a stopped run resumes), the tree verified on all 32,768 secrets and checked to
    guess only possible codes, beside the published optimum. under: look only below this total (the published
    figure plus one cuts the first guesses that cannot reach it off from the start); if none is below, that is
    what is recorded, proved."""
    record = Record("optima-possible")
    g = build(game_spec("super-mastermind")).tabled()
    checkpoint = FileCheckpoint(CHECKPOINTS / f"{snapshot_name('super-mastermind', None, None, True)}.jsonl")
    checkpoint.compact()
    resumed = len(checkpoint.known())
    name = "Super Mastermind 5x8 (32,768 secrets), guessing possible codes only: proved"
    how = (f"searched below {under:,}; " if under is not None else "") + (
        f"resumed from {resumed:,} checkpointed table entries" if resumed else "from scratch"
    )
    t = time.perf_counter()
    try:
        tree = proved_tree(g, checkpoint, possible_only=True, under=under)
    except NoneBelow as none:
        record.row(name, f"{none} in {time.perf_counter() - t:.1f} s ({how}); published: {SUPER_PUBLISHED:,}")
        record.save()
        return
    took = time.perf_counter() - t
    st = verify(g, tree, possible_only=True)
    assert st.verified
    verdict = "agrees with" if st.total == SUPER_PUBLISHED else "DISAGREES with"
    record.row(
        name,
        f"total {st.total:,} (average {st.total / st.secrets:.6f}, worst {st.worst}, first guess "
        f"{g.experiments[tree.experiment or 0]}) in {took:.1f} s, {peaks()} ({how}); {verdict} the "
        f"published {SUPER_PUBLISHED:,} (supermastermind.github.io)",
    )
    record.save()
    checkpoint.finish()


SECOND_FREE_PUBLISHED = {"super": 179_274, "4x6": 5_636}  # the supermastermind site (as issue 66 quotes it)


def second_free_run(size: str, under: int | None) -> None:
    """Mastermind PxC or Super Mastermind guessing possible codes only from the third guess on, any code second
    (`second_free`), proved on every core, its tree verified; Super Mastermind's checkpoint (where a stop by SIGTERM
    or Ctrl+C keeps its running parts' frames too) seeded with its possible-codes-only proof's (the possible-only
    sets below the second guesses are the same; free sets are keyed apart: `rules.SECOND_FREE`). under: look
    only below this total (the published figure plus one: if none is below, that is recorded, proved)."""
    from solvers.codebreak.optimal.second_free import second_free

    record = Record("optima-possible")
    g, label = second_free_game(size)
    checkpoint = second_free_checkpoint() if size == "super" else None
    t = time.perf_counter()

    def tick(done: int, of: int) -> None:
        print(f"{time.strftime('%H:%M:%S')} {done:,} of {of:,} first guesses' secrets settled "
              f"({cpu_seconds():,.0f} CPU s so far)", flush=True)  # fmt: skip

    before = cpu_seconds()
    try:
        found = second_free(g, Tuning(node_limit=LONG), tick, checkpoint, Execution(default_jobs()), under)
    except (KeyboardInterrupt, Paused):
        if checkpoint is not None:  # its snapshot, frames and runs' record into git, as make frontier's
            return stopped(checkpoint, before)
        print(f"{time.strftime('%H:%M:%S')} stopped ({cpu_seconds() - before:,.0f} CPU s this run)", flush=True)
        return
    except NoneBelow as none:
        record.row(f"{label}, possible codes only from the third guess on (any code second)", f"{none}, proved")
        return ended(record, checkpoint, before, f"proved: {none}")
    published = SECOND_FREE_PUBLISHED.get(size)
    verdict = (
        ""
        if published is None
        else (
            f"; {'agrees with' if found.total == published else 'DISAGREES with'} the published {published:,} "
            "(supermastermind.github.io)"
        )
    )
    record.row(
        f"{label}, possible codes only from the third guess on (any code second): proved",
        f"total {found.total:,} (average {found.total / found.stats.secrets:.6f}, worst {found.stats.worst}, first "
        f"guess {g.experiments[found.first]}) in {time.perf_counter() - t:.1f} s, {peaks()}{verdict}",
    )
    ended(record, checkpoint, before, f"proved: total {found.total:,}{verdict}")


def second_free_strategy(size: str, first: str, per_part: int | None, shard: tuple[int, int] | None = None) -> None:
    """A strategy under the second-guess-free rule from a first guess, each part's second guess the best of the
    per_part the kernel tries first there (None: every one, the optimum given that first guess; `second_free_bound`:
    an upper bound on the rule's optimum), its tree verified; Super Mastermind's sets below the second guess read
    from its possible-only proof's checkpoint. What each part has found is kept in git beside the proofs'
    snapshots (`<name>.parts.json`, written every few second guesses), so a stopped run goes on from there.
    shard (i, n): only the search of its share of the parts (`second_guesses`), beside n - 1 other processes, each
    writing what it found into the same file (under a lock, merged part by part); no strategy is read back."""
    from solvers.codebreak.optimal.second_free import PartBests, second_free_bound, second_guesses

    g, label = second_free_game(size)
    name = f"{snapshot_name('super-mastermind', None, None, True)}.jsonl"
    file = FileCheckpoint(CHECKPOINTS / name) if size == "super" else None
    checkpoint: Checkpoint | None = file if file is None or not shard or shard[0] == 0 else Reading(file)  # the
    # first shard alone appends to the checkpoint's file
    parts, lock = PROOFS / f"second-free-{size}-{first}.parts.json", CHECKPOINTS / f"second-free-{size}-{first}.lock"
    with file_lock(lock):
        kept: PartBests = read_parts(parts)
    before, tried = cpu_seconds(), sum(v[0] for v in kept.values())

    synced = dict(kept)  # the file's entries as this process last read or wrote them

    def told(kept: PartBests) -> None:
        with stops_ignored(), file_lock(lock):  # an entry not changed here since is the file's (another shard's part)
            kept.update({k: v for k, v in read_parts(parts).items() if kept.get(k) == synced.get(k)})
            whole(parts, (json.dumps({str(k): list(v) for k, v in sorted(kept.items())}) + "\n").encode())
            synced.clear()
            synced.update(kept)
        found = sum(v[1] for v in kept.values() if v[2] >= 0)
        print(f"{time.strftime('%H:%M:%S')} {len(kept)} parts begun, {sum(v[0] for v in kept.values()):,} "
              f"second guesses tried, their least totals {found:,}", flush=True)  # fmt: skip

    def ran(how: str) -> None:
        how += f"; {sum(v[0] for v in kept.values()):,} second guesses tried in the parts by its end (from {tried:,})"
        with stops_ignored(), file_lock(lock):
            note_run(f"second-free-{size}-{first}", cpu_seconds() - before, how)

    try:
        if shard is not None:
            second_guesses(
                g, g.experiments.index(first), per_part, kept, told, Tuning(node_limit=LONG), checkpoint, shard
            )
            each = f"up to {per_part} second guesses" if per_part else "every second guess"
            return ran(f"shard {shard[0]} of {shard[1]}, {each} a part")
        found = second_free_bound(
            g, g.experiments.index(first), per_part, Tuning(node_limit=LONG), checkpoint, kept, told
        )
    except (KeyboardInterrupt, Paused):
        ran("stopped")
        raise
    ran(f"a strategy of {found.total:,}, verified")
    record = Record("optima-possible")
    record.row(
        f"{label}, possible codes only from the third guess on (any code second): a strategy, first guess {first}, "
        f"each part's best of {f'its first {per_part} or more second guesses' if per_part else 'every second guess'}",
        f"total {found.total:,} (average {found.total / found.stats.secrets:.6f}, worst {found.stats.worst}), "
        f"verified; {sum(v[0] for v in kept.values()):,} second guesses tried in its parts, "
        f"{cpu_seconds() - before:,.0f} CPU s in this run (the runs before: second-free-{size}-{first}.runs.json), "
        f"{peaks()}",
    )
    record.save()


def read_parts(path: Path) -> dict[int, tuple[int, int, int, int]]:
    """What a strategy's search found in each part (`second_free.PartBests`), as its file keeps it (the last
    candidate tried -1 where it was not written down)."""
    from solvers.codebreak.optimal.second_free import read_part_bests

    return read_part_bests(path.read_text()) if path.exists() else {}


class Reading(NamedTuple):
    """A checkpoint read from and never written (a shard beside the one that writes it)."""

    checkpoint: FileCheckpoint

    def known(self) -> list[Entry]:
        """The checkpoint's entries."""
        return self.checkpoint.known()

    def keep(self, entries: list[Entry]) -> None:
        """Nothing is kept."""


def second_free_game(size: str) -> tuple[Game, str]:
    """The game a second-free run proves, tabled, and its label."""
    if size == "super":
        return build(game_spec("super-mastermind")).tabled(), "Super Mastermind 5x8 (32,768 secrets)"
    pegs, colours = (int(x) for x in size.split("x"))
    game = build(game_spec("mastermind"), {"length": pegs, "colours": colours}).tabled()
    return game, f"Mastermind {pegs}x{colours} ({colours**pegs:,} secrets)"


def ended(record: Record, checkpoint: FileCheckpoint | None, before: float, how: str) -> None:
    """A second-free proof's end: its row saved and, for a proof kept across runs, its run recorded beside its
    snapshot (the snapshot refreshed, the local files removed: `FileCheckpoint.finish`)."""
    record.save()
    if checkpoint is not None:
        note_run(checkpoint.path.stem, cpu_seconds() - before, how)
        checkpoint.finish()


def recorded(size: str) -> tuple[int, int | None]:
    """The optimal total (and least worst case) the benchmark's own proof of a size recorded: Super Mastermind's is
    the published total it agreed with."""
    if size == "super":
        return SUPER_PUBLISHED, None
    pegs, colours = (int(x) for x in size.split("x"))
    ours = {r["task"]: r["ours"] for r in json.loads((FOLDER / "optima.json").read_text())}.get(task(pegs, colours))
    if ours is None:  # proved by make frontier: its record of runs says what it found
        runs = json.loads((PROOFS / f"{snapshot_name('mastermind', pegs, colours, False)}.runs.json").read_text())
        ours = str(runs[-1]["how"])
    found = re.search(r"total ([\d,]+) .*least worst case (\d+)", ours)
    assert found, ours
    return int(found[1].replace(",", "")), int(found[2])


def site_job(size: str) -> None:
    """The jobs `make precompute` runs for a long proof (webapp.results.codebreak_results.CODEBREAK, in this process on
    every core as the job process runs it), timed from the snapshot in git alone: outside a job there is no store
    checkpoint, so nothing of an earlier job's is reused. Mastermind's sizes: the optimal average (which starts
    from the snapshot) and the least worst case (which has none); Super Mastermind: the optimal average guessing
    possible codes only. Each job verifies its tree; the totals are checked here against those the benchmark's
    proof recorded (`recorded`)."""
    from webapp.results.codebreak_results import CODEBREAK, StrategyParams, codebreak_params, shipped_entries

    total, least = recorded(size)
    if size == "super":
        params = codebreak_params("super-mastermind", (None, None, None), "optimal-average", possible_only=True)
        jobs: list[tuple[StrategyParams, str, int | None]] = [(params, "", total)]
        name = "Super Mastermind 5x8 (32,768 secrets) guessing possible codes only"
    else:
        pegs, colours = (int(x) for x in size.split("x"))
        jobs = [
            (codebreak_params("mastermind", (pegs, colours, None), "optimal-average"), "optimal average: ", total),
            (codebreak_params("mastermind", (pegs, colours, None), "optimal-worst"), "least worst case: ", least),
        ]
        name = f"Mastermind {pegs}x{colours} ({colours**pegs:,} secrets)"
    figures = []
    for params, what, expected in jobs:
        shipped = len(shipped_entries(params)) if params.strategy == "optimal-average" else 0
        t = time.perf_counter()
        _, st = CODEBREAK.run(params, progress())
        took = time.perf_counter() - t
        found = st.total if params.strategy == "optimal-average" else st.worst
        assert st.verified and found == expected, (found, expected)
        start = f"from {shipped:,} snapshot entries" if shipped else "from nothing"
        figures.append(f"{what}total {st.total:,} (worst {st.worst}) in {took:.1f} s {start}")
        print(figures[-1], flush=True)
    record = Record("optima-site")
    record.row(f"{name}: make precompute's jobs, from the snapshot in git", "; ".join(figures) + f"; {peaks()}")
    record.save()


def capped(record: Record, pegs: int, colours: int, cap: int) -> None:
    """One size's optimal average within cap guesses, proved, its tree verified."""
    g = build(game_spec("mastermind"), {"length": pegs, "colours": colours})
    t = time.perf_counter()
    st = verify(g, build_tree(g, "optimal-average", max_guesses=cap))
    took = time.perf_counter() - t
    assert st.verified and st.worst <= cap
    record.row(
        f"Mastermind {pegs}x{colours} ({colours**pegs:,} secrets): optimal average within {cap} guesses, proved",
        f"total {st.total:,} (average {st.total / st.secrets:.6f}, worst {st.worst}) in {took:.1f} s",
    )
    record.save()


if __name__ == "__main__":
    main()
