"""One error family: every solver error becomes a 4xx with the JSON error shape, and exit status 2 in the CLI."""

from __future__ import annotations

import argparse
import dataclasses

import pytest
from flask import Flask
from flask.testing import FlaskClient
from markupsafe import escape

import solvers.aequitas.report
import solvers.codebreak.play
import solvers.devil.play
import solvers.pegs.play
import solvers.weighing.report  # noqa: F401 - import every module that may define an error
from solvers.errors import PuzzleError
from webapp import create_app
from webapp.commands import cli


def every_error() -> list[type[PuzzleError]]:
    """PuzzleError and every subclass defined anywhere in the solvers."""
    found: list[type[PuzzleError]] = [PuzzleError]
    for cls in found:
        found += cls.__subclasses__()
    return found


def test_the_family_has_its_three_children() -> None:
    """InputError, LimitError and IllegalMoveError are all PuzzleErrors and ValueErrors."""
    names = {cls.__name__ for cls in every_error()}
    assert {"InputError", "LimitError", "IllegalMoveError"} <= names
    assert all(issubclass(cls, ValueError) for cls in every_error())


@pytest.mark.parametrize("error", every_error(), ids=lambda cls: cls.__name__)
def test_every_solver_error_is_a_4xx(error: type[PuzzleError]) -> None:
    """A page or API view that lets any solver error escape answers 4xx with its message, never 500."""
    app: Flask = create_app({"TESTING": True, "SECRET_KEY": "x"})

    @app.get("/api/raise")
    def api_raise() -> str:
        raise error("a message for people", {"n": "12"})

    @app.get("/raise")
    def page_raise() -> str:
        raise error("a message for people")

    client = app.test_client()
    r = client.get("/api/raise")
    assert 400 <= r.status_code < 500
    assert r.get_json() == {"error": "a message for people", "detail": {"n": "12"}}
    page = client.get("/raise")
    assert 400 <= page.status_code < 500 and "a message for people" in page.get_data(as_text=True)


@pytest.mark.parametrize("error", every_error(), ids=lambda cls: cls.__name__)
def test_every_solver_error_is_exit_status_2(
    error: type[PuzzleError], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A subcommand that lets any solver error escape exits 2 with the message on stderr."""

    def refuse(args: argparse.Namespace) -> object:
        raise error("a message for people")

    monkeypatch.setitem(cli.COMMANDS, "devil", dataclasses.replace(cli.COMMANDS["devil"], run=refuse))
    assert cli.main(["devil", "4"]) == 2
    assert capsys.readouterr().err == "coin-puzzles: error: a message for people\n"


@pytest.mark.parametrize(
    ("path", "back"),
    [
        ("/pegs/solution?board=nowhere", ("/pegs", "The peg board")),
        ("/codebreak/plan?game=nosuchgame", ("/codebreak", "Code-breaking games")),
        ("/devil/play?n=99", ("/devil", "The Devil's blindfold game")),
        ("/variants/plan?n=abc", ("/variants", "Weighing variants")),
    ],
)
def test_an_error_page_links_back_to_its_puzzle(client: FlaskClient, path: str, back: tuple[str, str]) -> None:
    """A refused page offers the way back to the puzzle the visitor was on, not to another puzzle's page."""
    response = client.get(path)
    assert 400 <= response.status_code < 500
    page = response.get_data(as_text=True)
    address, name = back
    assert f'href="{address}">Back to {escape(name)}</a>' in page
    assert "Counterfeit-coin planner" not in page


def test_an_error_outside_any_puzzle_links_home_only(client: FlaskClient) -> None:
    """A page that belongs to no puzzle links to the list of puzzles."""
    page = client.get("/no-such-page").get_data(as_text=True)
    assert "All the puzzles" in page and "Back to " not in page
