"""What every kernel of the search reads: the game as arrays (`Rules`), the table of proved costs (`Memo`), the
symmetries in force (`Symmetry`), and the bounds by counting.

Bounds by counting: a tree in which every experiment has at most b outcomes that leave the game open can finish at
most one secret at its first experiment, b at the second, b*b at the third, and so on (guess-the-secret games), or
holds at most K**d leaves at depth d (know-the-secret games); filling those places in order gives the least cost
for n secrets (`counting_bounds`; for n <= b + 1 it is 2n - 1), and the most secrets a depth can finish
(`capacity`).
"""

from __future__ import annotations

import mmap
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from solvers import halt as stopping
from solvers.errors import InputError

if TYPE_CHECKING:
    from ..game import Game

BIG = np.int64(1) << 40  # above any cost
UNCAPPED = 1 << 20  # a depth standing for "no cap on the number of experiments"
SECOND_FREE = UNCAPPED + 2  # the cap of a search where the second experiment may be any code though the others are
# possible codes only: no cap, and free at the start (whose codes are all possible) and at its parts (UNCAPPED + 1)
UNBOUNDED = BIG // 2  # a budget this large bounds nothing: every part of an experiment under it is searched exactly


COUNTERS = np.dtype(
    [
        ("work", np.int64),
        ("limit", np.int64),
        ("stopped", np.bool_),
        ("logged", np.int64),
        ("overflow", np.bool_),
        ("split", np.int64),  # a set below the start smaller than this is handed back (`Handed`; 0: none is)
        ("guarded", np.bool_),  # the start's own table entry is neither read nor written (its one experiment is
        # given), and its frames are keyed by the start under that experiment (`average.alone`)
        ("choice", np.int64),  # the start's experiment, as the last search from the start proved it (-1: none)
        ("brothers", np.bool_),  # a set of at least split hands each younger brother back (`average.brother`)
        ("slot", np.int64),  # the schedule's slot of the subproblem this process searches (`Memo.ceilings`; -1: none)
    ],
    align=True,
)
PENDING = np.int64(-1)  # what the average kernel returns for a set whose cost waits on a set it handed back


class Rules(NamedTuple):
    """The game, read by every kernel."""

    table: NDArray[np.uint8]  # table[g, x]: the outcome of experiment g when the secret is x
    outcomes: int  # how many outcomes (the table's values are below it)
    must_hit: bool  # guess-the-secret: the game ends when an experiment is the secret
    win: int  # that outcome (-1 in know-the-secret games)
    r1: NDArray[np.uint64]  # random numbers per secret: a set's fingerprint is their sums
    r2: NDArray[np.uint64]
    bound: NDArray[np.int64]  # bound[n]: the least total cost of n secrets (`counting_bounds`)
    caps: NDArray[np.int64]  # caps[d]: the most secrets finished within d experiments (`capacity`)
    everything: NDArray[np.bool_]  # every experiment allowed
    lookahead: bool  # bound each open part one experiment deeper before searching any
    possible_only: bool  # guess only codes still possible (guess-the-secret games whose guesses are the codes)
    columns: NDArray[np.uint8]  # the table transposed (columns[x, g]) for `candidates.lookahead`, or no rows
    apart: NDArray[np.int64]  # apart[k]: the least |S| + parts' bounds an experiment outside S can give (`apart`)


FRAME_LEVELS = 64  # the levels of a search's path its frames hold (deeper levels are searched again on a resume)
BETA, CANDIDATE, BEST, BEST_G, FLOOR, PART, TOTAL, TRIED = range(8)  # a frame's state, as `average` keeps it
FRAME_STATE = 8


class Frames(NamedTuple):
    """Where the average kernel stands on its path from the set it was given (`average.average`), one frame per
    level, written as it goes: the set's key, its budget, the experiment it tries (its place among the candidates),
    the best total and experiment so far, the least bound of an experiment refuted, the part it searches (its place
    in the parts' order), the total before that part, a hash of the candidates tried so far (the same set reached
    under other symmetries, or by other code, has other candidates: its frame is not restored there) and the
    parts' bounds. So a search stopped at any point (its
    work's end, or `Memo.halt`) is resumed from the frames with nothing searched again (`head[1]`)."""

    head: NDArray[np.int64]  # [0]: the levels on the path now; [1]: the levels still to restore on a resume
    key: NDArray[np.uint64]  # (FRAME_LEVELS, 2): each level's set, keyed as the table keys it
    state: NDArray[np.int64]  # (FRAME_LEVELS, FRAME_STATE): BETA ... TRIED
    lows: NDArray[np.int64]  # (FRAME_LEVELS, outcomes): the bounds of the parts of the experiment tried


