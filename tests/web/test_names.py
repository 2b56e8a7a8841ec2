"""Names for people everywhere a visitor reads: the text of the pages (not their addresses) and the titles of the
computations the progress pages show never use the file names of boards, games and strategies."""

from __future__ import annotations

import html
import re

import pytest
from flask.testing import FlaskClient

from webapp.results.catalogue import PEGS_TABLE, BoardParams
from webapp.results.codebreak_results import CODEBREAK, GAME, codebreak_params, game_params

RAW = re.compile(
    r"triangle-\d|\benglish\b|\bfrench\b|\bknuth\b|\bmastermind \d|bulls-and-cows|optimal-average|-destined"
)
PAGES = [
    "/pegs",
    "/pegs/table?board=triangle-5",
    "/pegs/play?board=triangle-5&hole=1",
    "/pegs/play?board=english&hole=d4",
    "/codebreak/plan?game=mastermind&strategy=knuth&pegs=3&colours=4",
    "/codebreak/play?game=mastermind&maker=adversarial",
    "/codebreak/play?game=bulls-and-cows&maker=adversarial",
    "/aequitas/play?game=D&n=6&light=3",
]


def visible(page: str) -> str:
    """What a visitor reads: the text and the labels that are read out (no addresses, names or values, and no
    game ID: a code to copy)."""
    labels = " ".join(re.findall(r'(?:aria-label|data-stats-label|title|alt)="([^"]*)"', page))
    text = re.sub(r"<(script|style|code)[^>]*>.*?</\1>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", text) + " " + labels)


@pytest.mark.parametrize("path", PAGES)
def test_pages_name_things_for_people(client: FlaskClient, path: str) -> None:
    """No file name of a board, game or strategy in what the page says."""
    found = RAW.findall(visible(client.get(path).get_data(as_text=True)))
    assert not found, found


def test_computations_are_titled_for_people() -> None:
    """The progress pages' titles: 'Knuth's minimax strategy for Mastermind 4x6', 'the English board'."""
    assert CODEBREAK.title(codebreak_params("mastermind", (4, 6, None), "knuth")) == (
        "Knuth's minimax strategy for Mastermind 4x6"
    )
    assert GAME.title(game_params("bulls-and-cows", (4, 10, None))) == "the outcome table of Bulls and Cows 4x10"
    assert PEGS_TABLE.title(BoardParams("english")) == "the table of starts for the English board"
    assert PEGS_TABLE.title(BoardParams("triangle-5")) == "the table of starts for the triangle of 15 holes"
