"""Strategies for code-breaking games: one-step look-ahead heuristics and optimal search, as trees.

Heuristics score every experiment by the partition it makes of the secrets still possible: knuth (smallest
largest part), expected (smallest expected part size), entropy (largest entropy), parts (most parts). Ties go
to an experiment that could itself be the secret, then to the first in the game's order (Knuth's rule).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal, Protocol

import numpy as np
from numpy.typing import NDArray

from solvers.errors import InputError, LimitError
from solvers.progress import Tick, quiet

from .game import Game

if TYPE_CHECKING:
    from .optimal.rules import Checkpoint  # Numba only when a search is asked for
    from .optimal.search import Search
from .tree import Node

Strategy = Literal["knuth", "expected", "entropy", "parts", "optimal-worst", "optimal-average"]
HEURISTICS: tuple[Strategy, ...] = ("knuth", "expected", "entropy", "parts")
STRATEGIES: tuple[Strategy, ...] = (*HEURISTICS, "optimal-worst", "optimal-average")
OPTIMAL_MAX_SECRETS = 8000  # average case: Bulls and Cows (5,040) in minutes, Mastermind 5x6 (7,776) in hours: jobs
OPTIMAL_WORST_MAX_SECRETS = 8000  # worst case: Bulls and Cows (7 guesses) is proved in about half a minute
POSSIBLE_ONLY_MAX_SECRETS = 32_768  # the average guessing possible codes only: Super Mastermind 5x8, whose outcome
# table (1 GiB) the search fills itself, in hours (docs/puzzles/codebreak.md)
OPTIMAL_MAX_NODES = 20_000_000  # the worst-case search's work: secrets in the sets searched
OPTIMAL_AVERAGE_MAX_NODES = 3_000_000  # the average search's (Bulls and Cows' proof needs 899,625)
OPTIMAL: tuple[Strategy, ...] = ("optimal-worst", "optimal-average")
UNCAPPED = 1 << 20  # no cap on the experiments (`optimal.rules.UNCAPPED`, not imported: it would load Numba)


def optimal_limit(strategy: str, possible_only: bool = False) -> int:
    """The most secrets an optimal search is offered for."""
    if strategy == "optimal-worst":
        return OPTIMAL_WORST_MAX_SECRETS
    return POSSIBLE_ONLY_MAX_SECRETS if possible_only else OPTIMAL_MAX_SECRETS


def limit_message(strategy: str, possible_only: bool = False) -> str:
    """Why a game is too large for an optimal search."""
    more = ""
    if not possible_only and strategy == "optimal-average":
        more = f" ({POSSIBLE_ONLY_MAX_SECRETS:,} guessing possible codes only)"
    return f"the {strategy} search is limited to games of {optimal_limit(strategy, possible_only):,} secrets{more}"


def _consistent(game: Game, alive: NDArray[np.int64]) -> NDArray[np.bool_]:
    """Experiments that are themselves a possible secret."""
    mask = np.zeros(len(game.experiments), dtype=bool)
    if game.must_hit:
        mask[alive] = True  # experiments and secrets are listed in the same order
    return mask


def choose(game: Game, alive: NDArray[np.int64], strategy: Strategy) -> int:
    """The heuristic's experiment for a set of possible secrets. The scores of knuth, expected (the sum of squared
    part sizes: the expected part size times |S|) and parts are whole numbers, compared exactly; entropy's,
    the sum of k log2 k over the parts (|S| times the entropy, less |S| log2 |S|), to within 1e-9."""
    c = game.tallies(alive)
    n = len(alive)
    score: NDArray[Any]
    if strategy == "knuth":
        score = c.max(axis=1)
    elif strategy == "expected":
        score = np.einsum("ij,ij->i", c, c)
    elif strategy == "entropy":
        sizes = np.arange(n + 1, dtype=np.float64)
        sizes[1:] *= np.log2(sizes[1:])  # k log2 k, 0 for k = 0
        score = sizes[c].sum(axis=1)  # smaller: more information
    elif strategy == "parts":
        score = -np.count_nonzero(c, axis=1)
    else:
        raise InputError(f"{strategy} is not a heuristic")
    if not game.must_hit:  # never an experiment that tells nothing
        score = np.where(c.max(axis=1) == n, np.inf if score.dtype.kind == "f" else np.iinfo(np.int64).max, score)
    best = score.min()
    exact = score.dtype.kind != "f"
    ties = np.flatnonzero(score == best) if exact else np.flatnonzero(np.isclose(score, best, rtol=0, atol=1e-9))
    consistent = _consistent(game, alive)[ties]
    return int(ties[consistent][0] if consistent.any() else ties[0])


def check_options(strategy: str, max_guesses: int | None, possible_only: bool) -> None:
    """InputError for options the strategy does not take (checked before any work is queued)."""
    if possible_only and strategy not in OPTIMAL:
        raise InputError("possible codes only is for the optimal strategies (the heuristics prefer them anyway)")
    if max_guesses is not None and strategy != "optimal-average":
        raise InputError("a cap on the guesses (max_guesses) is for the optimal-average strategy")


def build_tree(
    game: Game,
    strategy: Strategy,
    tick: Tick = quiet,
    max_guesses: int | None = None,
    checkpoint: Checkpoint | None = None,
    compiled: bool | None = None,
    possible_only: bool = False,
    node_limit: int | None = None,
    under: int | None = None,
) -> Node:
    """The whole strategy tree from the start (tick: secrets settled, or first experiments searched); the optimal
    average may be asked within at most max_guesses experiments, and may keep what it proves in a checkpoint (and
    resume from it). The optimal searches run compiled, or in plain Python for games of at most `PLAIN_MAX`
    secrets (compiled: True or False chooses). possible_only: the optimal strategies among those that guess only codes
    still possible. node_limit: the optimal search's budget of work (default: OPTIMAL_MAX_NODES for the worst case,
    OPTIMAL_AVERAGE_MAX_NODES for the average; the long proofs of the optima table are given more). under: the
    compiled average search looks only below this total (`optimal.search.NoneBelow` if no strategy is)."""
    check_options(strategy, max_guesses, possible_only)
    if game.generated:
        from .coins import coin_tree

        if strategy != "optimal-worst":
            raise LimitError(
                "above 8 coins the engine generates weighings up to coin permutations for the optimal worst case "
                "only (the heuristics and the average need every weighing listed)"
            )
        return coin_tree(len(game.secrets) // 2)[2]
    alive = np.arange(len(game.secrets), dtype=np.int64)
    if strategy in HEURISTICS:
        settled = [0]

        def counted(part: NDArray[np.int64]) -> None:
            settled[0] += len(part)
            tick(settled[0], len(game.secrets))

        return _heuristic(game, alive, strategy, counted)
    if len(game.secrets) > optimal_limit(strategy, possible_only):
        raise LimitError(limit_message(strategy, possible_only))
    worst = strategy == "optimal-worst"
    tabled = game.tabled()  # the search reads a whole table; the tree keeps indices, the same in either game
    return _optimal_tree(
        tabled, alive, worst, tick, max_guesses, checkpoint, compiled, possible_only, node_limit, under
    )


def _heuristic(
    game: Game, alive: NDArray[np.int64], strategy: Strategy, settled: Callable[[NDArray[np.int64]], None]
) -> Node:
    """Grow the tree by the heuristic (settled: told of the secrets each leaf or hit settles)."""
    if not game.must_hit and len(alive) <= 1:
        settled(alive)
        return Node(None, len(alive), solved=int(alive[0]) if len(alive) else None)
    e = int(alive[0]) if game.must_hit and len(alive) == 1 else choose(game, alive, strategy)
    if game.must_hit:
        settled(alive[alive == e])
    return _expand(game, alive, e, lambda part: _heuristic(game, part, strategy, settled))


def _expand(game: Game, alive: NDArray[np.int64], e: int, grow: Callable[[NDArray[np.int64]], Node]) -> Node:
    """A node making experiment e, with children grown by `grow` for each outcome."""
    node = Node(e, len(alive))
    outcomes = game.outcomes(e, alive)
    for o in np.unique(outcomes):
        part = alive[outcomes == o]
        if game.must_hit and int(o) == game.win_outcome:
            node.children[int(o)] = None
        else:
            node.children[int(o)] = grow(part)
    return node


# ---------------------------------------------------------------- optimal search (small games)


def _optimal_tree(
    game: Game,
    alive: NDArray[np.int64],
    worst: bool,
    tick: Tick = quiet,
    max_guesses: int | None = None,
    checkpoint: Checkpoint | None = None,
    compiled: bool | None = None,
    possible_only: bool = False,
    node_limit: int | None = None,
    under: int | None = None,
) -> Node:
    """The optimal tree (fewest experiments in the worst case, or in total, within max_guesses experiments when
    given), by the exhaustive branch-and-bound of `optimal` (LimitError past its budget of sets searched; imported
    here, with Numba, only when asked for), or its plain-Python twin `optimal.plain` for small games."""
    from .optimal.plain import PLAIN_MAX, PLAIN_WORK, PlainSearch
    from .optimal.rules import BIG

    limit = node_limit or (OPTIMAL_MAX_NODES if worst else OPTIMAL_AVERAGE_MAX_NODES)
    search: PlainSearch | Search | None = None
    if compiled is False:
        search = PlainSearch(game, worst, limit, cap=max_guesses, possible_only=possible_only)
        cost = search.solve(tick).cost
    elif compiled is None and len(game.secrets) <= PLAIN_MAX and checkpoint is None and under is None:
        try:  # no compiler: done before Numba would load, unless the game needs more work
            search = PlainSearch(game, worst, min(limit, PLAIN_WORK), cap=max_guesses, possible_only=possible_only)
            cost = search.solve(tick).cost
            search.limit = limit  # reading the tree back may search a set again
        except LimitError:
            search = None
    if search is None:
        from .optimal import Search

        search = Search(
            game, worst, limit, cap=max_guesses, checkpoint=checkpoint, possible_only=possible_only, under=under
        )
        cost = search.solve(tick).cost
    if cost >= BIG:
        raise InputError(f"no strategy finds every secret within {max_guesses} guesses")

    return read_back(game, search, alive.astype(np.int32), cost, worst, search.root_choice, search.cap)


class Proved(Protocol):
    """What reading an optimal tree back needs of a search (`optimal.Search`, `optimal.plain.PlainSearch`)."""

    def best_of(self, s: NDArray[np.int32], budget: int, depth: int = ...) -> tuple[int, int]:
        """(cost, experiment) on the optimal tree for a set whose cost (or depth) is at most budget."""


def read_back(
    game: Game, search: Proved, s: NDArray[np.int32], cost: int, worst: bool, first: int = -1, depth: int = UNCAPPED
) -> Node:
    """The optimal tree of a set whose optimal cost (worst: depth) `search` proved, read back from its table, with
    at most depth experiments (the average under a cap); first: the top experiment when the search chose it
    itself (`Search.root_choice`)."""
    from .optimal.rules import below

    def grow(s: NDArray[np.int32], budget: int, e: int, depth: int) -> Node:
        if not game.must_hit and len(s) <= 1:
            return Node(None, len(s), solved=int(s[0]) if len(s) else None)
        e = e if e >= 0 else search.best_of(s, budget, depth)[1]
        node = Node(e, len(s))
        outcomes = game.outcomes(e, s)
        for o in np.unique(outcomes):
            part = s[outcomes == o]
            if game.must_hit and int(o) == game.win_outcome:
                node.children[int(o)] = None
            else:
                node.children[int(o)] = grow(part, budget - 1 if worst else cost, -1, below(depth))
        return node

    return grow(s, cost, first, depth)


# ---------------------------------------------------------------- statistics and verification


@dataclass(frozen=True)
class Stats:
    """How a strategy does over every secret."""

    worst: int
    total: int
    secrets: int
    verified: bool

    @property
    def average(self) -> Fraction:
        """Average number of experiments."""
        return Fraction(self.total, self.secrets)


def play(game: Game, tree: Node, secret: int) -> int | None:
    """Experiments the tree makes to finish against a secret, or None if it ends wrong."""
    node: Node | None = tree
    used = 0
    while node is not None:
        if node.experiment is None:
            return used if node.solved == secret else None
        used += 1
        o = game.outcome(node.experiment, secret)
        if o not in node.children:
            return None
        if node.children[o] is None:
            return used if game.must_hit and node.experiment == secret else None
        node = node.children[o]
    return None


def verify(game: Game, tree: Node, possible_only: bool = False) -> Stats:
    """Play every secret through the tree and collect the worst and total number of experiments. The secrets
    travel together: at each node every secret that reached it is scored by the node's experiment and goes on
    to the child its own outcome names, exactly as `play` follows one secret. possible_only: the tree must also
    guess only codes still possible (`guesses_possible_codes`)."""
    worst, total, ok = 0, 0, True
    stack: list[tuple[Node, NDArray[np.int64], int]] = [(tree, np.arange(len(game.secrets), dtype=np.int64), 0)]
    while stack:
        node, alive, used = stack.pop()
        if node.experiment is None:  # a leaf names the one secret that reaches it
            if len(alive) == 1 and node.solved == int(alive[0]):
                worst, total = max(worst, used), total + used
            else:
                ok = False
            continue
        outcomes = game.outcomes(node.experiment, alive)
        for o in np.unique(outcomes):
            part = alive[outcomes == o]
            if int(o) not in node.children:
                ok = False
                continue
            child = node.children[int(o)]
            if child is None:  # finished: the experiment must have been the secret
                if game.must_hit and len(part) == 1 and int(part[0]) == node.experiment:
                    worst, total = max(worst, used + 1), total + used + 1
                else:
                    ok = False
            else:
                stack.append((child, part, used + 1))
    ok = ok and (not possible_only or guesses_possible_codes(game, tree))
    return Stats(worst, total, len(game.secrets), ok)


def guesses_possible_codes(game: Game, tree: Node) -> bool:
    """Whether every experiment of the tree is a code still possible where it is made (secrets and experiments
    listed in the same order), checked with the secrets that reach each node as `verify` plays them."""
    stack: list[tuple[Node, NDArray[np.int64]]] = [(tree, np.arange(len(game.secrets), dtype=np.int64))]
    while stack:
        node, alive = stack.pop()
        if node.experiment is None:
            continue
        if not game.must_hit or node.experiment not in alive:
            return False
        outcomes = game.outcomes(node.experiment, alive)
        for o in np.unique(outcomes):
            child = node.children.get(int(o))
            if child is not None:
                stack.append((child, alive[outcomes == o]))
    return True


def to_json(game: Game, node: Node | None) -> dict[str, object]:
    """A tree as JSON-ready data."""
    if node is None:
        return {"solved": True}
    if node.experiment is None:
        return {"secret": game.secrets[node.solved] if node.solved is not None else None}
    return {
        "experiment": game.experiments[node.experiment],
        "secrets": node.secrets,
        "outcomes": {game.outcome_names[o]: to_json(game, child) for o, child in sorted(node.children.items())},
    }


def to_dot(game: Game, root: Node) -> str:
    """A tree in GraphViz DOT."""
    lines = ["digraph strategy {", '  node [shape=box, fontname="sans-serif"];']
    count = 0

    def walk(node: Node | None) -> str:
        nonlocal count
        count += 1
        name = f"n{count}"
        if node is None:
            lines.append(f'  {name} [label="solved", shape=ellipse];')
        elif node.experiment is None:
            label = game.secrets[node.solved] if node.solved is not None else "impossible"
            lines.append(f'  {name} [label="{label}", shape=ellipse];')
        else:
            lines.append(f'  {name} [label="{game.experiments[node.experiment]}\\n{node.secrets} left"];')
            for o, child in sorted(node.children.items()):
                lines.append(f'  {name} -> {walk(child)} [label="{game.outcome_names[o]}"];')
        return name

    walk(root)
    lines.append("}")
    return "\n".join(lines)
