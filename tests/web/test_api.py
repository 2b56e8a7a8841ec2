"""The JSON API: field names, tree shape, bad input as JSON errors."""

from __future__ import annotations

import json
from urllib.parse import parse_qsl, urlsplit

import numpy as np
import pytest
from flask.testing import FlaskClient

FIELDS = {
    "coins",
    "weight",
    "goal",
    "extra",
    "maybe_none",
    "solvable",
    "reason",
    "weighings",
    "lower_bound",
    "average",
    "verified",
}


def test_fields(client: FlaskClient) -> None:
    """All documented fields are present with their types."""
    data = client.get("/api/coins?n=13").get_json()
    assert set(data) >= FIELDS
    assert data["coins"] == 13 and data["weighings"] == 4 and data["lower_bound"] == 3
    assert data["verified"] is True and data["solvable"] is True and data["reason"] is None
    assert "/" in data["average"]


def test_average_objective(client: FlaskClient) -> None:
    """The average-optimal plan reports a smaller or equal average, and its own worst case."""
    worst = client.get("/api/coins?n=13").get_json()
    avg = client.get("/api/coins?n=13&objective=average").get_json()
    a_w, a_a = (int(x) for x in worst["average"].split("/"))
    b_w, b_a = (int(x) for x in avg["average"].split("/"))
    assert b_w * a_a <= a_w * b_a and avg["plan_worst"] >= avg["weighings"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("n=4&extra=1&maybe_none=1", {"coin", "none"}),
        ("n=5&extra=1&maybe_none=1", {"coin", "none", "impossible"}),
    ],
)
def test_tree_leaves(client: FlaskClient, query: str, expected: set[str]) -> None:
    """Tree nodes have left/right/outcomes; leaves are coin+weight, coin null, or impossible."""
    data = client.get(f"/api/coins?{query}&tree=1").get_json()
    kinds = set()

    def walk(node: dict[str, object]) -> None:
        if "outcomes" in node:
            assert set(node) == {"left", "right", "outcomes"}
            outs = node["outcomes"]
            assert isinstance(outs, dict) and set(outs) == {"left-heavier", "balance", "right-heavier"}
            for kid in outs.values():
                walk(kid)
        elif node.get("impossible"):
            kinds.add("impossible")
        elif node["coin"] is None:
            kinds.add("none")
        else:
            assert node["weight"] in ("heavier", "lighter")
            kinds.add("coin")

    walk(data["tree"])
    assert kinds == expected


def test_extra_coins_are_named_g1(client: FlaskClient) -> None:
    """13 coins with one extra genuine coin: the plan puts G1 on a pan."""
    data = client.get("/api/coins?n=13&extra=1&tree=1").get_json()
    assert data["weighings"] == 3 and "'G1'" in str(data["tree"])


def test_scheme(client: FlaskClient) -> None:
    """scheme=1 adds the fixed weighings and the decoding table."""
    data = client.get("/api/coins?n=12&scheme=1").get_json()
    assert len(data["scheme"]["weighings"]) == 3 and len(data["scheme"]["table"]) == 24


def test_impossible(client: FlaskClient) -> None:
    """An impossible problem is a 200 with solvable false and the reason."""
    data = client.get("/api/coins?n=2").get_json()
    assert data["solvable"] is False and data["weighings"] is None and data["reason"]


COINS = "The number of coins (n) must be a whole number from 1 to 1,000,000"


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("n=0", COINS),
        ("n=x", COINS),
        ("n=1000001", COINS),
        ("n=12&weight=q", "weight must be one of: unknown, lighter, heavier"),
        ("n=1001&tree=1", "full trees are only built for up to 1,000 coins"),
        ("n=12&tree=maybe", "tree must be 1 or 0"),
        ("n=101&objective=average", "the average-optimal plan is offered for up to 100 coins"),
    ],
)
def test_bad_input_is_json_400(client: FlaskClient, query: str, message: str) -> None:
    """Bad input: {"error": ..., "detail": ...} with status 400, the error naming what is wrong."""
    r = client.get("/api/coins?" + query)
    assert r.status_code == 400 and set(r.get_json()) == {"error", "detail"}
    assert r.get_json()["error"] == message


def test_million_coins_is_fast_and_small(client: FlaskClient) -> None:
    """N = 1,000,000 answers without building the tree."""
    data = client.get("/api/coins?n=1000000").get_json()
    assert data["weighings"] == 14 and data["verified"] is True and "tree" not in data


