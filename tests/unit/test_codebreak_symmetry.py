"""The colour-and-position permutations that fix the guesses made (`optimal.symmetry`: factored into a few maps and
the free colours), against a brute force over every pair of a place permutation and a colour permutation."""

from __future__ import annotations

from itertools import permutations
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

from solvers.codebreak import build, parse
from solvers.codebreak.optimal.average_search import AverageSearch
from solvers.codebreak.optimal.symmetry import elements, first_of_classes, narrowed

GAMES = Path(__file__).resolve().parents[2] / "games"


def fixing(guess: str, colours: int) -> list[tuple[tuple[int, ...], dict[str, str]]]:
    """Every (place permutation, colour permutation) pair that maps guess to itself, by brute force."""
    letters = [chr(ord("A") + k) for k in range(colours)]
    out = []
    for places in permutations(range(len(guess))):
        for image in permutations(letters):
            recolour = dict(zip(letters, image, strict=True))
            if "".join(recolour[guess[p]] for p in places) == guess:
                out.append((places, recolour))
    return out


def group(g: Any, guess: str) -> NDArray[np.int64]:
    """The search's symmetries after a first guess (`first_symmetries`), every permutation as rows of images."""
    search = AverageSearch(g.tabled())
    return elements(search.first_symmetries(g.experiments.index(guess)))


def test_the_factored_symmetries_are_every_permutation_fixing_the_guess() -> None:
    """Mastermind 3x8, AAA first: as many permutations as place-and-colour permutations fix AAA (3! x 7! = 30,240),
    all different, each a permutation of the codes fixing AAA, held as 6 maps and 7 free colours. Mastermind 4x4,
    AABB first: exactly the brute force's images of the codes."""
    g = build(parse((GAMES / "mastermind.game").read_text()), {"length": 3, "colours": 8})
    rows = group(g, "AAA")
    assert len(fixing("AAA", 8)) == 30_240 == rows.shape[0] == len({r.tobytes() for r in rows})
    assert (np.sort(rows, axis=1) == np.arange(len(g.experiments))).all()
    assert (rows[:, g.experiments.index("AAA")] == g.experiments.index("AAA")).all()
    sym = AverageSearch(g.tabled()).first_symmetries(g.experiments.index("AAA"))
    assert (len(sym.stab), int(sym.free.sum())) == (6, 7)
    g = build(parse((GAMES / "mastermind.game").read_text()), {"length": 4, "colours": 4})
    codes = list(g.experiments)
    images = {
        tuple(codes.index("".join(c[code[p]] for p in places)) for code in codes) for places, c in fixing("AABB", 4)
    }
    assert {tuple(r) for r in group(g, "AABB").tolist()} == images and len(images) == 16


@pytest.mark.parametrize(
    ("pegs", "colours", "path"), [(3, 5, ("AAB", "ACD")), (4, 4, ("AABC", "ABDD")), (3, 6, ("ABC", "BDE"))]
)
def test_narrowed_symmetries_are_those_fixing_every_guess(pegs: int, colours: int, path: tuple[str, ...]) -> None:
    """After a second guess the symmetries in force (`narrowed`, which renames free colours into the maps) are
    exactly the place-and-colour permutations fixing both guesses, by brute force; and the first of each class
    (`first_of_classes`) is the least code of its orbit under them."""
    g = build(parse((GAMES / "mastermind.game").read_text()), {"length": pegs, "colours": colours})
    search = AverageSearch(g.tabled())
    codes = list(g.experiments)
    sym = narrowed(search.first_symmetries(codes.index(path[0])), codes.index(path[1]))
    both = [(places, c) for places, c in fixing(path[0], colours) if "".join(c[path[1][p]] for p in places) == path[1]]
    brute = {tuple(codes.index("".join(c[code[p]] for p in places)) for code in codes) for places, c in both}
    assert {tuple(r) for r in elements(sym).tolist()} == brute
    least = np.array([min(r[x] for r in brute) for x in range(len(codes))])
    first = first_of_classes(np.ones(len(codes), dtype=np.bool_), sym)
    assert (first == (least == np.arange(len(codes)))).all()


def test_many_colours_cost_two_maps() -> None:
    """Mastermind 2x9, AA first: 2 x 8! = 80,640 permutations, once too many to list (the search went without
    them): two maps and eight free colours now."""
    g = build(parse((GAMES / "mastermind.game").read_text()), {"length": 2, "colours": 9})
    sym = AverageSearch(g.tabled()).first_symmetries(g.experiments.index("AA"))
    assert (len(sym.stab), int(sym.free.sum())) == (2, 8)
