"""Peg board pages and API."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient


def test_play_select_and_jump(client: FlaskClient) -> None:
    """Selecting a coin marks its targets as links; a jump extends the URL."""
    html = client.get("/pegs/play?board=triangle-4&hole=2&sel=7").get_data(as_text=True)
    assert 'aria-label="Jump to 2"' in html and "j=7-2" in html


def test_chain_counts_as_one_move(client: FlaskClient) -> None:
    """Consecutive jumps by the same coin count as one move."""
    html = client.get("/pegs/play?board=triangle-4&hole=2&j=7-2,1-4,9-7,7-2").get_data(as_text=True)
    assert "Moves: <strong>3</strong>" in html and "Jumps: <strong>4</strong>" in html


def test_hint_and_dead_end(client: FlaskClient) -> None:
    """The hint gives fewest moves left and the best move; a dead position is reported."""
    html = client.get("/pegs/play?board=triangle-4&hole=2&hint=1").get_data(as_text=True)
    assert "in 5 more moves at least" in html and "Best next move" in html
    dead = client.get("/pegs/play?board=triangle-4&hole=2&j=7-2,1-4,6-1,4-6,9-7,10-3,1-6").get_data(as_text=True)
    assert "Dead end: no jump is possible and 2 coins remain" in dead


def test_solution_and_table(client: FlaskClient) -> None:
    """The solution page steps through 5 moves; the table links every start to a game."""
    html = client.get("/pegs/solution?board=triangle-4&hole=2&step=5").get_data(as_text=True)
    assert "5 moves, the fewest possible" in html and "After move 5" in html
    table = client.get("/pegs/table?board=triangle-4").get_data(as_text=True)
    assert table.count("/pegs/play?board=triangle-4") == 10


@pytest.mark.parametrize(
    "query",
    [
        "board=x&hole=1",
        "board=triangle-4&hole=0",
        "board=triangle-4&hole=2&j=1-4",
        "board=triangle-4&hole=2&j=7",
        "board=triangle-4&hole=2&sel=2",
        "board=triangle-4&hole=2&sel=zz",
    ],
)
def test_bad_input(client: FlaskClient, query: str) -> None:
    """Illegal jumps and malformed URLs: a clear 400."""
    assert client.get("/pegs/play?" + query).status_code == 400


def test_api(client: FlaskClient) -> None:
    """The API's fields for the 10-hole board."""
    data = client.get("/api/pegs?board=triangle-4&hole=2&count=1").get_json()
    assert {"board", "hole", "solvable", "min_moves", "min_jumps", "finals", "solution", "solutions"} <= set(data)
    assert data["min_moves"] == 5 and data["min_jumps"] == 8 and data["solutions"] == 14
    assert data["finals"] == {"3": 5} and len(data["solution"]) == 5
    assert client.get("/api/pegs?board=english&hole=d4&count=1").status_code == 400


def test_unfinishable_start_says_so_at_once(client: FlaskClient) -> None:
    """triangle-4 without hole 1 (the natural first choice) cannot be solved: the page says so without a hint."""
    html = client.get("/pegs/play?board=triangle-4&hole=1").get_data(as_text=True)
    assert "This position cannot be finished" in html and "which starts can be solved" in html
    french = client.get("/pegs/play?board=french&hole=d4").get_data(as_text=True)
    assert "This position cannot be finished" in french and "class" in french


def test_solution_from_the_current_position(client: FlaskClient) -> None:
    """'Show a solution from here' continues the game in progress, not from the start."""
    play = client.get("/pegs/play?board=triangle-4&hole=2&j=7-2").get_data(as_text=True)
    assert "j=7-2" in play.split("Show a solution from here")[0].rsplit("href=", 1)[1]
    html = client.get("/pegs/solution?board=triangle-4&hole=2&j=7-2").get_data(as_text=True)
    assert "from move 1" in html and "4 moves" in html


def test_setup_starts_a_game_by_clicking_a_hole(client: FlaskClient) -> None:
    """The set-up page draws every board; each hole is a link that starts the game without it."""
    html = client.get("/pegs").get_data(as_text=True)
    assert 'aria-label="Start with hole d4 empty"' in html and "/pegs/play?board=english&amp;hole=d4" in html
