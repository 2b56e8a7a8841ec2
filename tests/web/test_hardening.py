"""Hostile input seen in a review: each once returned a 500 or a traceback; now a clear 4xx or exit status 2."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.web.forms import form_token, refusal
from webapp.commands.cli import main


@pytest.mark.parametrize("place", ["\u00b2", "\u0663", "\uff11", "1\u00b2"])
def test_superscript_and_foreign_digits_are_not_numbers(client: FlaskClient, place: str) -> None:
    """Digits that str.isdigit() accepts but are not ASCII: a 400, never a 500."""
    token = form_token(client, "/devil")
    r = client.post("/devil/flip", data={"csrf_token": token, "n": "4", "moves": "", "place": [place]})
    status, said = refusal(r)
    assert (status, said) == (400, "places are numbered 0 to 3")
    coins = "The number of coins (n) must be a whole number from 1 to 1,000,000"
    assert refusal(client.get(f"/coins/plan?n={place}")) == (400, coins)


@pytest.mark.parametrize("route", ["/api/codebreak", "/codebreak/game", "/codebreak/play", "/codebreak/plan"])
def test_bulls_and_cows_with_more_pegs_than_colours(client: FlaskClient, route: str) -> None:
    """Bulls and Cows (no repeated colours) with more pegs than colours has no codes: a clear 400."""
    r = client.get(f"{route}?game=bulls-and-cows&pegs=6&colours=5")
    assert refusal(r) == (400, "no codes: without repeated colours a code needs at least as many colours as pegs")


def test_method_not_allowed_says_which_methods(client: FlaskClient) -> None:
    """A 405 keeps the Allow header HTTP requires."""
    r = client.delete("/coins")
    assert r.status_code == 405 and set(r.headers["Allow"].split(", ")) >= {"GET", "POST"}


@pytest.mark.parametrize(
    "argv", [["weigh", "\u00b2"], ["devil", "\u00b3"], ["codebreak", "bulls-and-cows", "--pegs", "6", "--colours", "5"]]
)
def test_cli_refuses_without_traceback(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """The same input on the command line: exit status 2 and one line on stderr."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.startswith("coin-puzzles: error:")


SMALL = st.sampled_from(["", "0", "1", "3", "4", "8", "12", "-1", "x", "\u00b2", "\u0663", "999999999"])
ARGS = st.one_of(SMALL, st.text(max_size=8))
COMMANDS = {
    "weigh": ["--weight", "--goal", "--extra", "--objective"],
    "adversary": ["--budget", "--weighings", "--extra"],
    "aequitas": ["--game", "--coins", "--light", "--heavy", "--fake", "--convention", "--max-coins"],
    "devil": ["--goal", "--states"],
    "pegs": ["--board", "--hole", "--position"],
    "codebreak": ["--pegs", "--colours", "--coins", "--strategy"],
}


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(COMMANDS)), st.data())
def test_cli_fuzz_never_a_traceback(command: str, data: st.DataObject) -> None:
    """Any subcommand with junk arguments exits 0 or 2, never with an exception."""
    argv = [command]
    if command in ("weigh", "adversary", "devil"):
        argv.append(data.draw(SMALL))
    if command == "codebreak":
        argv.append(data.draw(st.sampled_from(["mastermind", "bulls-and-cows", "nope", "\u00b2"])))
    for option in data.draw(st.lists(st.sampled_from(COMMANDS[command]), unique=True)):
        argv += [option, data.draw(ARGS)]
    if command == "codebreak" and "--pegs" not in argv:
        argv += ["--pegs", "2"]
    assert main(argv) in (0, 2), argv


def test_session_cookie_is_httponly_and_samesite(client: FlaskClient) -> None:
    """The session cookie (it carries the CSRF token) is HttpOnly and SameSite=Lax; not Secure over plain HTTP."""
    cookie = client.get("/coins").headers.get("Set-Cookie", "")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie


