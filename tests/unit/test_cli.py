"""The command line: JSON like the API, errors on stderr with exit status 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from tests.conftest import TEST_KEY
from webapp.commands.cli import main


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


# Every subcommand: --json prints exactly the API's object; the text names the same figures.
OPTIMAL_2X4 = ["codebreak", "mastermind", "--pegs", "2", "--colours", "4", "--strategy", "optimal-average"]
SAME_AS_API = [
    (["adversary", "12", "--weighings", "1,2,3,4-5,6,7,8", "--json"], "/api/adversary?n=12&w=1,2,3,4-5,6,7,8"),
    (["aequitas", "--game", "F", "--coins", "5", "--misere", "--json"], "/api/aequitas?game=F&coins=5&misere=1"),
    (
        ["aequitas", "--game", "D", "--coins", "4", "--light", "2", "--fake", "heavy", "--json"],
        "/api/aequitas?game=D&coins=4&light=2&fake=heavy",
    ),
    (["aequitas", "--table", "--max-coins", "4", "--json"], "/api/aequitas?table=1&max_coins=4"),
    (
        ["aequitas", "--table", "--max-coins", "4", "--certificates", "--json"],
        "/api/aequitas?table=1&max_coins=4&certificates=1",
    ),
    (["devil", "4", "--moves", "--json"], "/api/devil?n=4&moves=1"),
    (["devil", "3", "--json"], "/api/devil?n=3"),
    (
        ["pegs", "--board", "triangle-5", "--hole", "1", "--count", "--json"],
        "/api/pegs?board=triangle-5&hole=1&count=1",
    ),
    (
        ["pegs", "--board", "triangle-5", "--hole", "1", "--finish", "start", "--json"],
        "/api/pegs?board=triangle-5&hole=1&finish=start",
    ),
    (
        [*OPTIMAL_2X4, "--tree", "--json"],
        "/api/codebreak?game=mastermind&pegs=2&colours=4&strategy=optimal-average&tree=1",
    ),
    (
        [
            "codebreak",
            "mastermind",
            "--pegs",
            "3",
            "--colours",
            "3",
            "--strategy",
            "optimal-average",
            "--max-guesses",
            "4",
            "--json",
        ],
        "/api/codebreak?game=mastermind&pegs=3&colours=3&strategy=optimal-average&max_guesses=4",
    ),
    (
        ["codebreak", "mastermind", "--pegs", "3", "--colours", "3", "--strategy", "optimal-worst", "--possible-only"]
        + ["--json"],
        "/api/codebreak?game=mastermind&pegs=3&colours=3&strategy=optimal-worst&possible_only=1",
    ),
]


@pytest.mark.parametrize(("argv", "url"), SAME_AS_API)
def test_json_matches_api(argv: list[str], url: str, capsys: pytest.CaptureFixture[str], client: FlaskClient) -> None:
    """Each subcommand's --json output is the API's object, field for field."""
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out) == client.get(url).get_json()


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["adversary", "12", "--weighings", "1,2,3,4-5,6,7,8"], "cases left: 8; weighings left: 2"),
        (["aequitas", "--table", "--max-coins", "3"], "normal: "),
        (["aequitas", "--game", "F", "--coins", "5"], "F with 5 coins (normal): Grundy value"),
        (["devil", "4", "--moves"], "4 coins: a sure win in 15 moves"),
        (["devil", "6"], "6 coins: no sure win."),
        (["pegs", "--board", "triangle-5", "--hole", "1", "--count"], "jump sequences that solve it: 29,760"),
        (["codebreak", "mastermind", "--pegs", "2", "--colours", "4", "--dot"], "digraph"),
    ],
)
def test_text_output(argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Each subcommand's plain output says its answer (pegs --count prints the count too)."""
    assert main(argv) == 0
    assert expected in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv",
    [
        ["weigh", "\u00b2"],
        ["devil", "\u00b3"],
        ["devil", "17"],
        ["adversary", "12", "--weighings", "1-1"],
        ["adversary", "12", "--weighings", "1,2-3"],
        ["adversary", "12", "--budget", "99"],
        ["aequitas", "--game", "D", "--coins", "4", "--light", "0", "--fake", "light"],
        ["aequitas", "--table", "--max-coins", "99"],
        ["pegs", "--board", "hexagon", "--hole", "1"],
        ["pegs", "--board", "english", "--hole", "d4", "--count"],
        ["pegs", "--board", "triangle-4", "--position", "zz"],
        ["pegs", "--board", "triangle-4"],
        ["pegs", "--board", "triangle-4", "--hole", "2", "--finish", "centre"],
        ["pegs", "--board", "triangle-4", "--position", "3fe", "--finish", "start"],
        ["pegs", "--board", "triangle-4", "--hole", "2", "--finish", "zz"],
        ["codebreak", "no-such-game"],
        ["codebreak", "bulls-and-cows", "--pegs", "5", "--strategy", "optimal-average"],
        ["optima", "--compute-up-to", "many"],
        [
            "codebreak",
            "mastermind",
            "--pegs",
            "2",
            "--colours",
            "4",
            "--strategy",
            "optimal-average",
            "--max-guesses",
            "3",
        ],
        ["codebreak", "mastermind", "--pegs", "2", "--colours", "4", "--max-guesses", "5"],
        ["codebreak", "counterfeit-coin", "--coins", "4", "--strategy", "optimal-worst", "--possible-only"],
        ["codebreak", "mastermind", "--pegs", "2", "--colours", "4", "--possible-only"],
    ],
)
def test_every_subcommand_refuses_bad_input_with_status_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Bad input to any subcommand: one line on stderr, exit status 2, no traceback."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("coin-puzzles: error:") and "Traceback" not in err and err.count("\n") == 1


