"""What the average and worst-case searches share (`average_search.AverageSearch`, `worst_search.WorstSearch`): the
game as the kernels' arrays (`rules_of`), one table of proved costs per search (`SearchTable`, kept so that the
optimal tree can be read back), the symmetries in force after the first experiments, and the work budget."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from solvers.checkpoint import Entry
from solvers.errors import LimitError, Paused

from ..game import Game
from .average import average, open_parts
from .candidates import candidates
from .rules import UNCAPPED, Frames, Rules, Symmetry, apart, counting, new_memo, possible_only_game
from .sets import fingerprint, free_for, keyed, look, perfect_member, record, seals, shortcut
from .symmetry import place_classes, space, symmetries
from .worst import fits

CACHE_BITS = 22  # 4 million sets in the table (about 150 MB), up to LARGE_GAME secrets: 4x7 and 4x8 did the same
# work with 2^24, at 1.14x the CPU on one process (4x7; `benchmarks/table_size.py`), most of it the system zeroing
# the larger table's pages as the search first touches them
LARGE_CACHE_BITS = 24  # games of more than LARGE_GAME secrets (Bulls and Cows, 4x9): 16 million (about 610 MB)
SMALL_CACHE_BITS = 16  # games of at most SMALL_GAME secrets: a small table is quicker
MEDIUM_CACHE_BITS = 20  # games of at most MEDIUM_GAME secrets: 1 million sets (about 38 MB; 4x6's proof keeps
# 6,693), as a fresh process maps a larger table's pages in at a cost (4x6: 0.2 s more with 4 million)
LARGE_GAME, MEDIUM_GAME, SMALL_GAME = 4096, 1296, 256
NODE_LIMIT = 400_000_000  # work (the secrets of every set searched) before the search gives up (LimitError)
SEED = 20261122  # the random numbers of the fingerprints
SPLIT_FROM = 200  # secrets: on several processes, a set this large may be split into tasks, a smaller one is one task
SPLIT_SHARE = 3  # ... and by default only sets of at least 1/(3 x processes) of the secrets are: on two processes a
# finer split costs more CPU than it balances (three rounds each on the 2-core Xeon VM, 2026-11-30: Mastermind 5x5
# took 11.4 s on one process, 12.3 s on two split from 390 secrets (a share of 4), 9.1 s from 520; 4x7 no clear
# change: docs/decisions.md), while on many every set of SPLIT_FROM secrets is split
COLUMNS_FROM = 1000  # experiments: the bound one experiment deeper reads the table by columns (`rules.columns`) ...
COLUMNS_MAX_CELLS = 10_000 * 10_000  # ... a copy of at most this many outcomes (5x6: 60 MB, 4x10: 100 MB, shared by
# a proof's forked workers; not Super Mastermind's 1 GiB). 4x10 read its rows until 2026-11-29: the search of ABCD's
# largest part did 6.3x the work per CPU second by columns (`benchmarks/profile_search.py`)


class Tuning(NamedTuple):
    """How a search runs, never what it proves: its budget of work (LimitError past it), its table's size (default:
    by the game's size), the least set a proof on several processes splits (`parallel`; default `split_size`), and two
    switches the tests turn off to check that they change no result: the bound one experiment deeper (`lookahead`)
    and black-peg games' place-by-place symmetries (`places`)."""

    node_limit: int = NODE_LIMIT
    cache_bits: int | None = None
    lookahead: bool = True
    places: bool = True
    split_from: int | None = None


def rules_of(game: Game, lookahead: bool = True, possible_only: bool = False) -> tuple[Rules, int]:
    """The game's arrays for the kernels, and the counting bound's depth (the fewest experiments that could
    finish every secret); possible_only: only codes still possible are guessed (`possible_only_game`)."""
    if possible_only:
        possible_only_game(game)
    table = np.ascontiguousarray(game.dense())
    win = game.win_outcome if game.must_hit else -1
    count = counting(table, game.must_hit, win)
    rng = np.random.default_rng(SEED)
    n = len(game.secrets)
    r1, r2 = (rng.integers(1, 2**63, size=n, dtype=np.uint64) * np.uint64(2) + np.uint64(1) for _ in range(2))
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
        count.bound,
        count.caps,
        everything,
        lookahead,
        possible_only,
        columns,
        apart(count.bound, count.branches),
    )
    return rules, count.lowest_depth