def test_tls_adds_secure_cookies_and_hsts() -> None:
    """Behind TLS the cookie is Secure and every response carries HSTS."""
    from webapp import create_app

    client = create_app({"TESTING": True, "TLS": True}).test_client()
    r = client.get("/coins")
    assert "Secure" in r.headers.get("Set-Cookie", "") and "max-age=31536000" in r.headers["Strict-Transport-Security"]


def test_long_games_fit_in_their_urls(client: FlaskClient) -> None:
    """A 1,000-coin game on the page and a 10,000-coin game through the API, played to the end by following the
    solver's hints: every position's URL stays short (gunicorn refuses request lines over 4,094 bytes)."""
    from solvers.weighing import Problem
    from solvers.weighing.adversary import as_user, hint, replay
    from solvers.weighing.knowledge import format_weighings

    for n, base in (
        (1000, "/adversary/play?n=1000&weight=unknown&goal=identify&extra=0&maybe_none=0&mode=adversary"),
        (10_000, "/api/adversary?n=10000"),
    ):
        ws: list[tuple[tuple[int | str, ...], tuple[int | str, ...]]] = []
        longest = 0
        while True:
            r = replay(Problem(n), 60, ws)
            url = f"{base}&w={format_weighings(ws)}"
            longest = max(longest, len(url))
            assert client.get(url).status_code == 200, url[:200]
            h = hint(r)
            if h is None:
                break
            ws.append(as_user(h))
        assert r.coins.abstract().answers(False) == 1 and len(ws) == r.used
        assert longest < 1000, (n, longest)


def test_the_secret_key_file_is_private(tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without COIN_PUZZLES_SECRET the key is made in the instance folder with mode 0600 (and an older 0644 file
    is closed up)."""
    from pathlib import Path

    from webapp.config import secret_key

    folder = Path(str(tmp_path))
    monkeypatch.delenv("COIN_PUZZLES_SECRET")
    key = secret_key(folder)
    assert len(key) == 64 and (folder / "secret_key").stat().st_mode & 0o777 == 0o600
    (folder / "secret_key").chmod(0o644)
    assert secret_key(folder) == key and (folder / "secret_key").stat().st_mode & 0o777 == 0o600


def test_a_redirect_past_the_url_limit_is_a_400() -> None:
    """Whatever builds it, a redirect whose address passes MAX_URL is answered 400 saying so (nginx could not pass
    its Location on, and the site would refuse the address); a redirect within the limit is left alone."""
    from flask import redirect

    from tests.conftest import TEST_KEY
    from webapp import create_app
    from webapp.http.errors import MAX_URL
    from webapp.http.htmx import go

    app = create_app({"TESTING": True, "SECRET_KEY": TEST_KEY})
    app.add_url_rule("/_far", "far", lambda: redirect("/pegs?x=" + "a" * MAX_URL, 303))
    app.add_url_rule("/_near", "near", lambda: redirect("/pegs?x=a", 303))
    app.add_url_rule("/_far_htmx", "far_htmx", lambda: go("/pegs?x=" + "a" * MAX_URL))  # a boosted form's answer
    client = app.test_client()
    far = client.get("/_far")
    assert far.status_code == 400 and "Location" not in far.headers and "longer than the" in far.get_data(as_text=True)
    assert client.get("/_near").status_code == 303
    boosted = client.get("/_far_htmx", headers={"HX-Request": "true"})
    assert boosted.status_code == 400 and "HX-Location" not in boosted.headers


def test_a_code_guess_with_a_hint_count_too_long_is_refused(client: FlaskClient) -> None:
    """The code-breaking guess and take-back forms carry their hint count on only once checked (it went into the
    redirect as it came, 17,000 characters of it too long for nginx)."""
    token = form_token(client, "/codebreak")
    form = {"csrf_token": token, "game": "mastermind", "maker": "adversarial", "p0": "A", "p1": "B", "p2": "C"}
    form |= {"p3": "D", "h": "9" * 17_000}
    r = client.post("/codebreak/guess", data=form, headers={"HX-Request": "true"})
    assert r.status_code == 400 and "h must be a whole number" in r.get_data(as_text=True)
