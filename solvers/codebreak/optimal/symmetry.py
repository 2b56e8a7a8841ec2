"""The symmetries the search uses to try one experiment per class.

At the start all colour and position permutations of a guess-the-secret sequence game map the whole game to
itself; below it, those that also fix every experiment made so far map the set of secrets still possible onto
itself (`symmetries`, `narrowed`). Black-peg games whose codes are every sequence have more: a colour permutation
of its own at each place keeps every score, so every first guess is alike, and below it one experiment per class
under those that fix the experiments made so far is tried (`place_classes`; black-peg Mastermind 4x6's eight
guesses are refuted in about a second with them, unsettled after 34 minutes without).
"""

from __future__ import annotations

from itertools import islice, permutations
from math import factorial

import numpy as np
from numpy.typing import NDArray

from solvers.jit import kernel

from ..game import Game
from .rules import Symmetry

MAX_SYMMETRIES = 50_000  # more: search without them. Bulls and Cows' first guess has 17,280 (a 348 MB table);
# Mastermind 4x9's AABB 40,320 (1.1 GB), AAAB 30,240: without them a part of 2,401 secrets below either had every
# one of 5,040 colour relabellings of each guess searched apart (hours); its AAAA's 967,680 stay out
CHUNK = 1024  # colour maps turned into rows at a time


@kernel
def _columns(places: NDArray[np.int8], hist: NDArray[np.int64]) -> NDArray[np.int64]:  # pragma: no cover
    """same[i]: the first place whose history column is partitioned as place i's (each experiment's first
    predecessor with the same colour there)."""
    pegs = places.shape[1]
    n = hist.shape[0]
    column = np.empty((pegs, n), dtype=np.int64)
    for i in range(pegs):
        for a in range(n):
            column[i, a] = a
            for b in range(a):
                if places[hist[b], i] == places[hist[a], i]:
                    column[i, a] = b
                    break
    same = np.empty(pegs, dtype=np.int64)
    for i in range(pegs):
        same[i] = i
        for j in range(i):
            if (column[i] == column[j]).all():
                same[i] = same[j]
                break
    return same


@kernel
def place_classes(places: NDArray[np.int8], hist: NDArray[np.int64]) -> NDArray[np.bool_]:  # pragma: no cover
    """Black-peg games whose codes are every sequence: the first experiment of each class under the permutations
    that fix every experiment made so far (hist) and are built from a permutation of the places and a colour
    permutation of its own at each place (each keeps every black-peg score: a place matches or not whatever its
    colours are called). Such a permutation maps a code g to g' exactly when the places can be matched so that
    each place's history column, extended by g's colour, is partitioned as the matched column extended by g''s:
    a place is described by (the first place whose history column is partitioned as its own, the first
    experiment made there with g's colour, or none), and g's class is the sorted list of its places'
    descriptions. With no history every code is in one class. Where the descriptions do not fit in 63 bits,
    every experiment is kept (no reduction, still sound)."""
    e, pegs = places.shape
    n = hist.shape[0]
    ok = np.ones(e, dtype=np.bool_)
    bits_first = 1
    while (1 << bits_first) <= n:
        bits_first += 1
    bits_place = 1
    while (1 << bits_place) < pegs:
        bits_place += 1
    width = bits_first + bits_place
    if width * pegs > 63:
        return ok
    same = _columns(places, hist)
    first = np.full((pegs, int(places.max()) + 1), n, dtype=np.int64)  # the first experiment with a colour there
    for i in range(pegs):
        for a in range(n - 1, -1, -1):
            first[i, places[hist[a], i]] = a
    keys = np.empty(e, dtype=np.int64)
    describe = np.empty(pegs, dtype=np.int64)
    for g in range(e):
        for i in range(pegs):
            describe[i] = (same[i] << bits_first) | first[i, places[g, i]]
        describe.sort()
        key = np.int64(0)
        for i in range(pegs):
            key = (key << width) | describe[i]
        keys[g] = key
    order = np.argsort(keys, kind="mergesort")  # stable: the first experiment of each class is kept
    ok[:] = False
    for a in range(e):
        if a == 0 or keys[order[a]] != keys[order[a - 1]]:
            ok[order[a]] = True
    return ok