HANDED_ROWS = 4096  # the sets one search from the start hands back at most (more are handed back by the next)
EXPERIMENT = 5 + 3 * FRAME_LEVELS  # a row: budget, depth, level, members' start and end; then for each level
# above it the experiment made, its place among the candidates and the part's place (the serial search's order);
HANDED_WIDTH = EXPERIMENT + 1  # last, a younger brother's experiment (`average.brother`; -1: the whole set)


SLOTS = 1024  # subproblems out at once whose budgets the schedule can lower as they run (`Memo.ceilings`)
ANSWERS = 1 << 16  # the answers a schedule pins for its searches from the start (more go through the table alone)


class Handed(NamedTuple):
    """The open subproblems a search from the start handed back (`average.hand_back`): each a set below the start
    that the search needs and did not search itself (smaller than `split`), with its budget, where it stands on the
    search's path and its table key; its cost comes back through the table (`optimal.prove`)."""

    head: NDArray[np.int64]  # [0]: rows used; [1]: members used; [2]: entered rows used
    rows: NDArray[np.int64]  # (HANDED_ROWS, HANDED_WIDTH)
    keys: NDArray[np.uint64]  # (HANDED_ROWS, 2)
    members: NDArray[np.int32]  # the sets, one after another
    path: NDArray[np.int64]  # (FRAME_LEVELS,): the experiment made at each level of the path now
    entered: NDArray[np.uint64]  # (HANDED_ROWS, 3): the sets below the start it searched itself, entered afresh
    # (key, secrets): the schedule counts each one's work once over the searches from the start
    answer_keys: NDArray[np.uint64]  # (ANSWERS, 2): the sets the schedule answered, open addressing (0, 0: empty)
    answers: NDArray[np.int64]  # (ANSWERS, 2): each one's cost or bound, and 1 if exact


def new_handed(secrets: int) -> Handed:
    """Room for the sets one search from the start hands back (untouched pages cost nothing)."""
    return Handed(
        np.zeros(3, dtype=np.int64),
        np.empty((HANDED_ROWS, HANDED_WIDTH), dtype=np.int64),
        np.empty((HANDED_ROWS, 2), dtype=np.uint64),
        np.empty(max(1 << 16, 64 * secrets), dtype=np.int32),
        np.zeros(FRAME_LEVELS, dtype=np.int64),
        np.empty((HANDED_ROWS, 3), dtype=np.uint64),
        np.zeros((ANSWERS, 2), dtype=np.uint64),
        np.zeros((ANSWERS, 2), dtype=np.int64),
    )


class Memo(NamedTuple):
    """Proved costs and bounds per set of secrets, in an open-addressed table keyed by the set's fingerprint;
    and the work done (secrets of every set searched) against its limit."""

    k1: NDArray[np.uint64]
    k2: NDArray[np.uint64]
    value: NDArray[np.int64]  # average: the cost or a lower bound; worst case: a depth that fits or does not
    exact: NDArray[np.bool_]  # value is proved exact (worst case: the depth fits)
    choice: NDArray[np.int32]  # the experiment that achieves it, or -1
    check: NDArray[np.uint64]  # each entry's seal (`sets.seal`): an entry that fails it reads as absent
    counters: NDArray[np.void]  # one COUNTERS record
    log: NDArray[np.int64]  # no values: off; else every set's cost or bound as the search proves it, for a
    # certificate (`sets.note`, `certificate`): (size, value, experiments made before it, the set, those experiments)
    # one after another, `logged` values used (overflow: it did not fit)
    halt: NDArray[np.bool_]  # one value, `solvers.halt.HALT` (shared with every process forked after it): once set,
    # every kernel stops at the next set it enters (`sets.spend`), as at the end of its work
    frames: Frames  # where the average kernel stands on its path (this process's own, never shared)
    handed: Handed  # the sets a search from the start handed back (this process's own)
    ceilings: NDArray[np.int64]  # (SLOTS,), shared like the table: each running subproblem's budget as the
    # schedule needs it now, never above the one it was handed out with (`sets.lowered`, `optimal.prove`)


