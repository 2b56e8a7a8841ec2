"""A certificate of an optimal average: what lets a checker that shares no code with the search confirm the optimum
(`tests/certify/checker.py` is one).

The search, run in one process with its log on (`Memo.log`), notes every set's cost or lower bound as it proves it,
with the experiments made before the set (whose colour and place permutations map the set onto itself, so the
search tried one experiment per class of them there) or none where it used no symmetries. The certificate holds:

- the claims: each set's largest noted value, with its experiments; the whole game's claim is the optimum;
- the optimal tree as each secret's sequence of guesses.

A checker confirms the optimum in two halves. Upper: the sequences are one strategy (secrets that got the same
answers so far get the same next guess), each ends on its secret, and their lengths total the optimum. Lower: each
claim (S, v) follows from smaller ones: for every experiment g (one per class of the permutations fixing the
claim's experiments, which it checks map S onto itself), |S| plus, over the parts g leaves open, the most known of
each part (its claim, its counting bound, or |P| plus its parts' counting bounds one experiment deeper) is at least
v. By induction on |S| every claim is then a lower bound, the whole game's among them.

Only the plain optimal average of a game whose codes are all the sequences and whose guesses are its codes (every
code may be guessed, no cap on the guesses) is certified here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from solvers.errors import InputError, LimitError

from ..game import Game
from ..sequences import sequences_of
from ..strategy import verify
from ..tree import Node
from .average_search import AverageSearch
from .readback import read_back
from .symmetry import Space, space
from .table import LARGE_CACHE_BITS, NODE_LIMIT, Tuning

LOG_VALUES = 1 << 27  # the log's room (1 GiB, touched only as far as it is used): past it, no certificate
MADE_LARGE_FROM = 2000  # secrets: the kept certificates of games larger than this (3x13 to 3x16, 4x7, 5x5, 4x8) were
# made with a table of 2^LARGE_CACHE_BITS slots, which `certify` keeps for them: a smaller table may crowd a set out
# and note it again, which changes the log, and `make proofs` makes each kept certificate again array by array


class OptimumCertificate(NamedTuple):
    """A certificate (see the module's note), as arrays. Codes are numbered in the order of the sequences of colours
    0..colours-1, the first place most significant (colour A is 0)."""

    pegs: int
    colours: int
    total: int  # the optimal total number of guesses over every secret
    sizes: NDArray[np.int32]  # each claim's set size ...
    values: NDArray[np.int64]  # ... its lower bound ...
    members: NDArray[np.int32]  # ... and members, one claim after another
    made: NDArray[np.int32]  # each claim's experiments made before it (-1: the search used no symmetries there)
    history: NDArray[np.int32]  # those experiments, one claim after another
    lengths: NDArray[np.int32]  # each secret's number of guesses on the optimal tree ...
    guesses: NDArray[np.int32]  # ... and the guesses, one secret after another


def certifiable(game: Game) -> Space:
    """The game's codes (`symmetry.space`) if a certificate covers it, else InputError: every sequence a code, every
    code a guess, and black-and-white (Mastermind) scores."""
    codes = space(game)
    if codes is None or game.spec.outcome != "black-white" or len(codes.where) != len(game.secrets):
        raise InputError("certificates are for Mastermind games (every sequence a code and a guess)")
    return codes


def certify(
    game: Game, node_limit: int = NODE_LIMIT, tick: Callable[[int, int], None] | None = None
) -> OptimumCertificate:
    """Prove the game's optimal average with the log on, and make its certificate (LimitError when the log does not
    fit in LOG_VALUES or the search's budget of work)."""
    return certificate_of(game, logging(game, node_limit), tick)


def logging(game: Game, node_limit: int = NODE_LIMIT) -> AverageSearch:
    """The search `certify` runs: in one process, its log on."""
    certifiable(game)
    bits = LARGE_CACHE_BITS if len(game.secrets) > MADE_LARGE_FROM else None
    search = AverageSearch(game.tabled(), Tuning(node_limit=node_limit, cache_bits=bits))
    search.memo = search.memo._replace(log=np.zeros(LOG_VALUES, dtype=np.int64))
    return search


def certificate_of(
    game: Game, search: AverageSearch, tick: Callable[[int, int], None] | None = None
) -> OptimumCertificate:
    """The certificate of the game's optimal average, proved by its logging search (`logging`; one halted part-way,
    Paused, goes on from where it stood)."""
    codes = certifiable(game)
    cost = search.solve(tick).cost
    counters = search.memo.counters[0]
    if counters["overflow"]:
        raise LimitError(f"too large to certify here: its log of proved sets is over {LOG_VALUES:,} values")
    everyone = search.everyone()
    tree = read_back(game, search, everyone, cost, False, search.root_choice)
    if verify(game, tree).total != cost:
        raise AssertionError("the optimal tree does not total the proved optimum")
    claims = _claims(search.memo.log[: int(counters["logged"])])
    claims[everyone.tobytes()] = (cost, np.zeros(0, dtype=np.int64))  # the whole game: the optimum
    return _assemble(game, codes, cost, claims, tree)


def _claims(log: NDArray[np.int64]) -> dict[bytes, tuple[int, NDArray[np.int64] | None]]:
    """Each set's largest noted value, with the experiments made before it when it was noted (None: no
    symmetries used), keyed by its members' bytes (int32, sorted)."""
    out: dict[bytes, tuple[int, NDArray[np.int64] | None]] = {}
    at, end = 0, len(log)
    while at < end:
        n, value, made = int(log[at]), int(log[at + 1]), int(log[at + 2])
        members = np.sort(log[at + 3 : at + 3 + n]).astype(np.int32)
        hist = log[at + 3 + n : at + 3 + n + made].copy() if made >= 0 else None
        at += 3 + n + max(made, 0)
        key = members.tobytes()
        if key not in out or out[key][0] < value:
            out[key] = (value, hist)
    return out


def _assemble(
    game: Game, codes: Space, total: int, claims: dict[bytes, tuple[int, NDArray[np.int64] | None]], tree: Node
) -> OptimumCertificate:
    """The certificate's arrays, codes renumbered as the certificate numbers them (`OptimumCertificate`)."""
    pegs, colours, number = codes.codes.shape[1], codes.colours, codes.numbers.astype(np.int32)
    sizes, values, members, made, history = [], [], [], [], []
    for key, (value, hist) in claims.items():
        s = np.frombuffer(key, dtype=np.int32)
        sizes.append(len(s))
        values.append(value)
        members.append(np.sort(number[s]))
        made.append(-1 if hist is None else len(hist))
        history.append(number[hist] if hist is not None else np.zeros(0, dtype=np.int32))
    lengths, guesses = sequences_of(game, tree)
    order = np.argsort(number)  # the secrets in the certificate's numbering
    paths = np.split(number[guesses], np.cumsum(lengths)[:-1])
    return OptimumCertificate(
        pegs,
        colours,
        total,
        np.array(sizes, dtype=np.int32),
        np.array(values, dtype=np.int64),
        np.concatenate(members).astype(np.int32),
        np.array(made, dtype=np.int32),
        np.concatenate(history).astype(np.int32),
        lengths[order],
        np.concatenate([paths[i] for i in order]).astype(np.int32),
    )
