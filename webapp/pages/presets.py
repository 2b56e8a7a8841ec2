"""The classic sizes of each puzzle, one click each beside its custom form (a Jinja global: `presets(puzzle)`).
A preset that starts a game with a sealed secret (the random code maker's) posts to its start form: its endpoint
is a POST route, and the preset is a button with the query as the form's fields."""

from __future__ import annotations

from typing import NamedTuple

from flask import current_app, url_for

from webapp.http.htmx import link


class Preset(NamedTuple):
    """One classic size: its label, and where it goes (a link, or a form posted with these fields)."""

    label: str
    url: str
    fields: dict[str, str] | None  # None: a link; else the fields of a form posted to url
    note: str = ""  # what makes it worth playing, where said


ADVERSARY = "adversarial"
SMALL = {"pegs": "3", "colours": "4"}
# puzzle -> (label, endpoint, query), or (label, endpoint, query, a line on what makes it worth playing)
PRESETS: dict[str, tuple[tuple[str, str, dict[str, str]] | tuple[str, str, dict[str, str], str], ...]] = {
    "coins": (
        ("12 coins, 3 weighings (the classic)", "coins.node", {"n": "12"}),
        ("13 coins, 3 weighings", "coins.node", {"n": "13"}),
        ("39 coins, 4 weighings", "coins.node", {"n": "39"}),
        ("120 coins, 5 weighings", "coins.node", {"n": "120"}),
    ),
    "adversary": (
        ("12 coins against the adversary", "adversary.play", {"n": "12"}),
        ("39 coins against the adversary", "adversary.play", {"n": "39"}),
    ),
    "variants": (
        ("Play: 12 coins, a balance that may lie once", "variants.play_page", {"n": "12", "lies": "1"}),
        ("Play: 10 coins, two heavier fakes", "variants.play_page", {"n": "10", "weight": "heavier", "fakes": "2"}),
        ("Play: 13 coins on a three-pan balance", "variants.play_page", {"n": "13", "pans": "3"}),
        ("The plan: 12 coins, a balance that may lie once", "variants.plan_page", {"n": "12", "lies": "1"}),
    ),
    "aequitas": (  # games that last (no first weighing ends them), each with what makes it worth playing; tested
        # against the solver's Grundy values (tests/web/test_aequitas_pages.py)
        (
            "F: 6 coins, misère",
            "aequitas.play",
            {"game": "F", "n": "6", "conv": "misere-last-mover-loses"},
            "Only 1 of the 5 possible first weighings wins, and whoever reveals the fake loses.",
        ),
        (
            "FI: 8 coins, misère",
            "aequitas.play",
            {"game": "FI", "n": "8", "conv": "misere-last-mover-loses"},
            "Find the fake and its weight: 1 winning first weighing among 7.",
        ),
        (
            "D: 8 coins, 1 that would be light, misère",
            "aequitas.play",
            {"game": "D", "n": "8", "light": "1", "conv": "misere-last-mover-loses"},
            "1 winning first weighing among 5; a game can last 6 weighings.",
        ),
        (
            "FI: 8 coins, the computer first",
            "aequitas.play",
            {"game": "FI", "n": "8", "first": "computer"},
            "The computer moves first from a lost start: answer each weighing right and you win.",
        ),
    ),
    "devil": (
        ("4 coins (the classic)", "devil.play", {"n": "4"}),
        ("8 coins", "devil.play", {"n": "8"}),
    ),
    "pegs": (
        ("English board, centre to centre", "pegs.play", {"board": "english", "hole": "d4", "finish": "d4"}),
        ("French board from d3", "pegs.play", {"board": "french", "hole": "d3"}),
        ("Triangle of 15, corner empty", "pegs.play", {"board": "triangle-5", "hole": "1"}),
    ),
    "codebreak": (
        ("Mastermind 4x6, a random code (the classic)", "codebreak.start", {"game": "mastermind", "maker": "random"}),
        ("Bulls and Cows, a random code", "codebreak.start", {"game": "bulls-and-cows", "maker": "random"}),
        ("Mastermind 4x6 against the adversary", "codebreak.play", {"game": "mastermind", "maker": ADVERSARY}),
        ("Mastermind 3x4 against the adversary", "codebreak.play", {"game": "mastermind", "maker": ADVERSARY, **SMALL}),
        ("Bulls and Cows against the adversary", "codebreak.play", {"game": "bulls-and-cows", "maker": ADVERSARY}),
        ("Super Mastermind 5x8, adversary", "codebreak.play", {"game": "super-mastermind", "maker": ADVERSARY}),
    ),
}


def presets(puzzle: str) -> list[Preset]:
    """The puzzle's classic sizes."""
    out = []
    for label, endpoint, query, *note in PRESETS.get(puzzle, ()):
        posted = "POST" in (next(current_app.url_map.iter_rules(endpoint)).methods or ())
        said = note[0] if note else ""
        url = url_for(endpoint) if posted else link(endpoint, query)
        out.append(Preset(label, url, query if posted else None, said))
    return out