def new_frames(outcomes: int) -> Frames:
    """Empty frames for a game with that many outcomes."""
    return Frames(
        np.zeros(2, dtype=np.int64),
        np.zeros((FRAME_LEVELS, 2), dtype=np.uint64),
        np.zeros((FRAME_LEVELS, FRAME_STATE), dtype=np.int64),
        np.zeros((FRAME_LEVELS, outcomes), dtype=np.int64),
    )


def saved(frames: Frames) -> tuple[int, ...]:
    """The frames of a stopped search's path as whole numbers (what a checkpoint keeps: `restore`)."""
    levels = int(frames.head[0])
    out = [levels, frames.lows.shape[1]]
    for level in range(levels):
        out += frames.key[level].tolist() + frames.state[level].tolist() + frames.lows[level].tolist()
    return tuple(int(x) for x in out)


def restore(frames: Frames, record: tuple[int, ...]) -> bool:
    """Load a stopped path (`saved`) for the next search to resume; False (nothing loaded) if it is not a record of
    frames of this game."""
    levels, outcomes = record[0], record[1] if len(record) > 1 else -1
    width = 2 + FRAME_STATE + outcomes
    if outcomes != frames.lows.shape[1] or not 0 < levels <= FRAME_LEVELS or len(record) != 2 + levels * width:
        return False
    rows = np.array(record[2:], dtype=object).reshape(levels, width)
    frames.key[:levels] = rows[:, :2].astype(np.uint64)
    frames.state[:levels] = rows[:, 2 : 2 + FRAME_STATE].astype(np.int64)
    frames.lows[:levels] = rows[:, 2 + FRAME_STATE :].astype(np.int64)
    frames.head[:] = levels
    return True


class Symmetry(NamedTuple):
    """The symmetries that fix every experiment made so far (and so map the set of secrets onto itself): in sequence
    games, the place-and-colour permutations of the maps in force, each combined with every permutation of the free
    colours (`symmetry`); in black-peg games, the place-by-place ones."""

    maps: NDArray[np.int64]  # rows: a place permutation (pegs values), then a colour map (colours values)
    stab: NDArray[np.int64]  # the rows in force
    places: NDArray[np.int8]  # black-peg games: the codes (no rows: no place-by-place symmetries)
    hist: NDArray[np.int64]  # the experiments made so far
    codes: NDArray[np.int8]  # each code's colours (no rows: no place-and-colour symmetries)
    free: NDArray[np.bool_]  # the colours no experiment so far used, which any permutation of them keeps
    where: NDArray[np.int64]  # where[v]: the code whose colours read v in base colours (-1: not a code)
    first: NDArray[np.bool_]  # the first code of each class (`symmetry.classes`), once known ...
    known: NDArray[np.bool_]  # ... (one value): the parts of an experiment share its symmetries, found once


def _field(room: mmap.mmap | None, size: int, kind: type[np.generic], at: int) -> Any:
    """One field of a table: `size` values of a kind, zeros, in room from byte at (else in memory of its own)."""
    return np.zeros(size, dtype=kind) if room is None else np.frombuffer(room, dtype=kind, count=size, offset=at)


def new_memo(size: int, limit: int, shared: bool = False, log: int = 0, outcomes: int = 1, secrets: int = 0) -> Memo:
    """An empty table of `size` slots (a power of two) and a work limit. shared: the table (not the work counters)
    lives in memory that processes forked later share with this one (an anonymous shared mapping), so that a
    proof's workers read each other's proved sets (`optimal.prove`); each entry is sealed (`sets.seal`). log: the
    values of the log of proved sets (`Memo.log`; 0: none kept). It stops when this process's flag is set
    (`solvers.halt.HALT`, as it is when the table is made); outcomes: the game's, for the kernel's frames."""
    counters = np.zeros(1, dtype=COUNTERS)
    counters[0]["limit"] = limit
    counters[0]["choice"] = counters[0]["slot"] = -1
    kinds = (np.uint64, np.uint64, np.int64, np.bool_, np.int32, np.uint64, np.int64)  # the last: ceilings
    sizes = [size] * (len(kinds) - 1) + [SLOTS]
    widths = [n * np.dtype(k).itemsize for n, k in zip(sizes, kinds, strict=True)]
    room = mmap.mmap(-1, sum(widths)) if shared else None  # MAP_SHARED
    fields = zip(sizes, kinds, np.cumsum([0, *widths]).tolist(), strict=False)
    k1, k2, value, exact, choice, check, ceilings = (_field(room, *field) for field in fields)
    choice[:] = -1
    log_values = np.zeros(log, dtype=np.int64)
    frames = new_frames(outcomes)
    handed = new_handed(secrets)
    return Memo(k1, k2, value, exact, choice, check, counters, log_values, stopping.HALT, frames, handed, ceilings)


