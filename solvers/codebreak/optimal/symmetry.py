"""The symmetries the search uses to try one experiment per class.

At the start all colour and position permutations of a guess-the-secret sequence game map the whole game to
itself; below it, those that also fix every experiment made so far map the set of secrets still possible onto
itself (`symmetries`, `narrowed`). They are kept factored: the group is the product of a few place-and-colour
permutations (`Symmetry.maps`: at most one per place permutation, each leaving the free colours, those no
experiment so far used, where they are) with every permutation of the free colours, which commute. So the least
code of a class is the least, over the maps, of the code's image with its free colours renamed in order of first
appearance to the least free colours (`classes`); and fixing one more experiment keeps the maps that, followed by
the one renaming of the free colours that experiment forces, fix it (`narrowed`). No table of images: Mastermind
3x10's AAB has 2 x 8! = 80,640 symmetries, 3x20's AAB 2 x 18!, held in 2 rows.

Black-peg games whose codes are every sequence have more: a colour permutation of its own at each place keeps every
score, so every first guess is alike, and below it one experiment per class under those that fix the experiments
made so far is tried (`place_classes`; black-peg Mastermind 4x6's eight guesses are refuted in about a second with
them, unsettled after 34 minutes without).
"""

from __future__ import annotations

from itertools import permutations
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from solvers.jit import kernel

from ..game import Game
from .rules import Symmetry

MAX_PEGS = 8  # longer codes: no place-and-colour symmetries (their place permutations are too many to list)


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
def in_force(sym: Symmetry) -> bool:  # pragma: no cover - compiled
    """Whether any place-and-colour symmetry besides the identity is in force."""
    return bool(sym.codes.shape[0] > 0 and (sym.stab.shape[0] > 1 or np.count_nonzero(sym.free) > 1))


@kernel
def image(sym: Symmetry, j: int, x: int) -> int:  # pragma: no cover - compiled
    """The code that row j of the maps sends code x to: place i of the image holds the colour map's image of x's
    colour at place maps[j, i]."""
    pegs = sym.codes.shape[1]
    colours = sym.free.shape[0]
    v = np.int64(0)
    for i in range(pegs):
        v = v * colours + sym.maps[j, pegs + sym.codes[x, sym.maps[j, i]]]
    return int(sym.where[v])


@kernel
def least_renamed(sym: Symmetry, x: int, name: NDArray[np.int64]) -> int:  # pragma: no cover - compiled
    """The least code of x's class under the permutations of the free colours: its free colours renamed, in order of
    first appearance, to the least free colours (name: room for one colour map)."""
    pegs = sym.codes.shape[1]
    colours = sym.free.shape[0]
    name[:] = -1
    spare = 0
    v = np.int64(0)
    for i in range(pegs):
        c = np.int64(sym.codes[x, i])
        if sym.free[c]:
            if name[c] < 0:
                while not sym.free[spare]:
                    spare += 1
                name[c] = spare
                spare += 1
            c = name[c]
        v = v * colours + c
    return int(sym.where[v])


@kernel
def classes(ok: NDArray[np.bool_], sym: Symmetry) -> None:  # pragma: no cover - compiled
    """Keep in ok only the first (least) code of each class under the symmetries in force (found for every code
    the first time, kept in the symmetries)."""
    if not in_force(sym):
        return
    if not sym.known[0]:
        renamed = np.count_nonzero(sym.free) > 1
        name = np.empty(sym.free.shape[0], dtype=np.int64)
        for g in range(sym.first.shape[0]):
            sym.first[g] = not (renamed and least_renamed(sym, g, name) != g)
            if sym.first[g]:
                for j in sym.stab:
                    y = image(sym, j, g)
                    if renamed:
                        y = least_renamed(sym, y, name)
                    if y < g:
                        sym.first[g] = False
                        break
        sym.known[0] = True
    ok &= sym.first


@kernel
def narrowed(sym: Symmetry, g: int) -> Symmetry:  # pragma: no cover - compiled
    """The symmetries in force once experiment g is made too, and g added to the history. A map followed by a
    permutation of the free colours fixes g only when the map sends g to a code that differs from g in free colours
    alone, one free colour for one; that permutation is then forced on the colours of g (the map's image of g holds
    the same free colours as g), and the product is kept as the map, the other free colours left where they are."""
    hist = np.empty(sym.hist.shape[0] + 1, dtype=np.int64)
    hist[: sym.hist.shape[0]] = sym.hist
    hist[sym.hist.shape[0]] = g
    if not in_force(sym):
        return Symmetry(sym.maps, sym.stab, sym.places, hist, sym.codes, sym.free, sym.where, sym.first, sym.known)
    pegs = sym.codes.shape[1]
    colours = sym.free.shape[0]
    maps = np.empty((sym.stab.shape[0], pegs + colours), dtype=np.int64)
    to = np.empty(colours, dtype=np.int64)
    back = np.empty(colours, dtype=np.int64)
    m = 0
    for j in sym.stab:
        to[:] = -1
        back[:] = -1
        fits = True
        for i in range(pegs):
            y = sym.maps[j, pegs + sym.codes[g, sym.maps[j, i]]]
            c = np.int64(sym.codes[g, i])
            if sym.free[y] and sym.free[c]:
                if (to[y] >= 0 and to[y] != c) or (back[c] >= 0 and back[c] != y):
                    fits = False
                    break
                to[y] = c
                back[c] = y
            elif y != c:
                fits = False
                break
        if fits:
            maps[m, :pegs] = sym.maps[j, :pegs]
            for k in range(colours):
                t = sym.maps[j, pegs + k]
                maps[m, pegs + k] = to[t] if to[t] >= 0 else t
            m += 1
    free = sym.free.copy()
    for i in range(pegs):
        free[sym.codes[g, i]] = False
    stab = np.arange(m, dtype=np.int64)
    first = np.empty(sym.first.shape[0], dtype=np.bool_)
    return Symmetry(maps[:m].copy(), stab, sym.places, hist, sym.codes, free, sym.where, first, np.zeros(1, np.bool_))


