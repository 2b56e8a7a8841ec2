"""The store's budget for what visitors cause: past it, the least recently used visitors' results are evicted, what
the precomputation keeps is never touched, and players' games have a budget of their own that no result can take
(SQLite here; the same checks run on a real Redis in tests/system/test_jobs.py, and through nginx in
tests/system/test_limits.py)."""

from __future__ import annotations

import sqlite3
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

import pytest

from webapp.store import Budget, GamesFull, Signer, Store, TooLarge
from webapp.store import sqlite as store_sqlite
from webapp.store.sqlite import SqliteStore

SECRET = [b"unit-secret"]
BUDGET = 10_000


def kept(key: str) -> bool:
    """The stand-in for the site's list: keys under 'kept:'."""
    return key.startswith("kept:")


def check_budget(open_: Callable[[Budget], Store], touch_on_read: bool) -> None:
    """Against a model written here (an LRU of sizes, key plus value, evicting oldest first until the rest fits):
    the visitors' bytes never pass the budget, the survivors are the model's, kept entries are never evicted,
    a compare-and-swap write and a delete are counted, and an entry past the whole budget is kept alone."""
    store = open_(Budget(BUDGET, kept))
    store.put("kept:table", b"k" * 3 * BUDGET)
    model: OrderedDict[str, int] = OrderedDict()

    def wrote(key: str, size: int) -> None:
        model.pop(key, None)
        model[key] = len(key) + size
        while sum(model.values()) > BUDGET and len(model) > 1:
            oldest = next(k for k in model if k != key)
            del model[oldest]

    for n in range(40):
        size = 300 + 97 * (n % 7)
        store.put(f"visitor:{n}", bytes([n]) * size)
        wrote(f"visitor:{n}", size)
        time.sleep(0.002)  # distinct times of use
        assert store.visitors_bytes() == sum(model.values()) <= BUDGET
    if touch_on_read:  # a read counts as a use: the oldest survivor outlives the next write
        first = next(iter(model))
        assert store.get(first) is not None
        model.move_to_end(first)
        time.sleep(0.002)
    assert store.get("visitor:a") is None
    assert store.swap("visitor:a", None, b"g" * 500)
    wrote("visitor:a", 500)
    time.sleep(0.002)
    assert store.swap("visitor:a", b"g" * 500, b"h" * 800)
    wrote("visitor:a", 800)
    assert store.visitors_bytes() == sum(model.values()) <= BUDGET
    survivors = {f"visitor:{n}" for n in range(40) if store.get(f"visitor:{n}") is not None}
    assert survivors == {k for k in model if k.startswith("visitor:") and k[8:].isdigit()}
    assert store.get("kept:table") == b"k" * 3 * BUDGET
    gone = next(iter(survivors))
    store.delete(gone)
    model.pop(gone)
    assert store.visitors_bytes() == sum(model.values())
    with pytest.raises(TooLarge):  # past its share (an eighth of the budget): refused, nothing evicted for it
        store.put("visitor:huge", b"x" * (BUDGET // 8))
    assert store.visitors_bytes() == sum(model.values()) and store.get("visitor:huge") is None
    assert store.get("kept:table") == b"k" * 3 * BUDGET


GAME_BUDGET = 5_000
GAME_SECONDS = 0.5


class Clock:
    """The store's clock in `check_games` (its module's `time`), moved by the test: on a loaded machine the flood of
    writes once outlasted GAME_SECONDS of the real clock, the games idle before the check that all were in use (a
    fresh clone's make test, 2026-11-30). Each reading is a microsecond past the one before, so that uses keep their
    order, as on a real clock."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def time(self) -> float:
        self.now += 1e-6
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def check_games(open_: Callable[[Budget], Store], clock: Clock) -> None:
    """Players' games against strangers' results and other players: a flood of results past the visitors' budget
    evicts no game; a new game past the games' budget is refused while every game was used within GAME_SECONDS
    (and a move on a held game is not); once some are idle, the least recently used idle game goes, not one
    viewed meanwhile. The store reads the time from clock."""
    store = open_(Budget(BUDGET, kept, GAME_BUDGET, GAME_SECONDS))
    record = b"r" * 590  # about a game's record
    for n in range(8):
        store.put(f"game:{n}", record)
        clock.sleep(0.002)
    held = store.games_bytes()
    assert held == sum(len(f"game:{n}") + len(record) for n in range(8))
    for n in range(60):  # results of strangers, 6 budgets' worth
        store.put(f"visitor:{n}", bytes([n]) * 1_000)
    assert all(store.get(f"game:{n}") == record for n in range(8)) and store.games_bytes() == held
    with pytest.raises(GamesFull):
        store.put("game:new", record)
    assert store.get("game:new") is None and store.games_bytes() == held
    assert store.swap("game:0", record, record + b"m" * 300)  # a move past the games' budget: never refused
    assert store.games_bytes() == held + 300 > GAME_BUDGET
    clock.sleep(GAME_SECONDS + 0.1)
    assert store.get("game:1") == record  # viewed: used again, so kept
    store.put("game:new", record)  # two idle games make room, the least recently used: 2 and 3
    assert store.get("game:new") == record and store.games_bytes() <= GAME_BUDGET
    assert [n for n in range(8) if store.get(f"game:{n}") is None] == [2, 3]
    clock.sleep(GAME_SECONDS + 0.1)  # every game idle now; a new game too large even for all their room: refused,
    before = store.games_bytes()  # and none of them evicted for it
    with pytest.raises(GamesFull):
        store.put("game:huge", b"h" * (GAME_BUDGET + 1))
    assert store.games_bytes() == before and [n for n in range(8) if store.get(f"game:{n}") is None] == [2, 3]


def test_budget_sqlite(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite, a read counting as a use at once (TOUCH_SECONDS 0 here)."""
    monkeypatch.setattr(store_sqlite, "TOUCH_SECONDS", 0.0)
    check_budget(lambda budget: SqliteStore(tmp_path / "results.db", SECRET, budget), touch_on_read=True)


def test_games_sqlite(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite, a read counting as a use at once (TOUCH_SECONDS 0 here)."""
    monkeypatch.setattr(store_sqlite, "TOUCH_SECONDS", 0.0)
    clock = Clock()
    monkeypatch.setattr(store_sqlite, "time", clock)
    check_games(lambda budget: SqliteStore(tmp_path / "results.db", SECRET, budget), clock)


def test_no_budget_keeps_everything(tmp_path: Path) -> None:
    """A store opened without a budget (commands, tests) counts nothing as a visitor's and evicts nothing."""
    store = SqliteStore(tmp_path / "results.db", SECRET)
    for n in range(30):
        store.put(f"rendered:{n}", b"r" * 1000)
    assert store.count("rendered:") == 30 and store.visitors_bytes() == 0


def test_a_store_of_an_earlier_version_is_accounted(tmp_path: Path) -> None:
    """A results table without sizes gets them on opening: its rendered answers count as visitors' (so the budget
    reaches what an earlier version let pile up), its games as games, every other entry is kept."""
    path = tmp_path / "results.db"
    signer = Signer(SECRET)  # the rows an earlier version wrote, signed as it signed them
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE results (key TEXT PRIMARY KEY, blob BLOB, digest TEXT, at REAL)")
        for n, key in enumerate(["rendered:abc:api:x", "game:1", "codebreak.tree:s:p"]):
            blob = bytes([n]) * 4000
            db.execute("INSERT INTO results VALUES (?, ?, ?, ?)", (key, blob, signer.sign(key, blob), n))
    store = SqliteStore(path, SECRET, Budget(4_000, kept))
    assert store.visitors_bytes() == len("rendered:abc:api:x") + 4000
    assert store.games_bytes() == len("game:1") + 4000
    store.put("visitor:new", b"n" * 100)  # the first write past the budget evicts the oldest visitor's entry
    assert store.get("rendered:abc:api:x") is None and store.get("game:1") is not None
    assert store.get("codebreak.tree:s:p") == bytes([2]) * 4000


def test_the_site_keeps_what_it_lists_and_its_checkpoints() -> None:
    """The app's budget keeps a listed result and its checkpoint pages (a long proof's, until it ends); a result the
    site does not list, a rendered answer and a sealed game are visitors'."""
    from webapp.jobs.precompute import kept as site_kept
    from webapp.results.catalogue import AEQUITAS, AequitasParams

    listed = AEQUITAS.key(AequitasParams(30))
    assert site_kept(listed) and site_kept(f"{listed}:checkpoint:3") and site_kept(f"{listed}:checkpoint:pages")
    assert not site_kept(AEQUITAS.key(AequitasParams(12)))
    assert not site_kept(f"rendered:abc:api:{listed}") and not site_kept("game:0123")