def counting_bounds(n: int, branches: int, must_hit: bool) -> NDArray[np.int64]:
    """bound[k]: the least cost any tree can have for k secrets (see the module's note)."""
    out = np.zeros(n + 1, dtype=np.int64)
    if must_hit:
        depth, room, used, total = 1, 1, 0, 0
        for k in range(1, n + 1):
            while used == room:
                depth, room, used = depth + 1, room * max(branches, 1), 0
            used += 1
            total += depth
            out[k] = total
        return out
    for k in range(2, n + 1):
        d, cap = 0, 1
        while cap < k:
            d, cap = d + 1, cap * branches
        spare = (cap - k) // (branches - 1) if branches > 1 else 0  # leaves that can sit one level higher
        out[k] = k * d - spare
    return out


def apart(bound: NDArray[np.int64], branches: int) -> NDArray[np.int64]:
    """apart[k]: the least that k secrets plus the counting bounds of their parts can be when the experiment is not
    one of them (so every part is open): the bounds are convex and superadditive, so the least splits the k secrets
    as evenly as they go over all the branches."""
    k = np.arange(len(bound), dtype=np.int64)
    q, r = np.divmod(k, max(branches, 1))
    return np.asarray(k + r * bound[np.minimum(q + 1, len(bound) - 1)] + (branches - r) * bound[q], dtype=np.int64)


def capacity(depth: int, branches: int, must_hit: bool) -> int:
    """The most secrets any tree finishes within `depth` experiments."""
    most = 1 << 60
    if must_hit:
        return int(min(most, sum(branches**i for i in range(depth))))
    return int(min(most, branches**depth))


class Counting(NamedTuple):
    """A game's bounds by counting, as both searches read them (`counting_bounds`, `capacity`)."""

    branches: int  # outcomes that leave the game open
    bound: NDArray[np.int64]  # bound[k]: the least total cost of k secrets
    caps: NDArray[np.int64]  # caps[d]: the most secrets finished within d experiments
    lowest_depth: int  # the fewest experiments that could finish every secret


def counting(table: NDArray[np.uint8], must_hit: bool, win: int) -> Counting:
    """The bounds by counting of a game's outcome table (win: the outcome that ends a guess-the-secret game)."""
    n = table.shape[1]
    present = np.unique(table)
    branches = len(present) - (1 if must_hit and win in present else 0)
    top = 1
    while capacity(top, branches, must_hit) < n:
        top += 1
    caps = np.array([capacity(d, branches, must_hit) for d in range(top + 40)], dtype=np.int64)
    return Counting(branches, counting_bounds(n, branches, must_hit), caps, top)


def possible_only_game(game: Game) -> None:
    """InputError unless guessing only codes still possible makes sense: a guess-the-secret game whose experiments
    are its secrets, in the same order."""
    if not game.guesses_are_codes:
        raise InputError("possible codes only is for games where a guess is a code and guessing the secret wins")


@dataclass(frozen=True)
class Optimum:
    """What a search proved: the optimal cost (total experiments, or the worst case), and its work (the secrets
    of every set searched)."""

    cost: int
    work: int


def below(depth: int) -> int:
    """The depth left to the parts after one experiment (no cap stays no cap; `SECOND_FREE`'s count down to it),
    as the kernels count it."""
    return depth if depth == UNCAPPED else depth - 1


def free(depth: int) -> bool:
    """Whether a set at this depth may be guessed any code though the rules guess possible codes only: the sets
    above UNCAPPED (`SECOND_FREE`), keyed apart from the same sets below them (`sets.keyed`)."""
    return depth > UNCAPPED