@kernel
def narrowed(sym: Symmetry, g: int) -> Symmetry:  # pragma: no cover - compiled
    """The symmetries in force once experiment g is made too: the rows that also fix g, and g added to the
    history."""
    stab = np.empty(sym.stab.shape[0], dtype=np.int64)
    m = 0
    for j in sym.stab:
        if sym.perm[j, g] == g:
            stab[m] = j
            m += 1
    hist = np.empty(sym.hist.shape[0] + 1, dtype=np.int64)
    hist[: sym.hist.shape[0]] = sym.hist
    hist[sym.hist.shape[0]] = g
    return Symmetry(sym.perm, stab[:m], sym.places, hist)


@kernel
def first_of_classes(allowed: NDArray[np.bool_], sym: Symmetry) -> NDArray[np.bool_]:  # pragma: no cover
    """The allowed experiments that are the first of their class under the symmetries in force."""
    ok = allowed.copy()
    if sym.places.shape[0] > 0:
        ok &= place_classes(sym.places, sym.hist)
    if sym.stab.shape[0] > 1:
        for g in range(ok.shape[0]):
            if ok[g]:
                for j in sym.stab:
                    if sym.perm[j, g] < g:
                        ok[g] = False
                        break
    return ok


def symmetries(game: Game, g: int) -> NDArray[np.int32]:
    """The colour-and-position permutations of a guess-the-secret sequence game that fix experiment g, each as the
    image of every code (rows; the identity included). Such a permutation keeps every score, so it maps the set of
    secrets left after g and any outcome onto itself. Other games: none (no rows)."""
    e = len(game.experiments)
    if game.spec.secrets[0] != "sequences" or not game.must_hit or game.experiments != game.secrets:
        return np.zeros((0, e), dtype=np.int32)
    codes = np.array([[ord(ch) - ord("A") for ch in label] for label in game.experiments], dtype=np.int64)
    pegs, colours = codes.shape[1], int(codes.max()) + 1
    weights = colours ** np.arange(pegs - 1, -1, -1, dtype=np.int64)
    where = np.full(colours**pegs, -1, dtype=np.int64)
    where[codes @ weights] = np.arange(e)
    target = [int(c) for c in codes[g]]
    maps = []  # (places, the colours g's colours go to) of every place permutation that can fix g
    for places in permutations(range(pegs)):
        # the image of a code c is colour[c[places[i]]] at each place i; it fixes g when colour[g[places[i]]] = g[i]
        colour: dict[int, int] = {}
        if any(colour.setdefault(target[places[i]], target[i]) != target[i] for i in range(pegs)):
            continue
        if len(set(colour.values())) == len(colour):
            maps.append((places, colour))
    count = len(maps) * factorial(colours - len(set(target)))
    if count > MAX_SYMMETRIES:
        return np.zeros((0, e), dtype=np.int32)
    out = np.empty((count, e), dtype=np.int32)  # filled in place: no second copy (AAAAB of Super Mastermind: 2.3 GB)
    done = 0
    weights32 = weights.astype(np.int32)
    for places, colour in maps:
        spare_from = [c for c in range(colours) if c not in colour]
        spare_to = [c for c in range(colours) if c not in colour.values()]
        images = permutations(spare_to)
        while chunk := list(islice(images, CHUNK)):  # CHUNK colour maps at a time, each as a row
            full = np.empty((len(chunk), colours), dtype=np.int32)
            full[:, list(colour)] = list(colour.values())
            full[:, spare_from] = np.array(chunk, dtype=np.int32).reshape(len(chunk), len(spare_from))
            rows = np.zeros((len(chunk), e), dtype=np.int32)
            for i in range(pegs):  # the image's place i holds the colour map's image of the code's place places[i]
                rows += full[:, codes[:, places[i]]] * weights32[i]
            out[done : done + len(chunk)] = where[rows]
            done += len(chunk)
    assert done == count
    return out
