"""The plain-Python oracle of the code-breaking tests (and the baseline of `benchmarks/codebreak.py`): Mastermind
scored the plain way and searched exhaustively on frozensets of codes, sharing nothing with the solvers. One module,
so that every test that checks an optimum against brute force checks it against the same oracle."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from itertools import product

Code = tuple[int, ...]
Costs = Callable[[frozenset[Code]], int]


def score(guess: Code, secret: Code) -> tuple[int, int]:
    """Black and white pegs, the plain way."""
    black = sum(g == s for g, s in zip(guess, secret, strict=True))
    common = sum(min(guess.count(c), secret.count(c)) for c in set(guess))
    return black, common - black


def codes(pegs: int, colours: int) -> list[Code]:
    """Every code, in the order the games number them."""
    return list(product(range(colours), repeat=pegs))


def parts(
    scores: dict[tuple[Code, Code], tuple[int, ...]], alive: frozenset[Code], g: Code
) -> dict[tuple[int, ...], list[Code]] | None:
    """The parts guess g leaves open among the secrets alive, by score (g itself found is no part); None when the
    guess tells nothing."""
    out: dict[tuple[int, ...], list[Code]] = {}
    for s in alive:
        if s != g:
            out.setdefault(scores[g, s], []).append(s)
    return None if g not in alive and len(out) == 1 else out


def plain_costs(pegs: int, colours: int, black_only: bool = False) -> tuple[list[Code], Costs, Costs]:
    """Exact costs of any set of secrets by plain exhaustive search (no bounds, no symmetry): the codes, the least
    total guesses (every code may be guessed) and the fewest guesses in the worst case."""
    every = codes(pegs, colours)
    scores = {(g, s): score(g, s)[: 1 if black_only else 2] for g in every for s in every}

    def split(g: Code, alive: frozenset[Code]) -> list[frozenset[Code]] | None:
        found = parts(scores, alive, g)
        return None if found is None else [frozenset(p) for p in found.values()]

    @cache
    def total(alive: frozenset[Code]) -> int:
        if len(alive) == 1:
            return 1
        return min(len(alive) + sum(total(p) for p in ps) for g in every if (ps := split(g, alive)) is not None)

    @cache
    def depth(alive: frozenset[Code]) -> int:
        if len(alive) == 1:
            return 1
        return min(1 + max((depth(p) for p in ps), default=0) for g in every if (ps := split(g, alive)) is not None)

    return every, total, depth


def optimal_total(pegs: int, colours: int) -> int:
    """The fewest total guesses over all secrets, every code guessable at every set, memoised on sets of secrets
    and pruned by the admissible bound that a part of k secrets costs at least 2k - 1 guesses (so 4x3 and 3x4 take
    seconds, where `plain_costs` takes minutes)."""
    every = codes(pegs, colours)
    scores = {(g, s): score(g, s) for g in every for s in every}

    @cache
    def cost(alive: frozenset[Code]) -> int:
        if len(alive) == 1:
            return 1
        best = 10**9
        for g in every:
            found = parts(scores, alive, g)
            if found is None or len(alive) + sum(2 * len(p) - 1 for p in found.values()) >= best:
                continue
            total = len(alive)
            for p in found.values():
                total += cost(frozenset(p))
                if total >= best:
                    break
            best = min(best, total)
        return best

    return cost(frozenset(every))


def second_free_total(pegs: int, colours: int) -> int:
    """The least total over every secret when any code may be the first and second guess and only codes still
    possible after that; every guess tried at every set."""
    return min(second_free_totals(pegs, colours))


def second_free_totals(pegs: int, colours: int) -> list[int]:
    """`second_free_total` from each first guess (by code number, as `codes` orders them)."""
    every = codes(pegs, colours)
    win = (pegs, 0)

    def split(g: Code, s: frozenset[Code]) -> list[frozenset[Code]]:
        out: dict[tuple[int, int], set[Code]] = {}
        for x in s:
            answer = score(g, x)
            if answer != win:
                out.setdefault(answer, set()).add(x)
        return [frozenset(p) for p in out.values()]

    @cache
    def possible(s: frozenset[Code]) -> int:
        return len(s) + min(sum(possible(p) for p in split(g, s)) for g in s)

    def any_code(s: frozenset[Code]) -> int:
        totals = [sum(possible(p) for p in ps) for g in every if s not in (ps := split(g, s))]
        return len(s) + min(totals)

    everyone = frozenset(every)
    return [len(every) + sum(any_code(p) for p in split(g, everyone)) for g in every]