def split_size(secrets: int, jobs: int) -> int:
    """The least set a proof of a game of that many secrets on `jobs` processes splits by default."""
    return max(SPLIT_FROM, secrets // (SPLIT_SHARE * jobs))


def table_bits(n: int, asked: int | None) -> int:
    """The table's size (log 2) for a game of n secrets: as asked, else by the game's size; small games' at most
    SMALL_CACHE_BITS."""
    if asked is None:
        asked = MEDIUM_CACHE_BITS if n <= MEDIUM_GAME else LARGE_CACHE_BITS if n > LARGE_GAME else CACHE_BITS
    return min(asked, SMALL_CACHE_BITS) if n <= SMALL_GAME else asked


class SearchTable:
    """A game's rules and one table of proved costs (or depths), with the symmetries and the work budget that
    both searches use. WORST: which kernel's facts the table holds (the candidates' order follows it); shared: the
    table is shared with processes forked later (`rules.new_memo`)."""

    WORST = False

    def __init__(
        self, game: Game, tuning: Tuning | None = None, possible_only: bool = False, shared: bool = False
    ) -> None:
        tuning = tuning or Tuning()
        self.game, self.tuning, self.possible_only = game, tuning, possible_only
        self.rules, self.lowest_depth = rules_of(game, tuning.lookahead, possible_only)
        size = 1 << table_bits(len(game.secrets), tuning.cache_bits)
        self.memo = new_memo(size, tuning.node_limit, shared, outcomes=self.rules.outcomes, secrets=self.secrets)
        none = np.zeros(0, dtype=np.int64)
        no_codes = np.zeros((0, 1), dtype=np.int8)
        no = np.zeros(0, dtype=np.bool_)
        self.plain = Symmetry(np.zeros((1, 1), dtype=np.int64), none, no_codes, none, no_codes, no, none, no, no)
        self.space = space(game)  # the codes as the symmetries read them (None: no place-and-colour symmetries)
        # black-peg games: the codes, for the place-by-place symmetries (`place_classes`)
        self.places = (
            np.array([[ord(c) - ord("A") for c in label] for label in game.experiments], dtype=np.int8)
            if game.place_symmetric and tuning.places
            else self.plain.places
        )
        self.root_choice = -1  # the first experiment `solve` chose
        self._symmetries: dict[int, Symmetry] = {}
        self._start: Symmetry | None = None

    @property
    def secrets(self) -> int:
        """How many secrets the game has."""
        return len(self.game.secrets)

    @property
    def frames(self) -> Frames:
        """Where the average kernel stands on its path (`rules.Frames`)."""
        return self.memo.frames

    @property
    def work(self) -> int:
        """The secrets of every set searched so far."""
        return int(self.memo.counters[0]["work"])

    def check(self) -> None:
        """LimitError once the kernels stopped for the budget of work; Paused (with nothing kept) once halted."""
        if self.memo.counters[0]["stopped"] and self.memo.halt[0]:
            raise Paused([])
        if self.memo.counters[0]["stopped"]:
            limit = int(self.memo.counters[0]["limit"])
            raise LimitError(
                f"too large to search here: past the search's budget ({limit:,} secrets in the sets searched)"
            )

    def everyone(self) -> NDArray[np.int32]:
        """Every secret, as the kernels take a set."""
        return np.arange(self.secrets, dtype=np.int32)

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

    def root_candidates(self, s: NDArray[np.int32], allowed: NDArray[np.bool_]) -> NDArray[np.int64]:
        """The first experiments to try, each with its bound (worst case: its largest part), best first."""
        return candidates(s, allowed, self.rules, self.WORST, self.plain, False)  # at the start every code is possible

    def start_symmetries(self) -> Symmetry:
        """Every symmetry before any experiment, as the kernel narrows it at the first experiment to
        `first_symmetries`' (`symmetry.narrowed`): each place permutation with no colour moved, every colour free;
        in black-peg games their place-by-place symmetries; none in others. Made once per search."""
        if self._start is None:
            self._start = self._start_symmetries()
        return self._start

    def _start_symmetries(self) -> Symmetry:
        """`start_symmetries`, made."""
        if self.places.shape[0]:
            return self.plain._replace(places=self.places)
        if self.space is None:
            return self.plain
        codes, colours = self.space.codes, self.space.colours
        maps = np.array([[*p, *range(colours)] for p in permutations(range(codes.shape[1]))], dtype=np.int64)
        return self.plain._replace(
            maps=maps,
            stab=np.arange(len(maps), dtype=np.int64),
            codes=codes,
            free=np.ones(colours, dtype=np.bool_),
            where=self.space.where,
            first=np.empty(len(codes), dtype=np.bool_),
            known=np.zeros(1, dtype=np.bool_),
        )

    def first_symmetries(self, g: int, keep: bool = True) -> Symmetry:
        """The symmetries in force once experiment g is made first: the colour and position permutations that fix g
        (`symmetries`, factored; kept per experiment unless keep is False), or in black-peg games their
        place-by-place symmetries, which include them."""
        if self.places.shape[0]:
            return self.after((g,))
        if g in self._symmetries:
            return self._symmetries[g]
        hist = np.array([g], dtype=np.int64)
        if self.space is None:
            return self.plain._replace(hist=hist)
        maps, free = symmetries(self.space.codes, self.space.colours, g)
        after = self.plain._replace(
            maps=maps,
            stab=np.arange(len(maps), dtype=np.int64),
            hist=hist,
            codes=self.space.codes,
            free=free,
            where=self.space.where,
            first=np.empty(len(self.space.codes), dtype=np.bool_),
            known=np.zeros(1, dtype=np.bool_),
        )
        if keep:
            self._symmetries[g] = after
        return after

    def after(self, history: Sequence[int]) -> Symmetry:
        """The symmetries that fix every experiment of history, for a search from the middle of a game: the
        place-by-place ones in black-peg games; none in others (exact, only slower)."""
        if self.places.shape[0]:
            return self.plain._replace(places=self.places, hist=np.array(history, dtype=np.int64))
        return self.plain

    def key(self, s: NDArray[np.int32], depth: int) -> tuple[np.uint64, np.uint64]:
        """A set's table key at a depth cap, as the kernels compute it (uint64 throughout: Python ints would be
        typed as int64)."""
        h1, h2 = (np.uint64(h) for h in fingerprint(s, self.rules))
        k1, k2 = keyed((h1, h2), depth)
        return np.uint64(k1), np.uint64(k2)

    def proved(self, s: NDArray[np.int32], depth: int) -> tuple[bool, int, int]:
        """(whether the table proves s's value, the value, its experiment) at a depth cap."""
        held, value, exact, choice = self.held(s, depth)
        return held and exact and choice >= 0, value, choice

    def held(self, s: NDArray[np.int32], depth: int) -> tuple[bool, int, bool, int]:
        """(whether the table holds s at a depth cap, its value there: a cost or a lower bound, whether exact, its
        experiment)."""
        held, value, exact, choice = look(self.memo, *self.key(s, depth))
        return bool(held), int(value), bool(exact), int(choice)

    def adopt(self, entries: list[Entry]) -> None:
        """Keep proved entries (another process's, or a checkpoint's) in this search's table."""
        for h1, h2, cost, choice in entries:
            record(self.memo, np.uint64(h1), np.uint64(h2), np.int64(cost), True, choice)

    def load_kernels(self) -> None:
        """Load (or compile) every kernel the searches call, on an empty set: processes forked after it start with
        them loaded, and never compile one at the same time as another."""
        s = np.zeros(0, dtype=np.int32)
        e = self.rules.everything
        average(s, np.int64(0), np.zeros((0, 2), dtype=np.int64), self.rules, self.memo, self.plain, UNCAPPED, 0)
        fits(s, 1, e, self.rules, self.memo, self.plain)
        open_parts(s, 0, np.int64(0), self.rules, self.memo, UNCAPPED, self.plain)
        h1, h2 = (np.uint64(h) for h in fingerprint(s, self.rules))
        look(self.memo, h1, h2)
        free_for(self.memo, h1, h2)
        m = self.memo
        seals(m.k1[:0], m.k2[:0], m.value[:0], m.exact[:0], m.choice[:0])
        record(self.memo, h1, h2, np.int64(0), True, -1)  # the empty set's cost: never looked up
        keyed((h1, h2), 1)
        shortcut(s, self.rules)
        perfect_member(s, self.rules)
