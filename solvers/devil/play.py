"""Playing the Devil's game: moves as URL text, the adversarial Devil (every table kept alive) and the random
Devil (a hidden table turned by an injected random source), and the belief drawn as rings of coins."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence

from solvers.errors import InputError, LimitError
from solvers.numbers import whole_number

from .search import belief_classes, searchable
from .variant import DevilVariant, digits, goal_configs, symmetries
from .verify import verify

MAX_MOVES = 300
RING_LIMIT = 64
DevilTurn = Callable[[int], int]  # the random Devil: move number (1-based) -> index of the symmetry it applies


def moves_to_text(moves: Iterable[int]) -> str:
    """Moves as URLs carry them: hexadecimal bitmasks of the places flipped, comma-separated."""
    return ",".join(f"{m:x}" for m in moves)


def moves_from_text(v: DevilVariant, text: str) -> tuple[int, ...]:
    """Parse moves from their text; InputError on anything that is not a move of this variant."""
    parts = text.split(",") if text else []
    if len(parts) > MAX_MOVES:
        raise LimitError(f"at most {MAX_MOVES} moves in one game")
    out = []
    for part in parts:
        if not 1 <= len(part) <= 4 or any(ch not in "0123456789abcdef" for ch in part):
            raise InputError("moves are hexadecimal bitmasks of places, like 5 for places 0 and 2", part[:20])
        mask = int(part, 16)
        if mask >= 1 << v.n:
            raise InputError(f"a move names places 0 to {v.n - 1}", part)
        out.append(mask)
    return tuple(out)


def flip_mask(v: DevilVariant, places: Iterable[str]) -> int:
    """The move that flips the named places (ASCII place numbers 0 to N-1); at least one, as the search's moves
    (flipping nothing would only let the Devil turn the table)."""
    mask = 0
    for p in places:
        place = whole_number(p)
        if place is None or place >= v.n:
            raise InputError(f"places are numbered 0 to {v.n - 1}", p[:20])
        mask |= 1 << place
    if not mask:
        raise InputError("choose at least one place to flip: flipping nothing only lets the Devil turn the table")
    return mask


def start_choices(v: DevilVariant) -> list[int]:
    """The tables the random Devil may start from: every configuration not already won."""
    won = set(goal_configs(v))
    return [c for c in range(v.configs) if c not in won] or [0]


def seeded_turns(seed: str, v: DevilVariant) -> DevilTurn:
    """A reproducible random Devil: the symmetry for move i depends only on the seed and i."""
    count = len(symmetries(v))
    return lambda i: random.Random(f"{seed}:{i}").randrange(count)


def random_play(v: DevilVariant, table: int, moves: Sequence[int], turn: DevilTurn) -> tuple[int | None, int]:
    """Play against the random Devil from a hidden table: (the move after which it is won, or None), final table."""
    perms = symmetries(v)
    goals = set(goal_configs(v))
    if table in goals:
        return 0, table
    for i, a in enumerate(moves, 1):
        p = perms[turn(i)]
        ds = digits(v, table)
        turned = [ds[p[k]] for k in range(v.n)]
        table = sum(((x + y) % 2) << k for k, (x, y) in enumerate(zip(turned, digits(v, a), strict=True)))
        if table in goals:
            return i, table
    return None, table


def adversarial_sizes(v: DevilVariant, moves: Sequence[int]) -> tuple[int, ...]:
    """Configurations still possible after each move (the adversarial Devil keeps them all alive)."""
    return verify(v, moves).sizes


def won_at(sizes: Sequence[int]) -> int | None:
    """The move after which nothing is left, if any."""
    return next((i for i, s in enumerate(sizes, 1) if s == 0), None)


def rings(v: DevilVariant, moves: Sequence[int]) -> list[tuple[int, ...]] | None:
    """The rotation classes still possible, as coin tuples, when few enough to draw."""
    if not searchable(v):
        return None
    classes = belief_classes(v, moves)[-1]
    return [digits(v, c) for c in classes] if len(classes) <= RING_LIMIT else None
