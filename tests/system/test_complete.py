"""A fresh install is complete at once: `coin-puzzles serve` (nginx in front on a free port, gunicorn, the real
consumers, the precomputation queued and running) from an empty instance folder serves what the package ships
proved once its precomputation has stored it (about a minute, which no test times), and no request waits on a
search."""

from __future__ import annotations

import concurrent.futures
import re
import sqlite3
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.system.conftest import QUEUED_WITHIN, Served
from tests.waiting import until

JUDGED_OR_PROGRESS = r"<progress|was a best guess|in all over the"


def _get(url: str) -> tuple[int, str]:
    """Status and body of one GET."""
    with urllib.request.urlopen(url, timeout=30) as r:
        return r.status, r.read().decode()


@pytest.mark.slow
def test_a_fresh_site_shows_what_is_proved_and_stays_prompt(browser: Browser, serve: Callable[..., Served]) -> None:
    """Once a fresh site's precomputation has stored what is shipped (the wait's deadline, QUEUED_WITHIN, is no
    timing: under the load of four test processes it passed a minute): the optima table counts every certified size
    proved (4x9 and 5x6 at their certificates' totals); the English centre game's solution is proved (18 moves:
    Bergholt 1912, proved least by Beasley); a Bulls and Cows second guess is judged (its worth shipped); the Æquitas
    tables (1 MB of HTML to 40 coins, from a 59 MB result) were rendered by the consumer before anyone asked, so a
    visit reads its body from the store. Then four pages of third guesses (searched by jobs) asked at once with the
    home page each answer, with the guess judged or the quick lane's progress, never an error (how long they take is
    measured by benchmarks/guess_cost.py, not here)."""
    from webapp.jobs.shipped import certificates, shipped_keys

    app = serve(COIN_PUZZLES_PRECOMPUTE="1", JOB_WORKERS="2", PRECOMPUTE_WORKERS="2")
    assert "nginx not found" not in app.output()  # nginx in front, as make run serves
    out = app.output()  # what is shipped stored before gunicorn listens: no request checks and stores it itself
    before = re.search(r"coin-puzzles serve: (\d+) shipped results stored before the site listens", out)
    assert before is not None and 0 < int(before.group(1)) <= len(shipped_keys()), out[-3000:]  # the consumer,
    # started beside it, may store a few first
    assert before.end() < out.index("Listening at")
    until(lambda: "/aequitas/table?max=40 rendered (200)" in app.output(), QUEUED_WITHIN, "no heavy page was rendered")
    with sqlite3.connect(Path(app.log).parent / "instance" / "results.db") as db:
        bodies = [k for (k,) in db.execute("SELECT key FROM results WHERE key LIKE 'rendered:%:page:aequitas-table:%'")]
    assert sorted(k.rsplit(":", 1)[1] for k in bodies) == ["30", "40"], bodies
    status, table = _get(app.url + "/aequitas/table?max=40")
    assert status == 200 and table.count("<tr") > 40
    status, optima = _get(app.url + "/codebreak/optima")
    proved = re.search(r"(\d+) of (\d+) sizes", optima)
    assert status == 200 and proved is not None and int(proved.group(1)) >= 14, proved
    for (pegs, colours), kept in certificates().items():
        if (pegs, colours) in ((4, 9), (5, 6)):
            assert f"{kept.total:,}" in optima

    context = browser.new_context(viewport={"width": 390, "height": 800})
    page = context.new_page()
    page.goto(app.url + "/pegs/solution?board=english&hole=d4&finish=d4&fewest=1")
    expect(page.get_by_text("18 moves, the fewest possible")).to_be_visible(timeout=5_000)
    page.goto(app.url + "/codebreak/play?game=bulls-and-cows&maker=adversarial&moves=0123,4567")
    expect(page.locator("p.judgement")).to_contain_text(re.compile(r"was a best guess|in all over the"))
    expect(page.locator("progress")).to_have_count(0)
    page.screenshot(path="test-results/complete-bulls-and-cows.png", full_page=True)
    context.close()

    third = "/codebreak/play?game=bulls-and-cows&maker=adversarial&moves=0123,4567,"
    thirds = [third + g for g in ("8901", "8912", "8923", "8934")]
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        heavy = [pool.submit(_get, app.url + path) for path in thirds]
        time.sleep(0.1)  # the heavy pages asked first
        home = pool.submit(_get, app.url + "/").result()
        answers = [f.result() for f in heavy]
    assert home[0] == 200
    # each heavy page answers with the guess judged or the quick lane's progress (its job not done within the
    # request's wait, `QUICK_WAIT_SECONDS`)
    assert all(status == 200 and re.search(JUDGED_OR_PROGRESS, body) for status, body in answers), [
        (status, body[:300]) for status, body in answers
    ]
