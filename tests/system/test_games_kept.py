"""Players' games are not cache (issue 74's M1), against the app as `make run` starts it (nginx, gunicorn, the real
consumers): strangers flooding the store with results past its budget evict no game, and every move made
meanwhile is taken. The fixture fails the test if the server's log holds a traceback."""

from __future__ import annotations

import sqlite3
import urllib.error
import urllib.parse
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.system.conftest import Served
from tests.system.test_queue_faults import ask, honest_game

pytestmark = pytest.mark.slow

FLOOD = [  # results the site does not list: visitors', up to an eighth of a 1 MB budget each (or refused)
    f"/api/aequitas?table=1&max_coins={coins}&certificates={c}" for coins in range(3, 13) for c in (0, 1)
] + [
    f"/api/codebreak?game={g}&pegs={p}&colours={k}&strategy={s}"
    for g in ("mastermind", "mastermind-black")
    for p, k in ((2, 6), (2, 7), (2, 8), (2, 9), (2, 10), (3, 4), (3, 5), (3, 6), (3, 7), (4, 3), (4, 4), (4, 5))
    for s in ("knuth", "expected", "entropy", "parts", "optimal-worst", "optimal-average")
]


def _classes(app: Served) -> dict[int, tuple[int, int]]:
    """(entries, bytes) of each class of the served store's entries (0 visitors', 1 kept, 2 games)."""
    with sqlite3.connect(Path(app.log).parent / "instance" / "results.db") as db:
        rows = db.execute("SELECT kept, count(*), sum(size) FROM results GROUP BY kept").fetchall()
    return {int(k): (int(n), int(b)) for k, n, b in rows}


def test_strangers_flooding_the_store_evict_no_game(serve: Callable[..., Served]) -> None:
    """30 honest-scale games started, then, under a 1 MB budget, 164 results of strangers (several MB: the
    budget evicts many times over) asked from other addresses while each game makes a move and is viewed: every move
    is taken (no "not kept", no "moved on"), all 30 games are still held, and the visitors' results stayed within
    their budget. Before games had their own budget, the same flood evicted every game."""
    app = serve(COIN_PUZZLES_STORE_BUDGET_MB="1")
    games = [honest_game(app.url) for _ in range(30)]
    assert _classes(app)[2][0] == 30
    moves: list[tuple[int, str]] = []
    flooded: list[int] = []

    def flood() -> None:
        for i, path in enumerate(FLOOD):
            flooded.append(ask(app.url, path, f"127.0.4.{i % 40 + 1}")[0])

    def play(k: int) -> str:
        browser, csrf, game = games[k]
        query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(game).query))
        form = urllib.parse.urlencode({**query, "csrf_token": csrf, "c1": "left", "c2": "right"}).encode()
        try:
            with browser.open(app.url + "/adversary/weigh", data=form, timeout=60) as r:
                moves.append((r.status, r.geturl()))
                return r.geturl()
        except urllib.error.HTTPError as e:
            moves.append((e.code, e.read().decode()[-300:]))
            return game

    with ThreadPoolExecutor(4) as pool:
        flooding = pool.submit(flood)
        latest = list(pool.map(play, range(30)))
        flooding.result()
    assert len(moves) == 30 and all(status == 200 for status, _ in moves), moves
    for (browser, _, _), url in zip(games, latest, strict=True):  # after the whole flood: each game still there
        with browser.open(url, timeout=60) as r:
            assert r.status == 200 and "Weigh" in r.read().decode()
    classes = _classes(app)
    assert classes[2][0] == 30, classes
    assert flooded.count(200) >= 30 and 0.8 * (1 << 20) < classes[0][1] <= 1 << 20, (flooded, classes)
