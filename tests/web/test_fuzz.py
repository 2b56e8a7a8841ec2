"""Malformed input never causes a 500: random query strings against every GET route (hypothesis)."""

from __future__ import annotations

import tempfile
from urllib.parse import urlencode

from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from webapp import create_app

FUZZ_STORE = f"sqlite:{tempfile.mkdtemp(prefix='coin-puzzles-fuzz-')}/results.db"  # its claims stay here


# heavy results are queued (no consumer runs here) instead of computed in-process: the fuzz stays quick
FORMS_CONFIG = {"TESTING": True, "WTF_CSRF_ENABLED": False, "RESULT_STORE": FUZZ_STORE, "JOBS_IMMEDIATE": False}
ROUTES = {
    "/coins/plan": ["n", "weight", "goal", "extra", "maybe_none", "objective", "path", "u", "at"],
    "/coins/tree": ["n", "weight", "goal", "extra", "maybe_none", "objective"],
    "/coins/scheme": ["n", "weight", "goal", "extra", "maybe_none"],
    "/api/coins": ["n", "weight", "goal", "extra", "maybe_none", "objective", "tree", "scheme"],
    "/adversary/play": ["n", "weight", "goal", "extra", "budget", "mode", "w", "hint", "guess", "t", "u", "at"],
    "/api/adversary": ["n", "weight", "goal", "extra", "budget", "w"],
    "/aequitas/play": ["game", "n", "light", "fake", "heavier", "extra", "conv", "first", "w", "hint", "u", "at"],
    "/api/aequitas": ["game", "coins", "light", "heavy", "fake", "misere", "extra", "convention"],
    "/devil/play": ["n", "devil", "goal", "reflections", "moves", "peek", "t", "u", "at"],
    "/devil/solution": ["n", "goal", "reflections", "step", "from"],
    "/api/devil": ["n", "goal", "reflections", "states", "moves"],
    "/pegs/play": ["board", "hole", "j", "sel", "hint", "u", "at"],
    "/pegs/solution": ["board", "hole", "step"],
    "/api/pegs": ["board", "hole", "position", "count"],
    "/codebreak/play": ["game", "maker", "pegs", "colours", "g", "hint", "t", "u", "at"],
    "/codebreak/plan": ["game", "strategy", "pegs", "colours", "coins", "path", "next"],
    "/api/codebreak": ["game", "strategy", "pegs", "colours", "coins"],
    "/codebreak/game": ["game", "pegs", "colours", "coins"],
    "/pegs/table": ["board"],
    "/variants/play": ["n", "weight", "lies", "fakes", "pans", "w", "u", "at"],
    "/aequitas/table": ["max"],
}
VALUES = st.one_of(
    st.sampled_from(
        [
            "",
            "0",
            "1",
            "2",
            "3",
            "4",
            "12",
            "-1",
            "999999999",
            "abc",
            "L",
            "LBR",
            "1-2",
            "1,2-3,4",
            "G1",
            "a1",
            "d4",
            "triangle-4",
            "english",
            "D",
            "F",
            "FI",
            "knuth",
            "optimal-average",
            "mastermind",
            "AABB",
            "0B0W",
            "normal",
            "honest",
            "random",
            "adversarial",
            "ff",
            "%",
            "1h",
            "\u00b2",
            "\u00b3",
            "\u0663",
            "\uff11\uff12",
            "5",
            "6",
            "10",
            "bulls-and-cows",
            "1..333",
        ]
    ),
    st.text(max_size=12),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(ROUTES)), st.data())
def test_no_server_errors(route: str, data: st.DataObject) -> None:
    """Any combination of known parameters with junk values answers below 500."""
    client: FlaskClient = create_app(
        {"TESTING": True, "RESULT_STORE": FUZZ_STORE, "JOBS_IMMEDIATE": False}
    ).test_client()
    names = data.draw(st.lists(st.sampled_from(ROUTES[route]), unique=True, max_size=len(ROUTES[route])))
    query = {name: data.draw(VALUES) for name in names}
    response = client.get(route + "?" + urlencode(query))
    response.close()
    assert response.status_code < 500, (route, query)


POSTS = {
    "/coins": ["n", "weight", "goal", "extra", "maybe_none", "objective"],
    "/adversary": ["n", "weight", "goal", "extra", "budget", "mode"],
    "/adversary/weigh": ["n", "budget", "mode", "w", "c1", "c2", "c3", "cG1", "t"],
    "/adversary/guess": ["n", "budget", "w", "coin", "fake_is", "mode", "t"],
    "/aequitas": ["game", "n", "light", "fake", "heavier", "extra", "conv", "first"],
    "/aequitas/weigh": ["game", "n", "light", "fake", "extra", "conv", "w", "c1", "c2", "c3", "cG1"],
    "/devil": ["n", "devil", "goal", "reflections"],
    "/devil/flip": ["n", "devil", "moves", "place", "t"],
    "/codebreak/start": ["game", "maker", "pegs", "colours"],
    "/codebreak/guess": ["game", "maker", "pegs", "colours", "g", "p0", "p1", "p2", "p3"],
}


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(POSTS)), st.data())
def test_no_server_errors_on_forms(route: str, data: st.DataObject) -> None:
    """Forms with junk fields (CSRF switched off for the fuzz) answer below 500."""
    client = create_app(FORMS_CONFIG).test_client()
    names = data.draw(st.lists(st.sampled_from(POSTS[route]), unique=True, max_size=len(POSTS[route])))
    form = {name: data.draw(VALUES) for name in names}
    response = client.post(route, data=form)
    response.close()
    assert response.status_code < 500, (route, form)
