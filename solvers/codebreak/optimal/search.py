"""Driving the compiled search from Python: one `Search` per game and case (average or worst), its table kept so
that the optimal tree can be read back (`best_of`), the first experiment searched from here so that progress can
be told."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from solvers.checkpoint import Checkpoint, Entry
from solvers.errors import LimitError
from solvers.parallel import default_jobs

from ..game import Game
from .average import average, open_parts
from .candidates import candidates
from .rules import (
    BIG,
    UNCAPPED,
    Optimum,
    Rules,
    Symmetry,
    apart,
    below,
    capacity,
    counting_bounds,
    new_memo,
    possible_only_game,
)
from .sets import fingerprint, holds, keyed, perfect_member, record, shortcut, slot
from .symmetry import narrowed, place_classes, symmetries
from .worst import fits

if TYPE_CHECKING:
    from .parallel import Workers

CACHE_BITS = 22  # 4 million sets in the table (about 120 MB)
LARGE_CACHE_BITS = 24  # games of more than LARGE_GAME secrets (Bulls and Cows): 16 million (about 480 MB)
SMALL_CACHE_BITS = 16  # games of at most SMALL_GAME secrets: a small table is quicker
MEDIUM_CACHE_BITS = 20  # games of at most MEDIUM_GAME secrets: 1 million sets (about 30 MB; 4x6's proof keeps
# 6,693), as a fresh process maps a larger table's pages in at a cost (4x6: 0.2 s more with 4 million)
LARGE_GAME, MEDIUM_GAME, SMALL_GAME = 2000, 1296, 256
NODE_LIMIT = 400_000_000  # work (the secrets of every set searched) before the search gives up (LimitError)
SEED = 20261122  # the random numbers of the fingerprints
COLUMNS_FROM = 1000  # experiments: the bound one experiment deeper reads the table by columns (`rules.columns`) ...
COLUMNS_MAX_CELLS = 8000 * 8000  # ... a copy of at most this many outcomes (5x6: 60 MB; not Super Mastermind's 1 GiB)
PARALLEL_FROM = 1000  # secrets: smaller games are searched in one process (forking costs more than it saves)
KEEP_MIN_COST = 50  # guesses: a checkpoint keeps the sets that cost at least this (a set of n secrets costs at least
# 2n - 1); the smaller sets below them are searched again in seconds (Super Mastermind's possible-only proof settled
# 16 million sets in its first 7 minutes, 259,000 of them costing 50 or more)
COMPLETE_OPEN_SHARE = 16  # a resumed proof completes a first experiment whose unsettled parts hold at most 1/16 of
# the secrets (the parts a checkpoint or snapshot never kept: searched again in seconds; `settled_under`)
FINE_FROM = 500  # secrets: a set this large below a first experiment is searched from Python when a checkpoint is
# kept, level by level down to smaller sets, so that each set below it is kept as it is settled (a part of 4x9
# takes hours)


class NoneBelow(LimitError):
    """A search told to look below a total (`Search(under=)`) proved that no strategy totals less."""


def rules_of(game: Game, lookahead: bool = True, possible_only: bool = False) -> tuple[Rules, int]:
    """The game's arrays for the kernels, and the counting bound's depth (the fewest experiments that could
    finish every secret); possible_only: only codes still possible are guessed (`possible_only_game`)."""
    if possible_only:
        possible_only_game(game)
    table = np.ascontiguousarray(game.dense())
    win = game.win_outcome if game.must_hit else -1
    present = np.unique(table)
    branches = len(present) - (1 if game.must_hit and win in present else 0)
    rng = np.random.default_rng(SEED)
    n = len(game.secrets)
    r1, r2 = (rng.integers(1, 2**63, size=n, dtype=np.uint64) * np.uint64(2) + np.uint64(1) for _ in range(2))
    top = 1
    while capacity(top, branches, game.must_hit) < n:
        top += 1
    caps = np.array([capacity(d, branches, game.must_hit) for d in range(top + 40)], dtype=np.int64)
    bound = counting_bounds(n, branches, game.must_hit)
    everything = np.ones(table.shape[0], dtype=np.bool_)
    wide = lookahead and not possible_only and table.shape[0] >= COLUMNS_FROM and table.size <= COLUMNS_MAX_CELLS
    columns = np.ascontiguousarray(table.T) if wide else np.zeros((0, table.shape[0]), dtype=np.uint8)
    rules = Rules(
        table,
        int(table.max()) + 1,
        game.must_hit,
        win,
        r1,
        r2,
        bound,
        caps,
        everything,
        lookahead,
        possible_only,
        columns,
        apart(bound, branches),
    )
    return rules, top


def _keep_large(checkpoint: Checkpoint, entries: list[Entry]) -> None:
    """Keep the entries of the sets costing at least KEEP_MIN_COST, if any."""
    large = [e for e in entries if e[2] >= KEEP_MIN_COST]
    if large:
        checkpoint.keep(large)


class Search:
    """One optimal search over a game, with its table (kept so that the tree can be read back). `lookahead` and
    `places` switch off a bound and a symmetry reduction, to check that they change no result; `jobs`: processes
    for the first experiments of `solve` (`parallel`; default `solvers.parallel.default_jobs`), each with its own
    table and work limit."""

    def __init__(
        self,
        game: Game,
        worst: bool,
        node_limit: int = NODE_LIMIT,
        cache_bits: int = CACHE_BITS,
        lookahead: bool = True,
        places: bool = True,
        jobs: int | None = None,
        cap: int | None = None,
        checkpoint: Checkpoint | None = None,
        possible_only: bool = False,
        under: int | None = None,
    ) -> None:
        self.game = game
        # the average: a total known to be reachable, or published, plus one; the search looks only below it, so
        # that first experiments worse than it are cut off from the start (`solve`: NoneBelow if none is below)
        self.under = int(BIG) if under is None or worst else under
        self.cap = UNCAPPED if cap is None or worst else cap  # the average case within at most cap experiments
        self.jobs = default_jobs() if jobs is None else jobs
        self.worst = worst
        self.rules, self.lowest_depth = rules_of(game, lookahead, possible_only)
        n = len(game.secrets)
        bits = cache_bits
        if cache_bits == CACHE_BITS:  # unless asked, by the game's size
            bits = LARGE_CACHE_BITS if n > LARGE_GAME else CACHE_BITS
            bits = MEDIUM_CACHE_BITS if n <= MEDIUM_GAME else bits
        self.memo = new_memo(1 << (min(bits, SMALL_CACHE_BITS) if n <= SMALL_GAME else bits), node_limit)
        e = self.rules.table.shape[0]
        no_hist = np.zeros(0, dtype=np.int64)
        self.plain = Symmetry(np.zeros((1, e), dtype=np.int32), no_hist, np.zeros((0, 1), dtype=np.int8), no_hist)
        # black-peg games: the codes, for the place-by-place symmetries (`place_classes`)
        self.places = (
            np.array([[ord(c) - ord("A") for c in label] for label in game.experiments], dtype=np.int8)
            if game.place_symmetric and places
            else self.plain.places
        )
        self.root_choice = -1
        # a long proof's checkpoint (uncapped average searches): the parts settled by earlier runs are read back
        # from its entries at once, and every part settled now is kept (`first_total`)
        self.keep: Callable[[list[Entry]], None] | None = None
        self.resumed = 0  # entries read back from the checkpoint
        if checkpoint is not None and not worst and self.cap >= UNCAPPED:
            known = checkpoint.known()
            self.adopt(known)
            self.keep = partial(_keep_large, checkpoint)
            self.resumed = len(known)
        self._root_rows: NDArray[np.int64] | None = None  # the worst case's first experiments (fits_from_start)
        self._symmetries: dict[int, Symmetry] = {}

    @property
    def secrets(self) -> int:
        """How many secrets the game has."""
        return len(self.game.secrets)

    @property
    def work(self) -> int:
        """The secrets of every set searched so far."""
        return int(self.memo.counters[0]["work"])

    def _check(self) -> None:
        if self.memo.counters[0]["stopped"]:
            limit = int(self.memo.counters[0]["limit"])
            raise LimitError(
                f"too large to search here: past the search's budget ({limit:,} secrets in the sets searched)"
            )

    def root_allowed(self) -> NDArray[np.bool_]:
        """One experiment per symmetry class at the start."""
        if self.places.shape[0]:
            return place_classes(self.places, self.plain.hist)
        allowed = np.zeros(self.rules.table.shape[0], dtype=np.bool_)
        seen: set[int] = set()
        for e, cls in enumerate(self.game.orbit or range(self.rules.table.shape[0])):
            if cls not in seen:
                seen.add(cls)
                allowed[e] = True
        return allowed

    def _after(self, g: int, keep: bool = True) -> Symmetry:
        """The symmetries in force once experiment g is made first: those of `symmetries` that fix g (built once
        per experiment, unless keep is False: Super Mastermind's AAAAB has 17,280, 2.3 GB), or in black-peg games
        their place-by-place symmetries, which include them."""
        if self.places.shape[0]:
            return self.plain._replace(places=self.places, hist=np.array([g], dtype=np.int64))
        if g in self._symmetries:
            return self._symmetries[g]
        perm = symmetries(self.game, g)
        after = self.plain._replace(perm=perm, stab=np.arange(len(perm), dtype=np.int64))
        if keep:
            self._symmetries[g] = after
        return after

    def average(
        self, s: NDArray[np.int32], beta: int, allowed: NDArray[np.bool_] | None = None, depth: int | None = None
    ) -> int:
        """The least total cost of s (below beta) within depth experiments (default: the search's cap), else a lower
        bound at least beta."""
        a = self.rules.everything if allowed is None else allowed
        d = self.cap if depth is None else depth
        v = average(s, np.int64(beta), a, self.rules, self.memo, self.plain, d)
        self._check()
        return int(v)

    def after(self, history: Sequence[int]) -> Symmetry:
        """The symmetries that fix every experiment of history, for a search from the middle of a game: the
        place-by-place ones in black-peg games; none in others (exact, only slower)."""
        if self.places.shape[0]:
            return self.plain._replace(places=self.places, hist=np.array(history, dtype=np.int64))
        return self.plain

    def with_first(self, s: NDArray[np.int32], history: Sequence[int], e: int, best: int = int(BIG)) -> int:
        """The least total cost of s (the set the experiments of history left) with experiment e next, if below
        best; else a lower bound at least best. A first experiment (no history: s is every secret) is searched under
        the symmetries that fix it, as `solve` searches it."""
        sym = self.after((*history, e)) if history else self._after(e)
        outcomes = self.rules.table[e, s]
        total = len(s)
        for o in np.unique(outcomes):
            if total >= best:
                return total
            if not (self.game.must_hit and o == self.rules.win):
                part = s[outcomes == o]
                total += int(
                    average(part, np.int64(best - total), self.rules.everything, self.rules, self.memo, sym, self.cap)
                )
                self._check()
        return total

    def best_at(self, s: NDArray[np.int32], history: Sequence[int]) -> tuple[int, int]:
        """(the least total cost of s, an experiment achieving it) in the middle of a game (s: the set the
        experiments of history left): one experiment per class under the symmetries fixing history (at the start:
        one per class of first experiments), in the order of their bounds, as `solve` searches the start."""
        hist = np.array(history, dtype=np.int64)
        if not history:
            allowed = self.root_allowed()
        elif self.places.shape[0]:
            allowed = place_classes(self.places, hist)
        else:
            allowed = self.rules.everything
        best, choice = int(BIG), -1
        for low, e in self.root_candidates(s, allowed):
            if low >= best:
                break
            total = self.with_first(s, history, int(e), best)
            if total < best:
                best, choice = total, int(e)
        return best, choice

    def fits(self, s: NDArray[np.int32], depth: int, allowed: NDArray[np.bool_] | None = None) -> bool:
        """Whether s can be finished within depth experiments."""
        a = self.rules.everything if allowed is None else allowed
        ok = fits(s, depth, a, self.rules, self.memo, self.plain)
        self._check()
        return bool(ok)

    def root_candidates(self, s: NDArray[np.int32], allowed: NDArray[np.bool_]) -> NDArray[np.int64]:
        """The first experiments to try, each with its bound (worst case: its largest part), best first."""
        return candidates(s, allowed, self.rules, self.worst, self.plain)

    def solve(self, tick: Callable[[int, int], None] | None = None) -> Optimum:
        """The optimal cost from the start, proved (on several processes for large games: `parallel`)."""
        s = np.arange(len(self.game.secrets), dtype=np.int32)
        workers = None
        if self.jobs > 1 and len(s) >= PARALLEL_FROM and not self.worst:  # the worst case: see `parallel`
            from .parallel import Workers

            workers = Workers(self, self.jobs)
        try:
            return self._solve(s, tick, workers)
        finally:
            if workers is not None:
                workers.close()

    def _solve(self, s: NDArray[np.int32], tick: Callable[[int, int], None] | None, workers: Workers | None) -> Optimum:
        if self.worst:
            depth = self.lowest_depth
            try:
                while not self.fits_from_start(depth, tick):
                    depth += 1
            except LimitError as stopped:  # what was proved before the budget ran out
                raise LimitError(f"{stopped}; proved so far: at least {depth} experiments") from stopped
            return Optimum(depth, self.work)
        if self.resumed and self.under >= BIG:  # a resumed proof looks below the best first experiment it settled
            self.under = self.settled_under()
        cands = self.root_candidates(s, self.root_allowed())
        done = np.zeros(len(cands), dtype=np.int64)

        def told(i: int, settled: int) -> None:
            done[i] = settled
            if tick:
                tick(int(done.sum()), len(cands) * len(s))

        work = 0
        if workers is not None:
            best, i, proof = workers.average(cands, told, self.under)
            work = workers.work
            if i >= 0:
                self.root_choice = int(cands[i][1])
                self.adopt(proof)
        else:
            best = self.under
            for i, (low, g) in enumerate(cands):
                if low >= best:
                    break
                total = self.first_total(s, int(g), best, partial(told, i))
                if total < best:
                    best, self.root_choice = total, int(g)
        if self.root_choice < 0 and self.under < BIG:
            raise NoneBelow(f"no strategy totals fewer than {self.under:,} experiments (proved)")
        return Optimum(best, self.work + work)  # BIG and no choice: no strategy at all (within a cap)

    def standing(self) -> list[tuple[int, int, list[tuple[int, int, bool]]]]:
        """Where an average proof stands, from what its table holds (a checkpoint's settled parts): for each first
        experiment in the order `solve` tries them, (the experiment, the least total it can still have: its parts'
        settled costs and the others' bounds one experiment deeper, each part as (secrets, cost or bound, settled)),
        largest part first."""
        s = np.arange(len(self.game.secrets), dtype=np.int32)
        out = []
        for _, g in self.root_candidates(s, self.root_allowed()):
            members, start, lows, total, order = open_parts(
                s, int(g), np.int64(BIG), self.rules, self.memo, self.cap, self._after(int(g), keep=False)
            )
            parts = []
            for o in order:
                part = members[start[o] : start[o + 1]]
                h1, h2 = self._key(part, below(self.cap))
                at = slot(self.memo, h1, h2)
                parts.append((len(part), int(lows[o]), bool(holds(self.memo, at, h1, h2) and self.memo.exact[at])))
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
        s = np.arange(len(self.game.secrets), dtype=np.int32)
        nearly = [
            (total, e)
            for e, total, parts in stands
            if COMPLETE_OPEN_SHARE * sum(n for n, _, done in parts if not done) <= len(s)
        ]
        if not nearly:
            return int(BIG)
        _, e = min(nearly)
        return self.first_total(s, e, int(BIG), lambda _: None) + 1

    def fits_from_start(self, depth: int, tick: Callable[[int, int], None] | None = None) -> bool:
        """Whether the whole game can be finished within depth experiments (worst case; False is a proof that it
        cannot: every first experiment, one per symmetry class, was refuted by the complete search)."""
        s = np.arange(len(self.game.secrets), dtype=np.int32)
        if self._root_rows is None:  # the same for every depth tried
            self._root_rows = self.root_candidates(s, self.root_allowed())
        cands = self._root_rows[self._root_rows[:, 0] <= self.rules.caps[depth - 1]]
        for i, (_, g) in enumerate(cands):
            if tick:
                tick(i, len(cands))
            if self.first_fits(s, int(g), depth):
                self.root_choice = int(g)
                return True
        return False

    def first_total(
        self, s: NDArray[np.int32], g: int, best: int, told: Callable[[int], None], cap: Callable[[], int] | None = None
    ) -> int:
        """The total cost of s with experiment g first if below best, else a lower bound at least best: as
        `average` does for one experiment, with the parts searched one by one from here so that progress is told
        after each (secrets whose part is settled). cap(), when given, may lower best before each part (another
        process found a better first experiment)."""
        after = self._after(g)
        members, start, lows, total, order = open_parts(s, g, np.int64(best), self.rules, self.memo, self.cap, after)
        total = int(total)
        done = len(s) - sum(int(start[o + 1] - start[o]) for o in order)
        for o in order:
            best = min(best, cap()) if cap else best
            if total >= best:
                return total
            told(done)
            part = members[start[o] : start[o + 1]]
            left = np.int64(best - (total - int(lows[o])))
            if self.keep is not None and len(part) >= FINE_FROM:
                v = self._average_here(part, int(left), after)
            else:
                v = average(part, left, self.rules.everything, self.rules, self.memo, after, below(self.cap))
            self._check()
            if self.keep is not None and v < left:  # settled exactly: kept for a restart
                self.keep(self.part_proof(part, int(v)))
            total += int(v) - int(lows[o])
            done += len(part)
        told(done)
        return total

    def _average_here(self, s: NDArray[np.int32], beta: int, sym: Symmetry) -> int:
        """What `average` returns for s (uncapped, below beta; else a lower bound at least beta), its candidates
        tried from here as the kernel tries them, so that every part of a candidate settled exactly is kept: a
        run stopped inside a large part resumes from the parts below it."""
        lb = int(self.rules.bound[len(s)])
        if lb >= beta:
            return lb
        h1, h2 = self._key(s, UNCAPPED)
        at = slot(self.memo, h1, h2)
        if holds(self.memo, at, h1, h2):
            if self.memo.exact[at] or self.memo.value[at] >= beta:
                return int(self.memo.value[at])
            lb = max(lb, int(self.memo.value[at]))
        best, best_g, floor = beta, -1, int(BIG)
        for low, g in candidates(s, self.rules.everything, self.rules, False, sym):
            if low >= best:
                floor = min(floor, int(low))
                break
            total = self._parts_total(s, int(g), best, narrowed(sym, int(g)))
            if total < best:
                best, best_g = total, int(g)
            else:
                floor = min(floor, total)
        if best_g < 0:
            best = max(floor, lb)
        record(self.memo, h1, h2, np.int64(best), best_g >= 0, best_g)
        return best

    def _parts_total(self, s: NDArray[np.int32], g: int, best: int, inner: Symmetry) -> int:
        """The total of s with g first (below best; else at least best), each part kept when settled exactly:
        parts of FINE_FROM secrets or more searched from here again, smaller ones by the kernel."""
        members, start, lows, total, order = open_parts(s, g, np.int64(best), self.rules, self.memo, UNCAPPED, inner)
        total = int(total)
        for o in order:
            if total >= best:
                break
            part = members[start[o] : start[o + 1]]
            left = best - (total - int(lows[o]))
            if len(part) >= FINE_FROM:  # large parts one level further down too
                v = self._average_here(part, left, inner)
            else:
                v = int(average(part, np.int64(left), self.rules.everything, self.rules, self.memo, inner, UNCAPPED))
            self._check()
            if self.keep is not None and v < left:
                self.keep(self.part_proof(part, v))
            total += v - int(lows[o])
        return total

    def first_fits(self, s: NDArray[np.int32], g: int, depth: int) -> bool:
        """Whether experiment g first, then every part within depth - 1, finishes s within depth (the parts
        searched with the symmetries that fix g)."""
        after = self._after(g)
        outcomes = self.rules.table[g, s]
        for o in sorted(set(outcomes.tolist()), key=lambda o: -int((outcomes == o).sum())):
            if self.game.must_hit and o == self.rules.win:
                continue
            ok = fits(s[outcomes == o], depth - 1, self.rules.everything, self.rules, self.memo, after)
            self._check()
            if not ok:
                return False
        return True

    def load_kernels(self) -> None:
        """Load (or compile) every kernel this class calls, on an empty set: processes forked after it start with
        them loaded, and never compile one at the same time as another."""
        s = np.zeros(0, dtype=np.int32)
        e = self.rules.everything
        average(s, np.int64(0), e, self.rules, self.memo, self.plain, UNCAPPED)
        fits(s, 1, e, self.rules, self.memo, self.plain)
        open_parts(s, 0, np.int64(0), self.rules, self.memo, UNCAPPED, self.plain)
        h1, h2 = (np.uint64(h) for h in fingerprint(s, self.rules))
        holds(self.memo, slot(self.memo, h1, h2), h1, h2)
        record(self.memo, h1, h2, np.int64(0), True, -1)  # the empty set's cost: never looked up
        keyed((h1, h2), 1)
        shortcut(s, self.rules)
        perfect_member(s, self.rules)

    def proof_below(self, s: NDArray[np.int32], g: int, budget: int) -> list[Entry]:
        """The table entries of every set on the optimal tree below experiment g at s (as `best_of` reads them),
        so that another process's search can read the tree back without searching (`adopt`)."""
        out: list[Entry] = []
        stack = [(s, g, budget, self.cap)]
        while stack:
            alive, e, limit, depth = stack.pop()
            inner = limit - 1 if self.worst else limit
            outcomes = self.rules.table[e, alive]
            for o in np.unique(outcomes):
                part = alive[outcomes == o]
                if (self.game.must_hit and o == self.rules.win) or (not self.game.must_hit and len(part) <= 1):
                    continue
                cost, choice = self.best_of(part, inner, below(depth))
                h1, h2 = self._key(part, below(depth))
                out.append((int(h1), int(h2), cost, choice))
                stack.append((part, choice, inner, below(depth)))
        return out

    def part_proof(self, part: NDArray[np.int32], cost: int) -> list[Entry]:
        """The entries of a part whose least cost is proved (uncapped): its own, and every set's on its optimal
        tree, so that another run reads the part's cost and tree back without searching."""
        choice = self.best_of(part, cost)[1]
        h1, h2 = self._key(part, UNCAPPED)
        return [(int(h1), int(h2), cost, choice), *self.proof_below(part, choice, cost)]

    def adopt(self, entries: list[Entry]) -> None:
        """Keep another process's proved entries in this search's table."""
        for h1, h2, cost, choice in entries:
            record(self.memo, np.uint64(h1), np.uint64(h2), np.int64(cost), True, choice)

    def best_of(self, s: NDArray[np.int32], budget: int, depth: int = UNCAPPED) -> tuple[int, int]:
        """(cost, experiment) on the optimal tree for a set whose cost (or depth) is at most budget, with at most
        depth experiments left (the average case under a cap): read back from the table, or searched again if it
        was crowded out."""
        if self.game.must_hit and len(s) <= 2:
            return (len(s) if self.worst else 2 * len(s) - 1), int(s[0])
        if not self.worst and depth >= 3 and int(shortcut(s, self.rules)) >= 0:  # the shortcuts `average` takes
            return self._shortcut_choice(s)
        for again in (False, True):
            if again:
                if self.worst:
                    self.fits(s, budget)
                else:
                    self.average(s, budget + 1, depth=depth)
            h1, h2 = self._key(s, depth)
            at = slot(self.memo, h1, h2)
            proved = holds(self.memo, at, h1, h2) and self.memo.exact[at] and self.memo.choice[at] >= 0
            if proved and (not self.worst or self.memo.value[at] <= budget):
                return int(self.memo.value[at]), int(self.memo.choice[at])
        raise AssertionError("a set on the optimal tree has no proved experiment on a second search")

    def _key(self, s: NDArray[np.int32], depth: int) -> tuple[np.uint64, np.uint64]:
        """A set's table key at a depth cap, as the kernels compute it (uint64 throughout: Python ints would be
        typed as int64)."""
        h1, h2 = (np.uint64(h) for h in fingerprint(s, self.rules))
        k1, k2 = keyed((h1, h2), depth)
        return np.uint64(k1), np.uint64(k2)

    def _shortcut_choice(self, s: NDArray[np.int32]) -> tuple[int, int]:
        """The cost and experiment of a small set that `shortcut` settles."""
        perfect = int(perfect_member(s, self.rules))
        return (2 * len(s) - 1, perfect) if perfect >= 0 else (6, int(s[0]))