@kernel
def first_of_classes(allowed: NDArray[np.bool_], sym: Symmetry) -> NDArray[np.bool_]:  # pragma: no cover
    """The allowed experiments that are the first of their class under the symmetries in force."""
    ok = allowed.copy()
    if sym.places.shape[0] > 0:
        ok &= place_classes(sym.places, sym.hist)
    classes(ok, sym)
    return ok


class Space(NamedTuple):
    """A sequence game's codes as the symmetries read them: each code's colours, and the code of each sequence
    read as a number in base colours (-1: not a code)."""

    codes: NDArray[np.int8]
    where: NDArray[np.int64]

    @property
    def colours(self) -> int:
        """How many colours the codes use."""
        return int(self.codes.max()) + 1

    @property
    def numbers(self) -> NDArray[np.int64]:
        """Each code's colours read as a number in base colours (the first place most significant)."""
        weights = self.colours ** np.arange(self.codes.shape[1] - 1, -1, -1, dtype=np.int64)
        numbers: NDArray[np.int64] = self.codes.astype(np.int64) @ weights
        return numbers


def space(game: Game) -> Space | None:
    """The codes of a guess-the-secret game whose experiments are its codes, sequences closed under renaming colours
    and permuting places (every sequence, or those without repeats); None for other games."""
    e = len(game.experiments)
    if game.spec.secrets[0] != "sequences" or not game.must_hit or game.experiments != game.secrets:
        return None
    codes = np.array([[ord(ch) - ord("A") for ch in label] for label in game.experiments], dtype=np.int8)
    pegs, colours = codes.shape[1], int(codes.max()) + 1
    if pegs > MAX_PEGS:
        return None
    space = Space(codes, np.full(colours**pegs, -1, dtype=np.int64))
    space.where[space.numbers] = np.arange(e)
    return space


def symmetries(codes: NDArray[np.int8], colours: int, g: int) -> tuple[NDArray[np.int64], NDArray[np.bool_]]:
    """The colour-and-position permutations of a sequence game (its codes' colours; `space`) that fix experiment g,
    factored (see the module's note): (the maps, one per place permutation that can fix g: that permutation, then the
    colour map it forces on g's colours, every other colour left where it is; the free colours, those g does not
    use). Every such permutation keeps every score, so it maps the set of secrets left after g and any outcome onto
    itself."""
    pegs = codes.shape[1]
    target = [int(c) for c in codes[g]]
    rows = []
    for places in permutations(range(pegs)):
        # the image of a code c is colour[c[places[i]]] at each place i; it fixes g when colour[g[places[i]]] = g[i]
        colour: dict[int, int] = {}
        if any(colour.setdefault(target[places[i]], target[i]) != target[i] for i in range(pegs)):
            continue
        if len(set(colour.values())) == len(colour):
            full = list(range(colours))
            for a, b in colour.items():
                full[a] = b
            rows.append([*places, *full])
    free = np.ones(colours, dtype=np.bool_)
    free[list(set(target))] = False
    return np.array(rows, dtype=np.int64).reshape(-1, pegs + colours), free


def elements(sym: Symmetry) -> NDArray[np.int64]:
    """Every permutation of the symmetries in force, as the image of every code (rows; small games only: the tests
    compare them with a brute force)."""
    if sym.codes.shape[0] == 0:
        return np.zeros((0, 0), dtype=np.int64)
    pegs, colours = sym.codes.shape[1], sym.free.shape[0]
    free = [int(c) for c in np.flatnonzero(sym.free)]
    weights = colours ** np.arange(pegs - 1, -1, -1, dtype=np.int64)
    out = []
    for j in sym.stab:
        for renamed in permutations(free):
            colour = sym.maps[j, pegs:].copy()
            rename = np.arange(colours)
            rename[free] = renamed
            colour = rename[colour]
            out.append(sym.where[colour[sym.codes[:, sym.maps[j, :pegs]].astype(np.int64)] @ weights])
    return np.array(out, dtype=np.int64)
