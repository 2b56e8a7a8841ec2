"""The command line: JSON like the API, errors on stderr with exit status 2."""

from __future__ import annotations

import json

import pytest
from flask.testing import FlaskClient

from webapp.cli import main


def test_weigh_json_matches_api(capsys: pytest.CaptureFixture[str], client: FlaskClient) -> None:
    """`coin-puzzles weigh 12 --tree --scheme --json` prints the same object as /api/coins."""
    assert main(["weigh", "12", "--tree", "--scheme", "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    api = client.get("/api/coins?n=12&tree=1&scheme=1").get_json()
    assert cli == api
    assert cli["weighings"] == 3 and cli["verified"] is True and cli["average"] == "3"


def test_weigh_text(capsys: pytest.CaptureFixture[str]) -> None:
    """Plain output names the minimum and the lower bound."""
    assert main(["weigh", "13"]) == 0
    out = capsys.readouterr().out
    assert "minimum weighings: 4 (lower bound 3)" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["weigh", "0"],
        ["weigh", "-4"],
        ["weigh", "abc"],
        ["weigh", "1000001"],
        ["weigh", "12", "--weight", "x"],
        ["weigh", "2000", "--tree"],
        ["weigh", "12", "--extra", "q"],
        ["weigh", "500", "--objective", "average"],
        [],
    ],
)
def test_bad_input_exits_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Bad input: a message on stderr and exit status 2."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("coin-puzzles: error:")


def test_impossible_is_not_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    """Two coins: a clear 'impossible' answer with its reason, exit 0."""
    assert main(["weigh", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["solvable"] is False and "two coins" in out["reason"]
