"""Lamping's construction (2^N - 1 moves for N a power of two) and his argument that no strategy exists
when N has an odd prime factor, checked exhaustively on p coins."""

from __future__ import annotations

from solvers.errors import InputError

from .variant import DevilVariant


def lamping(n: int) -> list[int]:
    """Lamping's sequence for n a power of two: 2^n - 1 moves, each a bitmask of positions to flip."""
    if n == 1:
        return [1]
    if n % 2:
        raise InputError("Lamping's construction needs a power of two")
    half = n // 2
    o = lamping(half)
    d = [x | (x << half) for x in o]
    out = list(d)
    for s in o:
        out += [s, *d]
    return out


def lamping_move(n: int, i: int) -> int:
    """The i-th (0-based) move of Lamping's sequence, computed without building the sequence."""
    if n == 1:
        return 1
    half = n // 2
    length = 2**half - 1
    block, offset = divmod(i, length + 1)
    if offset < length:
        o = lamping_move(half, offset)
        return o | (o << half)
    return lamping_move(half, block)


def is_power_of_two(n: int) -> bool:
    """True for 1, 2, 4, 8, 16, ..."""
    return n & (n - 1) == 0


def odd_prime_factor(n: int) -> int | None:
    """The smallest odd prime dividing n, if any."""
    k = n
    while k % 2 == 0 and k > 1:
        k //= 2
    p = 3
    while p * p <= k:
        if k % p == 0:
            return p
        p += 2
    return k if k > 1 else None


def devil_keeps_unequal(p: int) -> bool:
    """Exhaustive check of the Devil's argument on p coins: unequal coins can always be kept unequal.

    The Devil loses a pattern c to a move a only if every rotation of c, flipped by a, is constant, i.e. every
    rotation of c is a or its complement. So only patterns with at most two distinct rotations need the inner
    check; all patterns are examined.
    """
    full = (1 << p) - 1
    for c in range(1, full):  # every not-all-equal pattern
        turns = {((c << k) | (c >> (p - k))) & full for k in range(p)}
        if len(turns) > 2:
            continue
        for a in turns | {t ^ full for t in turns}:
            if all(t ^ a in (0, full) for t in turns):
                return False
    return True


def no_strategy_reason(v: DevilVariant) -> str | None:
    """Lamping's argument for this N when it applies (coins, any goal), checked exhaustively on p coins."""
    p = odd_prime_factor(v.n)
    if v.states != 2 or p is None:
        return None
    if not devil_keeps_unequal(p):
        return None
    step = v.n // p
    spots = ", ".join(str(i * step) for i in range(p))
    turns = f"the {p} rotations" if step == 1 else f"the {p} rotations by multiples of {step} places"
    return (
        f"{v.n} has the odd prime factor {p}. If the {p} coins at positions {spots} start not all equal, the "
        f"Devil keeps them not all equal for ever: whatever you flip among them, one of {turns} leaves them "
        f"unequal (checked for all {2**p - 2} unequal patterns and {2**p} moves). So no sequence of moves is sure "
        "to win."
    )