def test_certified_sizes_past_the_table_are_listed(client: FlaskClient) -> None:
    """Every kept certificate of a size past the table's games (more than 10 colours, or more secrets) is listed after
    the table, in the page and the API alike: its total (the certificate's, which the site's own replay of its tree
    reaches), "new", its download, and when it was made and what it cost where recorded; a size make frontier
    proved and no certificate covers, at its kept tree's total and its runs' CPU, marked "not certified yet"."""
    from webapp.config import CERTIFICATES
    from webapp.jobs.shipped import MADE, certificates, frontier_runs, frontier_sizes, frontier_tree

    past = {size: kept for size, kept in certificates().items() if size[1] > 9 or size[1] ** size[0] > 8000}
    assert {(3, 10), (3, 11), (3, 12), (3, 13), (3, 14)} <= set(past)
    rows = client.get("/api/codebreak/optima").get_json()["beyond"]
    certified = [r for r in rows if r["certificate"]]
    assert {(r["pegs"], r["colours"]): r["total"] for r in certified} == {size: k.total for size, k in past.items()}
    made = json.loads(MADE.read_text())
    assert set(made) == {p.name for p in CERTIFICATES.glob("*.npz")}  # each certificate says when it was made
    for r in certified:
        assert r["new"] and r["certificate"] == f"mastermind-{r['pegs']}x{r['colours']}.npz"
        assert r["certified_on"] == made[r["certificate"]]["made"]
        assert r["check_cpu_seconds"] == made[r["certificate"]].get("check_cpu_seconds")
    proved = [r for r in rows if not r["certificate"]]
    assert {(r["pegs"], r["colours"]) for r in proved} == set(frontier_sizes()) - set(certificates())
    for r in proved:
        with np.load(frontier_tree(r["pegs"], r["colours"]) or "") as f:
            assert r["total"] == int(f["total"]) and r["certified_on"] is None and "not certified yet" in r["note"]
        assert r["proof_cpu_seconds"] == frontier_runs(r["pegs"], r["colours"])[0]
    html = client.get("/codebreak/optima").get_data(as_text=True)
    section = html[html.index('id="beyond"') :]
    assert "17,544" in section and "/codebreak/optima/certificates/mastermind-3x14.npz" in section
    assert section.count("<strong>new</strong>") == len(rows)
    assert section.count("not certified yet") == len(proved) and section.count("not checked") == len(proved)


@pytest.mark.parametrize(
    "path",
    [
        "/api/coins?n=12",
        "/api/coins?n=12&lies=1",
        "/api/adversary?n=12",
        "/api/aequitas?game=F&coins=4",
        "/api/aequitas?table=1&max_coins=6",
        "/api/codebreak?game=mastermind&pegs=2&colours=3",
        "/api/codebreak/optima",
        "/api/devil?n=4",
        "/api/pegs?board=triangle-4&hole=2",
        "/api/variants/table?weight=heavier",  # (quick: a table with lies is a job of half a minute)
    ],
)
def test_a_misspelt_parameter_is_refused_not_ignored(client: FlaskClient, path: str) -> None:
    """An API answer given a parameter it does not take (colors for colours) says so with a 400 that names it and
    the ones it takes, instead of answering as if the parameter had not been given; without it, it answers. One
    given twice (n=12&n=12) is refused too (the first counted, the other dropped silently, before)."""
    assert client.get(path).status_code in (200, 202)
    r = client.get(path + ("&" if "?" in path else "?") + "colors=8&zzz=1")
    assert r.status_code == 400
    said = r.get_json()
    assert said["error"].startswith(f"unknown parameter 'colors': {path.split('?')[0]} takes ")
    assert said["detail"] == ["colors", "zzz"]
    named = set(said["error"].split(" takes ")[1].split(", "))
    assert {key for key, _ in parse_qsl(urlsplit(path).query)} <= named
    if "?" in path:  # a parameter given twice: which one counts is not guessed
        key, value = parse_qsl(urlsplit(path).query)[0]
        twice = client.get(f"{path}&{key}={value}")
        assert twice.status_code == 400 and twice.get_json()["error"] == f"parameter {key!r} is given more than once"


def test_the_fuzzed_parameters_are_those_the_api_takes(client: FlaskClient) -> None:
    """The parameters tests/web/test_fuzz.py sends each API answer are among those it takes (`params.takes`, read
    from the view), and the moves given under both their names are refused, not one of them dropped."""
    from tests.web.test_fuzz import ROUTES

    views = {
        rule.rule: client.application.view_functions[rule.endpoint] for rule in client.application.url_map.iter_rules()
    }
    for path, names in ROUTES.items():
        if path.startswith("/api/"):
            assert set(names) <= set(views[path].takes), path  # type: ignore[attr-defined]
    both = client.get("/api/adversary?n=12&moves=1-2&w=3-4")
    assert both.status_code == 400 and "not both" in both.get_json()["error"]
