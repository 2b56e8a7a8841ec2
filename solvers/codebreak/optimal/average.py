"""The average case: the least total number of experiments, summed over the secrets of a set S, from here to the
finish, proved by branch and bound.

For an experiment g the cost is |S| plus the cost of every part of S that g leaves open (in guess-the-secret games
the part "g is the secret" is finished). Every experiment is tried (one per partition and per symmetry class,
`candidates`), best bound first, until the bound reaches the best cost found. Bounds, all admissible: counting
(`rules.counting_bounds`); each open part one experiment deeper before any part is searched (`lookahead`), so the
first part searched already has a tight budget; a part is searched with the budget left by the best cost found, the
exact costs of the parts searched and the bounds of the rest, and a search that exceeds its budget returns a proved
lower bound instead. Proved costs and lower bounds are kept per set (`Memo`).

Subproblems. Asked to (`Memo.counters` split), the search hands every set below the start smaller than split back
(within its first FRAME_LEVELS levels) as an open subproblem (`hand_back`), and its cost waits (PENDING): its bound
stands in for it, so the search goes on with budgets no tighter than the true ones, and what it proves there holds
(a larger budget only prunes less). An experiment waiting on a part is not settled: with a bounded budget its later
parts wait too (the serial search may not need them), but where the schedule's workers share the table it goes on
to them now, for processes that would idle (`ahead`); with an unbounded one they are all needed, so they are
searched or handed back now. A set with no experiment settled yet whose experiment waits tries no other (young
brothers wait for the eldest's total), but for a start with a bounded budget (which bounds them already); else its
later experiments go on under the best total settled; where the schedule asks (`brothers_out`: its workers share the
table), a set of at least split below the start hands each later experiment back alone instead (`brother`). A set
that waits records nothing, returns PENDING, and leaves its frames at its first waiting part (`path_from`, `waited`),
so the next search from the start resumes there once the handed-back sets' costs are known (`Handed` answers, else
the table: `optimal.prove`). A subproblem's start goes on below less than its budget once the schedule needs no more
(`sets.lowered`, before each experiment and after each part).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from solvers.jit import kernel

from .candidates import candidates, lookahead, representatives
from .rules import (
    BEST,
    BEST_G,
    BETA,
    BIG,
    CANDIDATE,
    EXPERIMENT,
    FLOOR,
    FRAME_LEVELS,
    PART,
    PENDING,
    TOTAL,
    TRIED,
    UNBOUNDED,
    Frames,
    Memo,
    Rules,
    Symmetry,
)
from .sets import (
    answered,
    below,
    feasible,
    fingerprint,
    free,
    free_for,
    keyed,
    look,
    lowered,
    mix,
    note,
    open_by_size,
    record,
    shortcut,
    spend,
    split,
)
from .symmetry import narrowed


@kernel
def open_parts(
    s: NDArray[np.int32], g: int, beta: np.int64, rules: Rules, memo: Memo, depth: int, inner: Symmetry
) -> Any:  # pragma: no cover - compiled
    """Experiment g at S with at most depth experiments left (`rules.UNCAPPED`: no cap): (its parts as `split`
    gives them, each open part's lower bound, their total with |S|, the parts to search largest first). A part's
    bound is its counting bound (BIG if it cannot finish within depth - 1), raised by the table, then by
    `lookahead` unless the table knows better (one experiment per class under inner, the symmetries in force after
    g, which map each part onto itself); bounding stops once the total reaches beta."""
    members, start = split(s, g, rules)
    small = 2 if rules.must_hit else 1  # parts this small are exact by the shortcuts: never searched
    lows = np.zeros(rules.outcomes, dtype=np.int64)
    known = np.zeros(rules.outcomes, dtype=np.bool_)  # the table holds a proof or a bound above counting
    hs1 = np.zeros(rules.outcomes, dtype=np.uint64)
    hs2 = np.zeros(rules.outcomes, dtype=np.uint64)
    total = np.int64(s.shape[0])
    for o in range(rules.outcomes):
        size = start[o + 1] - start[o]
        if size == 0 or (rules.must_hit and o == rules.win):
            continue
        lows[o] = rules.bound[size]
        if not feasible(size, below(depth), rules):
            lows[o], known[o] = BIG, True
        elif size > small:
            hs1[o], hs2[o] = keyed(fingerprint(members[start[o] : start[o + 1]], rules), below(depth))
            held, value, exact, _ = look(memo, hs1[o], hs2[o])
            if held:
                lows[o] = max(lows[o], value)
                known[o] = exact or value > rules.bound[size]
        total += lows[o]
    order = open_by_size(start, small, rules)
    reps = rules.everything
    chosen = False
    for o in order if rules.lookahead and total < beta else order[:0]:
        if known[o]:
            continue
        if not chosen:
            reps, chosen = representatives(inner, rules.everything), True
        lo = lookahead(members[start[o] : start[o + 1]], rules, reps, free(below(depth)))
        if lo > lows[o]:
            total += lo - lows[o]
            lows[o] = lo
            if free_for(memo, hs1[o], hs2[o]):
                record(memo, hs1[o], hs2[o], lo, False, -1)
            if total >= beta:
                break
    return members, start, lows, total, order


@kernel
def alone(h1: np.uint64, h2: np.uint64, g: int) -> tuple[np.uint64, np.uint64]:  # pragma: no cover - compiled
    """The key of a set (its keys h1, h2) under experiment g alone: a younger brother's (`brother`), or a guarded
    start's (its one experiment given)."""
    return mix(h1 ^ np.uint64(g + 1)), mix(h2 + np.uint64(g + 1))


@kernel
def settled(
    s: NDArray[np.int32], beta: np.int64, rules: Rules, memo: Memo, depth: int, level: int, given: NDArray[np.int64]
) -> Any:  # pragma: no cover
    """What `average` knows of S (the level-th set on the path) before any experiment: (whether that settles it,
    its cost or bound if so, PENDING if S is handed back instead (`hand_back`), the least bound, its keys), S's
    work counted when it is to be searched. A guarded start's entry is not looked up, and its keys are S's under
    its one experiment (`alone`), which key its frames."""
    n = s.shape[0]
    none = np.uint64(0)
    counters = memo.counters[0]
    guarded = level == 0 and counters.guarded  # its experiments are given: its entry is another search's
    chosen = level == 0 and (guarded or counters.split > 0)  # a schedule's start: its experiment is sought too
    if not feasible(n, depth, rules):
        return True, BIG, BIG, none, none
    if n == 0 or (n == 1 and not chosen):
        return True, np.int64(n if rules.must_hit else 0), np.int64(0), none, none
    lb = np.int64(rules.bound[n])
    if counters.stopped:
        return True, max(lb, beta), lb, none, none
    if lb >= beta:
        return True, lb, lb, none, none
    h1, h2 = keyed(fingerprint(s, rules), depth)
    if guarded:
        a1, a2 = alone(h1, h2, given[0, 1] if given.shape[0] else -1)
        return False, np.int64(0), lb, a1, a2
    held, value, exact, choice = look(memo, h1, h2)
    if held:
        if (exact and (choice >= 0 or not chosen)) or value >= beta:
            if level == 0:
                counters.choice = choice
            return True, value, lb, h1, h2
        lb = max(lb, value)
    if 0 < level < FRAME_LEVELS and n < counters.split:
        known, value, exact = answered(memo.handed, h1, h2)
        if known and (exact or value >= beta):
            return True, value, lb, h1, h2
        return True, hand_back(s, beta, depth, level, h1, h2, memo, -1), lb, h1, h2
    cost = shortcut(s, rules) if depth >= 3 and not chosen else np.int64(-1)  # its trees take three at most
    if cost >= 0:
        return True, cost, lb, h1, h2
    if not chosen and not spend(memo, n):  # a schedule's start is not counted: it is searched again and again
        return True, beta, lb, h1, h2
    return False, np.int64(0), lb, h1, h2


@kernel
def hand_back(
    s: NDArray[np.int32], beta: np.int64, depth: int, level: int, h1: np.uint64, h2: np.uint64, memo: Memo, g: int
) -> np.int64:  # pragma: no cover - compiled
    """PENDING: S is an open subproblem for another process (`Handed`), its row written while there is room (a
    set that does not fit is handed back by the next search from the start). g: -1, or the experiment S is to be
    searched under alone (a younger brother, `brother`; level then counts S's own frame)."""
    handed, state = memo.handed, memo.frames.state
    r, m, n = handed.head[0], handed.head[1], s.shape[0]
    if r < handed.rows.shape[0] and m + n <= handed.members.shape[0]:
        handed.members[m : m + n] = s
        row = handed.rows[r]
        row[0], row[1], row[2], row[3], row[4] = beta, depth, level, m, m + n
        row[5 : 5 + level] = handed.path[:level]
        row[5 + FRAME_LEVELS : 5 + FRAME_LEVELS + level] = state[:level, CANDIDATE]
        row[5 + 2 * FRAME_LEVELS : 5 + 2 * FRAME_LEVELS + level] = state[:level, PART]
        row[EXPERIMENT] = g
        handed.keys[r, 0], handed.keys[r, 1] = h1, h2
        handed.head[0], handed.head[1] = r + 1, m + n
    return PENDING


TRIED_SEED = np.uint64(0x9E3779B97F4A7C15)


@kernel
def tried(h: np.uint64, g: int) -> np.uint64:  # pragma: no cover - compiled
    """The hash of the candidates tried so far (h, from TRIED_SEED) once experiment g is tried too."""
    return mix(h ^ np.uint64(g + 1))


@kernel
def tried_to(cands: NDArray[np.int64], c: int) -> np.uint64:  # pragma: no cover - compiled
    """The hash of candidates 0 to c (`tried`)."""
    h = TRIED_SEED
    for i in range(c + 1):
        h = tried(h, cands[i, 1])
    return h


@kernel
def resumed(
    frames: Frames, level: int, h1: np.uint64, h2: np.uint64, beta: np.int64, memo: Memo, cands: Any, n: int
) -> Any:  # pragma: no cover - compiled
    """Where the search of S (the level-th set on the path, its keys h1, h2, its candidates cands) starts: (the
    candidate, the part, the best total and experiment, the least refuted bound), from S's frame when the frames
    restore one for S with the same candidates tried (a budget no smaller: a smaller one only refutes more), else
    from the start; S's frame then set up."""
    first, part, best, best_g, floor = 0, -1, beta, -1, BIG
    if level < frames.head[1]:
        state = frames.state[level]
        c = state[CANDIDATE]
        same = frames.key[level, 0] == h1 and frames.key[level, 1] == h2 and beta <= state[BETA]
        if same and 0 <= c < cands.shape[0] and np.int64(tried_to(cands, c) >> np.uint64(1)) == state[TRIED]:
            first, part, best, best_g, floor = state[CANDIDATE], state[PART], state[BEST], state[BEST_G], state[FLOOR]
            counters = memo.counters[0]
            if level or not (counters.split or counters.guarded):  # a schedule's start counts none (`settled`)
                counters.work -= n  # counted when the stopped search entered it
            if best >= beta:  # a smaller budget now
                best, best_g, floor = beta, -1, min(floor, best)
        else:
            frames.head[1] = level  # another set, or a larger budget: nothing below restores
    entered = memo.handed.entered
    e = memo.handed.head[2]
    if first == 0 and part < 0 and memo.counters[0].split and level and e < entered.shape[0]:
        entered[e, 0], entered[e, 1], entered[e, 2] = h1, h2, np.uint64(n)  # entered afresh by the search
        memo.handed.head[2] = e + 1
    if level < FRAME_LEVELS:
        frames.key[level, 0], frames.key[level, 1], frames.state[level, BETA] = h1, h2, beta
        frames.head[0] = level + 1
    return first, part, best, best_g, floor


@kernel
def reopened(s: NDArray[np.int32], g: int, rules: Rules, frames: Frames, level: int) -> Any:  # pragma: no cover
    """Experiment g at S as S's frame saw it when the search stopped: `open_parts`'s values, its bounds those of
    the frame."""
    members, start = split(s, g, rules)
    order = open_by_size(start, 2 if rules.must_hit else 1, rules)
    return members, start, frames.lows[level].copy(), frames.state[level, TOTAL], order


@kernel
def mark(
    frames: Frames, level: int, c: int, k: int, total: np.int64, best: np.int64, best_g: int, floor: np.int64
) -> None:  # pragma: no cover
    """S's frame before its experiment c's k-th part is searched."""
    if level < FRAME_LEVELS:
        state = frames.state[level]
        state[CANDIDATE], state[PART], state[TOTAL], state[BEST], state[BEST_G], state[FLOOR] = (
            c,
            k,
            total,
            best,
            best_g,
            floor,
        )


@kernel
def opening(frames: Frames, level: int, lows: NDArray[np.int64], h: np.uint64) -> int:  # pragma: no cover
    """S's frame as an experiment is opened: its parts' bounds and the candidates tried (h); its first part's place."""
    if level < FRAME_LEVELS:
        frames.lows[level] = lows
        frames.state[level, TRIED] = np.int64(h >> np.uint64(1))
    return 0


@kernel
def brother(
    s: NDArray[np.int32], depth: int, level: int, c: int, g: int, memo: Memo, best: np.int64, best_g: int
) -> Any:  # pragma: no cover - compiled
    """Younger brother g (the c-th candidate) of S (the level-th set), once an experiment of S is settled (best, by
    best_g), is another process's: (whether it waits, S's best and its experiment with g's answer). Not answered
    yet, it is handed back (S under g alone, budget best, a key of its own); S then keeps no frame (searched again,
    its eldest's parts are in the table)."""
    frames = memo.frames
    e1, e2 = alone(frames.key[level, 0], frames.key[level, 1], g)
    known, value, exact = answered(memo.handed, e1, e2)
    if not known:
        known, value, exact, _ = look(memo, e1, e2)
    if known and (exact or value >= best):
        return (False, value, g) if exact and value < best else (False, best, best_g)
    frames.state[level, CANDIDATE], frames.state[level, PART] = c, -1  # its place in the serial order
    memo.handed.path[level] = g
    hand_back(s, best, depth, level + 1, e1, e2, memo, g)
    return True, best, best_g


@kernel
def brothers_out(s: NDArray[np.int32], level: int, memo: Memo) -> bool:  # pragma: no cover - compiled
    """Whether S (the level-th set) hands its younger brothers to other processes (`brother`): a set of the
    parent's own (at least split, below the start) when the schedule asks for it (`Memo.counters` brothers)."""
    counters = memo.counters[0]
    return bool(counters.brothers) and 0 < level < FRAME_LEVELS - 1 and s.shape[0] >= counters.split > 0


@kernel
def ahead(level: int, memo: Memo) -> bool:  # pragma: no cover - compiled
    """Whether the later parts of an experiment (the level-th set's) whose part waits are searched too, though the
    serial search may not need them: where younger brothers are (`brothers_out`'s flag), so that processes that
    would idle search what they hand back (their budgets count the waiting part at its bound: never tighter than the
    serial search's). A later part the parent searches itself goes on too: while a long task is out, its sets and
    brothers keep the other processes busy (docs/decisions.md, "Going on past a waiting part")."""
    return bool(memo.counters[0].brothers) and level + 1 < FRAME_LEVELS


@kernel
def average(s: NDArray[np.int32], beta: np.int64, given: NDArray[np.int64], rules: Rules, memo: Memo, sym: Symmetry,
            depth: int, level: int) -> Any:  # pragma: no cover - compiled  # fmt: skip
    """S's least total cost within depth experiments if below beta, else a bound at least beta (BIG: none); PENDING:
    it waits (module note). given: S's experiments (none: all). Frames kept and `resumed`; a stop records nothing."""
    done, value, lb, h1, h2 = settled(s, beta, rules, memo, depth, level, given)
    if done:
        return value
    frames = memo.frames
    cands = given if given.shape[0] else candidates(s, rules.everything, rules, False, sym, free(depth))
    first, part, best, best_g, floor = resumed(frames, level, h1, h2, beta, memo, cands, s.shape[0])
    h = tried_to(cands, first - 1)
    waits, held, held_lows, held_keys = False, frames.state[:0], frames.lows[:0], frames.key[:0]  # `path_from`
    brothers = brothers_out(s, level, memo)
    for c in range(first, cands.shape[0]):
        beta, best, best_g, floor = lowered(memo, level, beta, best, best_g, floor)
        if cands[c, 0] >= best:
            floor = min(floor, cands[c, 0])
            break
        g, h = int(cands[c, 1]), tried(h, int(cands[c, 1]))
        if brothers and best_g >= 0 and not (c == first and part >= 0):  # a younger brother: another process's
            waiting, best, best_g = brother(s, depth, level, c, g, memo, best, best_g)
            waits = waits or waiting
            continue
        inner = narrowed(sym, g)
        if c == first and part >= 0:  # the experiment it was trying, its parts' bounds as they were
            members, start, lows, total, order = reopened(s, g, rules, frames, level)
            k = part
        else:
            members, start, lows, total, order = open_parts(s, g, best, rules, memo, depth, inner)
            k = opening(frames, level, lows, h)
        memo.handed.path[min(level, FRAME_LEVELS - 1)], waiting = g, False  # (deeper levels hand nothing back)
        while k < order.shape[0] and total < best:
            o = order[k]
            mark(frames, level, c, k, total, best, best_g, floor)
            part_s = members[start[o] : start[o + 1]]
            v = average(part_s, best - (total - lows[o]), given[:0], rules, memo, inner, below(depth), level + 1)
            if memo.counters[0].stopped:
                return max(lb, beta)
            frames.head[1] = min(frames.head[1], level + 1)  # the path restored: nothing below restores again
            k += 1
            if v == PENDING:
                if not waits and level < FRAME_LEVELS:
                    held, held_lows, held_keys = path_from(frames, level)
                waits = waiting = True
                if best < UNBOUNDED and not ahead(level, memo):
                    break
                continue
            total += v - lows[o]
            beta, best, best_g, floor = lowered(memo, level, beta, best, best_g, floor)
        frames.head[1] = min(frames.head[1], level + 1)  # its experiment done: nothing below restores again
        if waiting:
            if best_g < 0 and (level > 0 or best >= UNBOUNDED):
                break
        elif total < best:
            best, best_g = total, g
        else:
            floor = min(floor, total)
    if waits:
        return waited(frames, level, held, held_lows, held_keys)
    return finish(s, max(floor, lb) if best_g < 0 else best, best_g, level, h1, h2, memo, sym)


@kernel
def path_from(frames: Frames, level: int) -> Any:  # pragma: no cover - compiled
    """Copies of the frames from S (the level-th set) down, as they stand at S's first waiting part (`waited`)."""
    top = frames.head[0]
    return frames.state[level:top].copy(), frames.lows[level:top].copy(), frames.key[level:top].copy()


@kernel
def waited(
    frames: Frames, level: int, held: NDArray[np.int64], lows: NDArray[np.int64], keys: NDArray[np.uint64]
) -> np.int64:  # pragma: no cover - compiled
    """PENDING, the path from S set back to where it stood at S's first waiting part (held, lows, keys: the frames
    from S down), so that the next search from the start resumes all the way down it."""
    if level < FRAME_LEVELS:
        top = level + held.shape[0]
        frames.state[level:top], frames.lows[level:top], frames.key[level:top] = held, lows, keys
        frames.head[0] = top
    return PENDING


@kernel
def finish(
    s: NDArray[np.int32],
    best: np.int64,
    best_g: int,
    level: int,
    h1: np.uint64,
    h2: np.uint64,
    memo: Memo,
    sym: Symmetry,
) -> np.int64:  # pragma: no cover - compiled
    """S settled: its cost (best_g its experiment) or bound recorded (not a guarded start's), the start's experiment
    kept (`Memo.counters` choice), the log noted, its frame dropped; best."""
    if level > 0 or not memo.counters[0].guarded:
        record(memo, h1, h2, best, best_g >= 0, best_g)
    if level == 0:
        memo.counters[0].choice = best_g
    if memo.log.shape[0]:
        note(memo, s, best, sym)
    if level < FRAME_LEVELS:
        memo.frames.head[0] = level
    return best
