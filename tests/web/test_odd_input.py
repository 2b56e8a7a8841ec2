"""Odd input answered with a clear 4xx, never a 500: digits of other scripts in the undo fields of every play
route (`str.isdigit` took a superscript two, which `int` then refused), and addresses past the longest the site
answers (414, not nginx's 502: tests/system/test_whole_pages.py takes the same paths through nginx)."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from solvers.numbers import whole_number
from webapp.http.errors import MAX_URL

PLAYS = [
    "/coins/plan?n=12&path=L",
    "/adversary/play?n=12&w=",
    "/aequitas/play?game=F&n=5",
    "/devil/play?n=4&moves=1",
    "/pegs/play?board=english&hole=d4&j=d2-d4",
    "/codebreak/play?game=mastermind&maker=adversarial&g=ABCD",
    "/codebreak/play?game=bulls-and-cows&maker=adversarial&g=ABCD",
    "/variants/play?n=12&weight=unknown",
]
ODD = ["%C2%B2", "%C2%B3", "%D9%A3", "%EF%BC%91", "1%C2%B2", "-1", "1e3", "0x1"]  # ², ³, Arabic-Indic 3, fullwidth 1


@pytest.mark.parametrize("path", PLAYS)
@pytest.mark.parametrize("field", ["u", "at"])
def test_other_digits_in_the_undo_fields_are_refused(client: FlaskClient, path: str, field: str) -> None:
    """Each odd value in u or at: a 400 that names the field (or, where the route has no such field, the page)."""
    for value in ODD:
        response = client.get(f"{path}&{field}={value}")
        assert response.status_code in (200, 400), (path, field, value, response.status_code)
        if response.status_code == 400:
            assert "whole number" in response.get_data(as_text=True)


def test_whole_numbers_are_ascii_digits_only() -> None:
    """The one parser: ASCII digits (spaces around allowed), nothing else."""
    assert [whole_number(t) for t in ("0", " 12 ", "007", "123456789")] == [0, 12, 7, 123456789]
    for text in ("", " ", "²", "1²", "٣", "１", "-1", "+1", "1.0", "1e3", "0x1", "1 2", "1234567890"):
        assert whole_number(text) is None, text


def test_an_address_past_the_longest_gets_414(client: FlaskClient) -> None:
    """One character past MAX_URL: 414 with the one error shape, on a page and on the API."""
    path = "/codebreak/play?game=mastermind&maker=adversarial&g=ABCD&x="
    ok = client.get(path + "a" * (MAX_URL - len(path)))
    assert ok.status_code == 200
    long = client.get(path + "a" * (MAX_URL - len(path) + 1))
    assert long.status_code == 414 and "longer than the 4,000 characters" in long.get_data(as_text=True)
    api = client.get("/api/coins?n=12&x=" + "a" * MAX_URL)
    assert api.status_code == 414 and api.get_json()["error"]
