"""The optimal average when every guess must be a code still possible except the second, which may be any code: the
rule under which the supermastermind site gives 179,274 for Super Mastermind 5x8 and 5,636 for Mastermind 4x6 (as
issue 66 quotes it), between the possible-codes-only optimum (179,929; 4x6: 5,660) and the unrestricted one (4x6:
5,625).

It is the possible-codes-only search itself, capped at `rules.SECOND_FREE`: the sets at the start and one guess
below it are free to be guessed any code (`rules.free`; at the start every code is possible anyway) and are keyed
apart from the same sets guessed possible codes only, so a possible-only proof's table (or checkpoint) and this
one's never answer for each other, and they may share one. The schedule, its pause and its processes are the
search's own (`AverageSearch.solve`). The tree is read back from the table and verified against every secret, its
guesses from the third on checked to be possible codes.
"""

from __future__ import annotations

import json
from collections.abc import Callable, MutableMapping
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from solvers.checkpoint import Checkpoint
from solvers.parallel import ONE, Execution

from ..game import Game
from ..strategy import Stats, guesses_possible_codes, verify
from ..tree import Node
from .average_search import AverageSearch
from .readback import expand, outcome_parts, read_back
from .rules import BIG, SECOND_FREE
from .table import Tuning


class SecondFree(NamedTuple):
    """The optimum under the rule, its first guess, and its tree's statistics (verified)."""

    total: int
    first: int
    stats: Stats
    tree: Node


def second_free(
    game: Game,
    tuning: Tuning | None = None,
    tick: Callable[[int, int], None] | None = None,
    checkpoint: Checkpoint | None = None,
    run: Execution = ONE,
    under: int | None = None,
) -> SecondFree:
    """The least total over every secret with possible codes only from the third guess on, proved; tick(done, of)
    as the first guesses' parts settle (`AverageSearch.solve`). checkpoint: where what is proved is kept, and read
    back from (the possible-codes-only proof's own may serve: the keys differ where the rules do). under: look only
    below this total (`average_search.NoneBelow` if none is)."""
    search = AverageSearch(
        game, tuning, cap=SECOND_FREE, under=under, possible_only=True, checkpoint=checkpoint, run=run
    )
    total = search.solve(tick).cost
    tree = read_back(game, search, search.everyone(), total, False, search.root_choice, SECOND_FREE)
    stats = verify(game, tree)
    assert stats.verified and stats.total == total, "the tree read back does not reach the proved total"
    assert guesses_possible_codes(game, tree, from_depth=2), "a guess after the second is not a possible code"
    return SecondFree(total, search.root_choice, stats, tree)


PartBests = MutableMapping[int, tuple[int, int, int, int]]
"""What a strategy's search has found in each part of its first guess, keyed by the part's first secret: (how many
of its candidate second guesses were tried, in their order; the least total among them; the second guess giving it,
-1 before one is found; the last candidate tried, -1 where none is or it was not written down). A part is settled
(its optimum proved) when every candidate has been tried or the rest's bounds are no lower than the least. A run
goes on from the candidate after the last one tried only if the candidates still stand in that order (a change to
their bounds or their order would make it skip some): else it tries them all again, the least total found before
its budget."""


def read_part_bests(text: str) -> dict[int, tuple[int, int, int, int]]:
    """PartBests from the JSON text a run keeps them in (`<name>.parts.json`: each part's first secret, then its
    four numbers; the last candidate tried -1 where an older run did not write it down)."""
    found = json.loads(text)
    return {int(k): (int(v[0]), int(v[1]), int(v[2]), int(v[3]) if len(v) > 3 else -1) for k, v in found.items()}


STEP = 8  # candidate second guesses searched between two reports (what a stop can lose)


def second_guesses(
    game: Game,
    first: int,
    per_part: int | None,
    kept: PartBests,
    told: Callable[[PartBests], None] = lambda kept: None,
    tuning: Tuning | None = None,
    checkpoint: Checkpoint | None = None,
    shard: tuple[int, int] = (0, 1),
) -> AverageSearch:
    """Bring kept up to date in each part of first guess `first`: the part's candidate second guesses (`candidates`,
    best counting bound first; the first per_part of them, None: every one) from the first not tried yet, each
    searched by the kernel with possible codes only below it (`AverageSearch.least`, the part's own table entry
    untouched, the least total so far its budget), kept handed to told after every STEP of them, so a stopped run
    loses at most those. shard (i, n): only the parts i, i + n, ... in decreasing size (n processes, each its own
    share). The search, its table holding the parts' trees, is returned."""
    search = AverageSearch(game, tuning, cap=SECOND_FREE, possible_only=True, checkpoint=checkpoint)
    history = (first,)
    parts = [part for _, part in outcome_parts(game, search.everyone(), first) if part is not None]
    for part in sorted(parts, key=len, reverse=True)[shard[0] :: shard[1]]:
        every, key = search.candidates_at(part, history), int(part[0])
        cands = every[:per_part]
        tried, value, choice, last = kept.get(key, (0, int(BIG), -1, -1))
        if tried and (tried > len(every) or last >= 0 and every[tried - 1, 1] != last):
            tried = 0  # not the order the candidates were tried in (or more of them than there are: none recorded)
        while tried < len(cands) and cands[tried, 0] < value:
            step = cands[tried : tried + STEP]
            found, better = search.least(part, history, step, value, entry=False)
            value, choice = (found, better) if better >= 0 else (value, choice)
            tried += len(step)
            kept[key] = (tried, value, choice, int(cands[tried - 1, 1]))
            told(kept)
        if tried < len(cands):  # the rest's bounds are no lower than the least found: none of them is below it
            kept[key] = (len(cands), value, choice, int(cands[-1, 1]))
            told(kept)
    return search


def second_free_bound(
    game: Game,
    first: int,
    per_part: int | None = None,
    tuning: Tuning | None = None,
    checkpoint: Checkpoint | None = None,
    kept: PartBests | None = None,
    told: Callable[[PartBests], None] = lambda kept: None,
) -> SecondFree:
    """A strategy under the rule with first guess `first`: in each of its parts, the best of the per_part second
    guesses the kernel tries first there (`second_guesses`; kept: what earlier runs found, to go on from, a larger
    per_part from a smaller one's), the tree read back and verified as `second_free`'s. Its total is the optimum
    given that first guess when per_part covers every candidate, and an upper bound on it otherwise (a heuristic:
    nothing is refuted)."""
    kept = {} if kept is None else kept
    search = second_guesses(game, first, per_part, kept, told, tuning, checkpoint)
    depth = search.depth_at(1)

    def best_second(part: NDArray[np.int32]) -> Node:
        _, value, choice, _ = kept[int(part[0])]
        return read_back(game, search, part, value, False, choice, depth)

    tree = expand(game, search.everyone(), first, best_second)
    stats = verify(game, tree)
    assert stats.verified, "the tree read back does not verify"
    assert guesses_possible_codes(game, tree, from_depth=2), "a guess after the second is not a possible code"
    return SecondFree(stats.total, first, stats, tree)
