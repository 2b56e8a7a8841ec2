"""The average case: `AverageSearch.solve` proves the least total from the start with the compiled kernel
(`average`), whose subproblems `prove.Schedule` hands out (to this process, forked ones or a cluster), so that
progress is told part by part and a long proof's checkpoint keeps what each part settles. The branch and bound
itself is the kernel's alone."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from solvers.checkpoint import Checkpoint, Entry, Frame, FrameCheckpoint
from solvers.errors import LimitError, Paused
from solvers.halt import proving
from solvers.parallel import ONE, Execution

from ..game import Game
from .average import alone, average, open_parts
from .candidates import candidates
from .readback import read_back
from .rules import BIG, SECOND_FREE, UNCAPPED, Optimum, Symmetry, below, free, restore, saved
from .sets import perfect_member, seals, shortcut
from .symmetry import narrowed, place_classes
from .table import SearchTable, Tuning, split_size

if TYPE_CHECKING:
    from .prove import Schedule, Task

PARALLEL_FROM = 2000  # secrets: smaller games are searched in one process (forking costs more than it saves: 4x6,
# 1,296 secrets, 0.22 s on one process against 0.26 s on two, not counting the fork; 4x7, 2,401, gains 1.7x) ...
CLUSTER_FROM = 1000  # ... unless the run names a cluster, whose operator asked for it
KEEP_MIN_COST = 50  # guesses: a checkpoint keeps the sets that cost at least this (a set of n secrets costs at least
# 2n - 1); the smaller sets below them are searched again in seconds (Super Mastermind's possible-only proof settled
# 16 million sets in its first 7 minutes, 259,000 of them costing 50 or more)
COMPLETE_OPEN_SHARE = 16  # a resumed proof completes a first experiment whose unsettled parts hold at most 1/16 of
# the secrets (the parts a checkpoint or snapshot never kept: searched again in seconds; `settled_under`)
FINE_FROM = 500  # secrets: when a checkpoint is kept, a part this large below a first experiment is searched in
# slices of work, the sets proved in each slice kept as it ends (a part of 4x9 takes hours), each slice going on
# from the frames where the last stopped (`rules.Frames`): so a process killed outright (SIGKILL, out of memory)
# loses at most a slice; a stop asked for (`solvers.halt`) loses nothing. The first slice is ...
SLICE_WORK = 300_000  # ... this much work (Mastermind 4x7's whole proof is 138,576), then each about ...
SLICE_SECONDS = 8.0  # ... this many seconds
PATHS_KEPT = 4096  # the symmetries after this many sequences of experiments are kept (`sym_of`)
KEEP_WORK = 50_000  # work: a checkpoint is looked over for new proved sets (a pass over the whole table) after this
# much work since the last time (less is searched again in a few seconds)
SPLIT_MARK = -1  # a split proof's stop keeps, before its frames, the record (SPLIT_MARK, the least set it split): its
# frames are keyed by the sets its tasks searched, which another split would not hand out (`made_under`)


def made_under(frames: Sequence[Frame]) -> int | None:
    """The least set split by the proof whose stop kept these frames, if it was split and said so."""
    return next((f[1] for f in frames if len(f) == 2 and f[0] == SPLIT_MARK), None)


class NoneBelow(LimitError):
    """A search told to look below a total (`AverageSearch(under=)`) proved that no strategy totals less."""


class AverageSearch(SearchTable):
    """The least total number of experiments over every secret (within at most cap experiments when given),
    proved. run: where its proof runs (`solvers.parallel.Execution`, its entry point's choice: this process by
    default, or forked processes or a cluster, which split it: `prove`); under: a total known to be reachable, or
    published, plus one: the search looks only below it (NoneBelow if none is); checkpoint: where an uncapped
    proof keeps the sets it settles, and resumes from."""

    def __init__(
        self,
        game: Game,
        tuning: Tuning | None = None,
        *,
        cap: int | None = None,
        under: int | None = None,
        checkpoint: Checkpoint | None = None,
        possible_only: bool = False,
        run: Execution = ONE,
    ) -> None:
        n = len(game.secrets)
        self.engine = run.engine() if n >= CLUSTER_FROM else None  # a cluster's, when the run names one
        self.jobs = self.engine.jobs if self.engine else run.jobs
        self.split = self.engine is not None or (self.jobs > 1 and n >= PARALLEL_FROM)  # `solve` splits the proof
        super().__init__(game, tuning, possible_only, shared=self.split and self.engine is None)  # over processes
        # forked from this one, which share the table
        if cap is not None and cap > UNCAPPED and cap != SECOND_FREE:
            raise ValueError(f"a cap of {cap} experiments: past UNCAPPED, only SECOND_FREE has a meaning")
        self.cap = UNCAPPED if cap is None else cap
        self.every = np.zeros((0, 2), dtype=np.int64)  # the kernel's experiments to try: every one
        self.under = int(BIG) if under is None else under
        self.keep: Callable[[list[Entry]], None] | None = None  # where settled sets' entries go, if anywhere
        self.resumed = 0  # entries read back from the checkpoint
        self._kept: set[tuple[int, int]] = set()  # the keys of the entries kept or read back
        self._paths: dict[tuple[int, ...], Symmetry] = {}  # the symmetries after a few experiments (`sym_of`)
        self._kept_at = 0  # the work done when the table was last looked over (`keep_new`)
        self.slices = 0  # slices of large parts ended before the part was settled (`settle_part`)
        self.tasks: list[Task] = []  # the subproblems of the proof, as they ran (`prove`)
        self.restarts = 0  # times a proof on several processes lost a worker and handed its tasks out again
        self.pause_to = checkpoint if isinstance(checkpoint, FrameCheckpoint) and self.cap >= UNCAPPED else None
        frames = self.pause_to.paused() if self.pause_to is not None else []
        self.paused = {(f[2], f[3]): f for f in frames if len(f) > 3}  # where a stopped run's parts stood, by key
        asked, said = tuning.split_from if tuning is not None else None, made_under(frames)
        self.split_from = asked or said or split_size(self.secrets, self.jobs)  # the least set split into tasks
        self.says_split = self.split or said is not None  # a stop says it again, even on one process (where the
        # frames of a split run's tasks wait unused for the next split run)
        if checkpoint is not None and self.cap >= UNCAPPED:
            known = checkpoint.known()
            self.adopt(known)
            self.keep = checkpoint.keep
            self.resumed = len(known)
            self._kept = {(h1, h2) for h1, h2, _, _ in known}

    def average(self, s: NDArray[np.int32], beta: int, depth: int | None = None) -> int:
        """The least total cost of s (below beta) within depth experiments (default: the search's cap), else a lower
        bound at least beta."""
        return self.kernel(s, beta, self.plain, self.cap if depth is None else depth)

    def kernel(
        self, s: NDArray[np.int32], beta: int, sym: Symmetry, depth: int, given: NDArray[np.int64] | None = None
    ) -> int:
        """The compiled kernel's search of s from the start (its frames restore nothing; given: its experiments,
        else every one), LimitError past the budget of work, Paused once halted."""
        self.frames.head[:] = 0
        v = average(s, np.int64(beta), self.every if given is None else given, self.rules, self.memo, sym, depth, 0)
        self.check()
        return int(v)

    def with_first(
        self,
        s: NDArray[np.int32],
        history: Sequence[int],
        e: int,
        best: int = int(BIG),
        told: Callable[[int], None] = lambda done: None,
    ) -> int:
        """The least total cost of s (the set the experiments of history left) with experiment e next, if below
        best; else a lower bound at least best; told(secrets settled) as e's parts are (`least`, e the only
        experiment tried: `solve`'s first experiments, a lesson's guess)."""
        one = np.array([[0, e]], dtype=np.int64)
        return self.least(s, history, one, best, lambda i, done: told(done), entry=False)[0]

    def least(
        self,
        s: NDArray[np.int32],
        history: Sequence[int],
        cands: NDArray[np.int64],
        best: int,
        told: Callable[[int, int], None] = lambda i, done: None,
        entry: bool = True,
    ) -> tuple[int, int]:
        """(the least total of s below best, the first experiment achieving it; or best and -1 when none is below
        it): the candidates in their order (each with its bound, best first), in this process (`prove.Schedule`,
        which `solve` runs too), told(i, secrets settled) for the i-th. entry False: s's own table entry is neither
        read nor written (cands are other experiments than the search's own)."""
        from .prove import Schedule

        schedule = Schedule(self, 1, KEEP_WORK)
        value, choice = schedule.least(s, tuple(int(h) for h in history), cands, best, told, entry)
        return (value, choice) if choice >= 0 else (max(value, best), -1)

    def best_at(self, s: NDArray[np.int32], history: Sequence[int], best: int = int(BIG)) -> tuple[int, int]:
        """(the least total cost of s, an experiment achieving it) in the middle of a game (s: the set the
        experiments of history left). At the start, one experiment per class of first experiments, each searched
        under the symmetries that fix it, in the order of their bounds, as `solve` searches the start; later, the
        kernel's `average` on s under the symmetries fixing history (`sym_of`), as the proof searches a part, its
        experiment read from the table. With best (a total some experiment achieves), only experiments below it
        are sought: (best, -1) when none is."""
        if history and not self.places.shape[0]:
            depth = self.depth_at(len(history))
            value = self.kernel(s, best, self.sym_of(tuple(history)), depth)
            if value >= best:
                return best, -1
            held, stored, exact, choice = self.held(s, depth)
            if held and exact and stored == value and choice >= 0:
                return value, choice
            best = value + 1  # settled without a table entry (a shortcut): the experiment is sought below
        return self.least(s, history, self.candidates_at(s, history), best)

    def candidates_at(self, s: NDArray[np.int32], history: Sequence[int]) -> NDArray[np.int64]:
        """The experiments `best_at` tries on s (the set the experiments of history left), each with its bound, best
        first (`candidates`): at the start one per class of first experiments; on a game with places, one per class
        of the places history leaves alike; else every one, ordered under the symmetries fixing history."""
        sym, depth = self.plain, self.depth_at(len(history))
        if not history:
            allowed = self.root_allowed()
        elif self.places.shape[0]:
            allowed = place_classes(self.places, np.array(history, dtype=np.int64))
        else:
            allowed, sym = self.rules.everything, self.sym_of(tuple(history))
        return candidates(s, allowed, self.rules, self.WORST, sym, free(depth))

    def solve(self, tick: Callable[[int, int], None] | None = None) -> Optimum:
        """The optimal total from the start, proved (`prove.Schedule`: its subproblems in this process, or on
        several processes or a cluster for large games)."""
        from .prove import Schedule

        self.memo.counters["stopped"][0] = False  # a search halted before goes on (`paused`)
        workers = Schedule(self, self.jobs if self.split else 1, KEEP_WORK, self.engine)
        try:
            with proving():  # so a second stop while the frames are kept halts again, never raises there
                try:
                    return self._solve(tick, workers)
                except Paused as stop:  # halted: what the table proved and where each running part stood, kept
                    self.paused.update({(f[2], f[3]): f for f in stop.frames})
                    self.keep_new(every=True)
                    if self.pause_to is not None:
                        said = [(SPLIT_MARK, self.split_from)] if self.says_split else []
                        self.pause_to.pause(said + list(self.paused.values()))
                    raise
        finally:
            workers.close()

    def _solve(self, tick: Callable[[int, int], None] | None, workers: Schedule) -> Optimum:
        s = self.everyone()
        if self.resumed and self.under >= BIG:  # a resumed proof looks below the best first experiment it settled
            self.under = self.settled_under()
        cands = self.root_candidates(s, self.root_allowed())
        done = np.zeros(len(cands), dtype=np.int64)

        def told(i: int, settled: int) -> None:
            done[i] = settled
            if tick:
                tick(int(done.sum()), len(cands) * len(s))

        best, choice = workers.least(s, (), cands, self.under, told)
        work, self.tasks, self.restarts = workers.work, workers.log, workers.restarts
        best, self.root_choice = (best, choice) if choice >= 0 else (self.under, -1)
        self.keep_new(every=True)
        if self.root_choice < 0 and self.under < BIG:
            raise NoneBelow(f"no strategy totals fewer than {self.under:,} experiments (proved)")
        return Optimum(best, self.work + work)  # BIG and no choice: no strategy at all (within a cap)

    def recipe(self, game: object) -> Recipe:
        """What rebuilds this search in a cluster's worker (`rebuilt`), the game given as the engine holds it."""
        return Recipe(game, self.tuning._replace(split_from=self.split_from), self.cap, self.possible_only)

    def depth_at(self, made: int) -> int:
        """The depth left after `made` experiments (the search's cap less them; no cap stays no cap)."""
        depth = self.cap
        for _ in range(made):
            depth = below(depth)
        return depth

    def sym_of(self, path: tuple[int, ...]) -> Symmetry:
        """The symmetries in force after the experiments of path, as the kernel narrows them down a tree from the
        first experiment's (`first_symmetries`); every one before any experiment (`start_symmetries`)."""
        if not path:
            return self.start_symmetries()
        if len(path) == 1:
            return self.first_symmetries(path[0])
        if path not in self._paths:
            if len(self._paths) >= PATHS_KEPT:
                self._paths.clear()
            self._paths[path] = narrowed(self.sym_of(path[:-1]), path[-1])
        return self._paths[path]

    def settle_part(self, part: NDArray[np.int32], left: int, sym: Symmetry, depth: int, experiment: int = -1) -> int:
        """The kernel's `average` of one part of a first experiment (below left, else a bound at least left), going
        on where a stopped run left it when its frames were kept (`paused`). With a checkpoint, a part of FINE_FROM
        secrets or more is searched in slices (SLICE_WORK, then SLICE_SECONDS), what each slice proved kept as it
        ends, the next going on from the frames; so is what the part proved once settled. Halted: Paused, with the
        part's frames. depth: the experiments left to the part. experiment: that experiment alone is tried (a younger
        brother, `average.brother`), the part's own entry neither read nor written, its frames keyed apart
        (`average.alone`)."""
        counters, frames, rules = self.memo.counters, self.frames, self.rules
        frames.head[:] = 0
        k1, k2 = self.key(part, depth)
        if experiment >= 0:
            k1, k2 = alone(k1, k2, experiment)
        mine = self.paused.pop((int(k1), int(k2)), None)
        if mine is not None:
            restore(frames, mine)
        given = self.every if experiment < 0 else np.array([[0, experiment]], dtype=np.int64)
        counters["guarded"][0] = experiment >= 0
        limit = int(counters["limit"][0])
        sliced = self.keep is not None and len(part) >= FINE_FROM
        size = SLICE_WORK
        while True:
            if sliced:
                counters["limit"][0] = min(limit, self.work + size)
            started, before = time.monotonic(), self.work
            v = int(average(part, np.int64(left), given, rules, self.memo, sym, depth, 0))
            if not counters["stopped"][0] or self.memo.halt[0] or int(counters["limit"][0]) >= limit:
                break
            counters["stopped"][0] = False  # a slice's end: keep what it proved, then go on from its frames
            self.slices += 1
            self.keep_new(every=True)
            frames.head[1] = frames.head[0]
            rate = (self.work - before) / max(time.monotonic() - started, 1e-3)  # work a second on this machine
            # fitted to SLICE_SECONDS, and doubled after a slice too small to enter the next set (it got nowhere)
            size = max(int(rate * SLICE_SECONDS), 2 * size if self.work == before else 1)
        counters["limit"][0], counters["guarded"][0] = limit, False
        if counters["stopped"][0] and self.memo.halt[0]:
            raise Paused([saved(frames)] if frames.head[0] else [])
        self.check()
        if experiment >= 0:
            return v
        if self.keep is not None and v < left and not self.proved(part, depth)[0]:
            self.adopt([self.entry(part, v, depth)])  # settled by a shortcut, which the kernel does not record
        self.keep_new()
        return v

    def keep_new(self, every: bool = False) -> int:
        """Keep the table's proved sets costing at least KEEP_MIN_COST that are not kept yet (with a checkpoint), if
        KEEP_WORK work was done since the last look (every: whatever the work); how many were kept."""
        if self.keep is None or not (every or self.work - self._kept_at >= KEEP_WORK):
            return 0
        self._kept_at = self.work
        m = self.memo
        at = np.flatnonzero(m.exact & (m.value >= KEEP_MIN_COST) & (m.choice != -1))  # a brother's too (`prove`)
        k1, k2, value, exact, choice, check = m.k1[at], m.k2[at], m.value[at], m.exact[at], m.choice[at], m.check[at]
        whole = seals(k1, k2, value, exact, choice) == check  # not two processes' entries mixed
        new = [
            (h1, h2, v, c)
            for h1, h2, v, c, w, e in zip(
                k1.tolist(), k2.tolist(), value.tolist(), choice.tolist(), whole.tolist(), exact.tolist(), strict=True
            )
            if w and e and c != -1 and v >= KEEP_MIN_COST and (h1, h2) not in self._kept
        ]
        if new:
            self._kept.update((h1, h2) for h1, h2, _, _ in new)
            self.keep(new)
        return len(new)

    def standing(self) -> list[tuple[int, int, list[tuple[int, int, bool]]]]:
        """Where an average proof stands, from what its table holds (a checkpoint's settled parts): for each first
        experiment in the order `solve` tries them, (the experiment, the least total it can still have: its parts'
        settled costs and the others' bounds one experiment deeper, each part as (secrets, cost or bound, settled)),
        largest part first."""
        s = self.everyone()
        out = []
        for _, g in self.root_candidates(s, self.root_allowed()):
            sym = self.first_symmetries(int(g), keep=False)
            members, start, lows, total, order = open_parts(
                s, int(g), np.int64(BIG), self.rules, self.memo, self.cap, sym
            )
            parts = []
            for o in order:
                part = members[start[o] : start[o + 1]]
                parts.append((len(part), int(lows[o]), self.proved(part, below(self.cap))[0]))
            out.append((int(g), int(total), parts))
        return out

    def settled_under(self) -> int:
        """One more than the least total of a strategy the table knows (a resumed proof's checkpoint), so that the
        optimum lies below it; BIG if none. Each first experiment whose parts are all settled has one. Else the
        first experiment with the least bound whose unsettled parts hold at most 1/COMPLETE_OPEN_SHARE of the
        secrets (the small sets a checkpoint and a snapshot do not keep) has those parts searched now, exactly."""
        stands = self.standing()
        totals = [total for _, total, parts in stands if all(done for _, _, done in parts)]
        if totals:
            return min(totals) + 1
        nearly = [
            (total, e)
            for e, total, parts in stands
            if COMPLETE_OPEN_SHARE * sum(n for n, _, done in parts if not done) <= self.secrets
        ]
        if not nearly:
            return int(BIG)
        _, e = min(nearly)
        return self.with_first(self.everyone(), (), e) + 1

    def entry(self, s: NDArray[np.int32], budget: int, depth: int = UNCAPPED) -> Entry:
        """A proved set's table entry (its key, cost and experiment), its cost at most budget."""
        cost, choice = self.best_of(s, budget, depth)
        h1, h2 = self.key(s, depth)
        return int(h1), int(h2), cost, choice

    def part_proof(self, part: NDArray[np.int32], cost: int, depth: int = UNCAPPED) -> list[Entry]:
        """The entries of a set whose least cost is proved (with depth experiments left): its own, then every set's
        on its optimal tree, as `read_back` reads each from the table (`best_of`, each cost at most cost), so that
        another run or process reads its cost and tree back without searching (`adopt`)."""
        out: list[Entry] = []

        class Noted:  # the search, each set `read_back` reads noted as an entry
            def best_of(noted, s: NDArray[np.int32], budget: int, left: int = UNCAPPED) -> tuple[int, int]:  # noqa: N805
                out.append(self.entry(s, budget, left))
                return out[-1][2], out[-1][3]

        read_back(self.game, Noted(), part, cost, False, -1, depth)
        return out

    def best_of(self, s: NDArray[np.int32], budget: int, depth: int = UNCAPPED) -> tuple[int, int]:
        """(cost, experiment) on the optimal tree for a set whose cost is at most budget, with at most depth
        experiments left (the average under a cap): read back from the table, or searched again if it was crowded
        out."""
        if self.game.must_hit and len(s) <= 2:
            return 2 * len(s) - 1, int(s[0])
        if depth >= 3 and int(shortcut(s, self.rules)) >= 0:  # the shortcuts `average` takes
            perfect = int(perfect_member(s, self.rules))
            return (2 * len(s) - 1, perfect) if perfect >= 0 else (6, int(s[0]))
        for again in (False, True):
            if again:
                self.average(s, budget + 1, depth=depth)
            ok, cost, choice = self.proved(s, depth)
            if ok:
                return cost, choice
        raise AssertionError("a set on the optimal tree has no proved experiment on a second search")


class Recipe(NamedTuple):
    """What rebuilds a proof's search in a cluster's worker (`rebuilt`): game, tuning, cap, rule."""

    game: Any
    tuning: Tuning
    cap: int
    possible_only: bool


def rebuilt(recipe: Recipe, game: Game) -> AverageSearch:
    """A split proof's search as a cluster's worker runs its tasks: in one process, with a table of its own."""
    return AverageSearch(game, recipe.tuning, cap=recipe.cap, possible_only=recipe.possible_only)