def test_codebreak_prints_a_stored_strategy(
    capsys: pytest.CaptureFixture[str], client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the result store holds a strategy of a large game (as `make run` leaves Mastermind's proved optimal
    trees), the CLI prints it without searching again: the same fields as the API, `proved` included. (A game of
    16 secrets counts as large here; below the threshold the store is not opened: the next test.)"""
    import webapp.commands.cli
    import webapp.results.games

    monkeypatch.setattr(webapp.commands.cli, "STORED_FROM_SECRETS", 16)

    url = "/api/codebreak?game=mastermind&pegs=2&colours=4&strategy=optimal-worst"
    api = client.get(url).get_json()  # the app computes it and puts it in the store the CLI reads

    def searched_again(*args: object) -> None:
        raise AssertionError("the CLI searched instead of reading the store")

    monkeypatch.setattr(webapp.results.games, "analysis", searched_again)
    argv = ["codebreak", "mastermind", "--pegs", "2", "--colours", "4", "--strategy", "optimal-worst", "--json"]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out) == api and api["proved"] is True


def test_small_codebreak_games_are_computed_without_the_store(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, client: FlaskClient
) -> None:
    """A game under STORED_FROM_SECRETS secrets is solved at once, the store never opened: the API's answer."""
    import webapp.commands.cli

    def opened(*args: object) -> None:
        raise AssertionError("the CLI opened the store for a small game")

    monkeypatch.setattr(webapp.commands.cli, "_stored_tree", opened)
    argv = ["codebreak", "mastermind", "--pegs", "3", "--colours", "4", "--strategy", "optimal-average", "--json"]
    assert main(argv) == 0
    api = client.get("/api/codebreak?game=mastermind&pegs=3&colours=4&strategy=optimal-average").get_json()
    assert json.loads(capsys.readouterr().out) == api and api["proved"] is True


@pytest.mark.parametrize(
    ("flags", "query"),
    [(["--lies", "1"], "lies=1"), (["--fakes", "2"], "fakes=2"), (["--pans", "3"], "pans=3")],
)
def test_weigh_variants_json_matches_api(
    capsys: pytest.CaptureFixture[str], client: FlaskClient, flags: list[str], query: str
) -> None:
    """`coin-puzzles weigh 12 --lies 1 --tree --json` (and --fakes 2, --pans 3) prints what /api/coins gives."""
    assert main(["weigh", "12", *flags, "--tree", "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    assert cli == client.get(f"/api/coins?n=12&{query}&tree=1").get_json()
    assert cli["verified"] is True and cli["proved"] is True and "tree" in cli


@pytest.mark.parametrize(
    "argv",
    [
        ["weigh", "12", "--lies", "1", "--pans", "3"],
        ["weigh", "12", "--fakes", "2", "--lies", "1"],
        ["weigh", "12", "--lies", "3"],
        ["weigh", "12", "--pans", "x"],
        ["weigh", "101", "--fakes", "2"],
        ["weigh", "12", "--lies", "1", "--goal", "find"],
        ["weigh", "12", "--pans", "3", "--objective", "average"],
    ],
)
def test_weigh_variants_bad_combinations_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    """Combinations that are not offered: a one-line message on stderr and exit status 2."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("coin-puzzles: error:") and "Traceback" not in err


def test_optima_table_reads_the_store_as_the_api_does(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`coin-puzzles optima --json` is the API's table field for field: sizes the app has proved (and stored) or
    that the package certifies are rows with totals, the rest say what they wait for; with --compute-up-to the small
    ones are proved here.
    (A store of its own: other tests prove sizes in the shared one.)"""
    from webapp import create_app

    monkeypatch.setenv("COIN_PUZZLES_INSTANCE", str(tmp_path))
    client = create_app({"TESTING": True, "SECRET_KEY": TEST_KEY}).test_client()
    for pegs, colours in ((2, 2), (2, 3)):
        for strategy in ("optimal-average", "optimal-worst"):
            url = f"/api/codebreak?game=mastermind&pegs={pegs}&colours={colours}&strategy={strategy}"
            assert client.get(url).status_code == 200
    assert main(["optima", "--json", "--compute-up-to", "0"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert table == client.get("/api/codebreak/optima").get_json()
    rows = {(r["pegs"], r["colours"]): r for r in table["rows"]}
    two_three = rows[2, 3]  # Goddard: 2.333, so 21 over 9 secrets
    assert two_three["total"] == 21 and two_three["agrees"] is True
    assert two_three["optimal_worst"] <= two_three["worst_of_average"]
    assert rows[3, 2]["state"] == "pending" and rows[3, 2]["total"] is None
    assert main(["optima", "--compute-up-to", "8"]) == 0
    text = capsys.readouterr().out
    assert "3x2 (8 secrets): total 18, average 2.250000" in text and "agrees with 2.250" in text
    assert "4x4 (256 secrets): not proved yet" in text
    # a certified size is proved from its certificate, stored or not: Koyama and Lai's 5,625
    assert "4x6 (1,296 secrets): total 5,625" in text and "agrees with 5,625" in text


def test_super_mastermind_possible_only_points_to_precompute(capsys: pytest.CaptureFixture[str]) -> None:
    """Super Mastermind's optimum guessing possible codes only (hours) is read from the store once `coin-puzzles
    precompute` has put it there; before that the command says so at once (exit status 2), instead of searching."""
    assert main(["codebreak", "super-mastermind", "--strategy", "optimal-average", "--possible-only"]) == 2
    assert "coin-puzzles precompute` stores it" in capsys.readouterr().err


def test_certify_writes_a_certificate_the_checker_accepts(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`coin-puzzles certify` proves a size and writes its certificate, which the independent checker accepts
    (Goddard 2004: Mastermind 3x4 averages 3.219, 206 / 64); bad sizes and file names are exit status 2."""
    import numpy as np

    from tests.certify.checker import check

    out = tmp_path / "c.npz"
    assert main(["certify", "--pegs", "3", "--colours", "4", "--out", str(out)]) == 0
    assert "optimal total 206" in capsys.readouterr().out
    with np.load(out) as f:
        cert = dict(f)
    assert check(cert) >= 1 and int(cert["total"]) == 206
    for bad in (
        ["--pegs", "3", "--colours", "27"],
        ["--pegs", "4", "--colours", "12"],
        ["--pegs", "x", "--colours", "4"],
    ):
        assert main(["certify", *bad, "--out", str(out)]) == 2
    assert main(["certify", "--pegs", "3", "--colours", "4", "--out", str(tmp_path / "c.txt")]) == 2
    assert "error" in capsys.readouterr().err


def test_a_reader_that_stops_early_gets_no_traceback() -> None:
    """`coin-puzzles ... | head -1`: the command stops quietly when its reader goes away (no BrokenPipeError
    traceback on stderr)."""
    import subprocess
    import sys

    command = [sys.executable, "-m", "webapp.commands.cli", "weigh", "1000", "--tree", "--json"]  # 0.9 MB of JSON
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        assert proc.stdout.readline().strip() == b"{"
        proc.stdout.close()  # the reader goes away with most of the tree unread
        err = proc.stderr.read().decode()
        proc.wait(timeout=60)
    assert "Traceback" not in err and "BrokenPipe" not in err, err
