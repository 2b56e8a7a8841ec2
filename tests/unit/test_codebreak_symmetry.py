"""The colour-and-position permutations that fix a first guess (`optimal.symmetry.symmetries`), against a brute
force over every pair of a place permutation and a colour permutation."""

from __future__ import annotations

from itertools import permutations
from pathlib import Path

import numpy as np

from solvers.codebreak import build, parse
from solvers.codebreak.optimal.symmetry import MAX_SYMMETRIES, symmetries

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


def test_a_first_guess_with_more_than_20000_symmetries_gets_all_of_them() -> None:
    """Mastermind 3x8, AAA first: as many rows as place-and-colour permutations fix AAA (3! x 7! = 30,240, over the
    former limit of 20,000, as Mastermind 4x9's AABB and AAAB were), all different, each a permutation of the codes
    fixing AAA. Mastermind 4x4, AABB first: the rows are exactly the brute force's images of the codes."""
    g = build(parse((GAMES / "mastermind.game").read_text()), {"length": 3, "colours": 8})
    rows = symmetries(g, g.experiments.index("AAA"))
    assert len(fixing("AAA", 8)) == 30_240 == rows.shape[0] == len({r.tobytes() for r in rows})
    assert (np.sort(rows, axis=1) == np.arange(len(g.experiments))).all()
    assert (rows[:, g.experiments.index("AAA")] == g.experiments.index("AAA")).all()
    g = build(parse((GAMES / "mastermind.game").read_text()), {"length": 4, "colours": 4})
    codes = list(g.experiments)
    images = {
        tuple(codes.index("".join(c[code[p]] for p in places)) for code in codes) for places, c in fixing("AABB", 4)
    }
    assert {tuple(r) for r in symmetries(g, codes.index("AABB")).tolist()} == images and len(images) == 16


def test_more_than_the_limit_means_no_symmetries() -> None:
    """Mastermind 2x9, AA first: 2 x 8! = 80,640, over MAX_SYMMETRIES: the search goes without (still exact)."""
    g = build(parse((GAMES / "mastermind.game").read_text()), {"length": 2, "colours": 9})
    assert MAX_SYMMETRIES < 2 * 40_320
    rows = symmetries(g, g.experiments.index("AA"))
    assert rows.shape == (0, len(g.experiments))
    assert np.asarray(rows).dtype == np.int32
