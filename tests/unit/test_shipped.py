"""The results shipped in the package (webapp/data/results, and the certificates inside the optima table), each
checked against its source of truth: a publication, an independent brute force written here, or the computation
made again; and stored into a fresh store before anything is queued."""

from __future__ import annotations

import gzip
import os
from dataclasses import asdict
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from tests.unit.test_store import SECRET
from webapp.jobs.shipped import SHIPPED_RESULTS, certified_items, install, load, lookup, path_of, shipped_items
from webapp.results.catalogue import AEQUITAS, PEGS_REPORT, PEGS_TABLE, AequitasParams, BoardParams, pegs_problem
from webapp.results.codebreak_results import CODEBREAK, SECOND, codebreak_params, game_params
from webapp.results.computations import dumps, run, stored
from webapp.store.sqlite import SqliteStore


def test_every_shipped_file_is_a_listed_result() -> None:
    """No file is stale (a change to what a computation stores names new files) or stray; that each holds when
    loaded is checked once, by installing them all into a fresh store (below)."""
    items = shipped_items()
    assert {path_of(c, p) for c, p in items} == set(SHIPPED_RESULTS.glob("*.gz"))
    names = {c.name for c, _ in items}
    assert {"codebreak.second", "pegs.report", "aequitas.table"} <= names


def test_a_shipped_result_that_does_not_hold_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A tree whose stored statistics its replay does not give, and a peg solution that does not end on its
    finish, are refused when loaded."""
    import webapp.jobs.shipped as shipped

    tree = codebreak_params("bulls-and-cows", (4, 10, None), "optimal-average")
    english = pegs_problem("english", "d4", "d4")
    node, stats = load(CODEBREAK, tree)
    report = load(PEGS_REPORT, english)
    monkeypatch.setattr(shipped, "SHIPPED_RESULTS", tmp_path)
    tampered_stats = type(stats)(**{**stats.__dict__, "total": stats.total - 1})
    path_of(CODEBREAK, tree).write_bytes(gzip.compress(dumps(CODEBREAK, (node, tampered_stats))))
    cut = type(report)(**{**report.__dict__, "solution": report.solution[:-1]})
    path_of(PEGS_REPORT, english).write_bytes(gzip.compress(dumps(PEGS_REPORT, cut)))
    for c, p in ((CODEBREAK, tree), (PEGS_REPORT, english)):
        with pytest.raises(ValueError, match="does not hold"):
            load(c, p)


def test_the_shipped_proofs_agree_with_the_publications() -> None:
    """Bulls and Cows' least total over its 5,040 secrets is 26,274 (Tanaka 1996); the English centre game needs
    18 moves (Bergholt 1912's solution; proved least by Beasley, The Ins and Outs of Peg Solitaire, 1985)."""
    _, stats = load(CODEBREAK, codebreak_params("bulls-and-cows", (4, 10, None), "optimal-average"))
    assert (stats.total, stats.verified) == (26274, True)
    report = load(PEGS_REPORT, pegs_problem("english", "d4", "d4"))
    assert (report.min_moves, report.proved, len(report.solution)) == (18, True, 18)


@cache
def _least(table: bytes, shape: tuple[int, int], s: frozenset[int]) -> int:
    """The least total guesses to find every code of s (each counts the guesses from now, its own included), by
    brute force over every experiment of the game (its outcome table given as bytes)."""
    if len(s) == 1:
        return 1
    rows = np.frombuffer(table, dtype=np.uint8).reshape(shape)
    return min(_with(table, shape, s, e, rows, useless=False) for e in range(shape[0]))


def _with(
    table: bytes,
    shape: tuple[int, int],
    s: frozenset[int],
    e: int,
    rows: np.ndarray | None = None,
    useless: bool = True,
) -> int:
    """The least total of s with experiment e next: every code pays this guess, and each part e leaves (but e
    itself, found) its least total; a guess that splits nothing costs a wasted guess on top of s's least total
    (or, not useless, counts as no choice at all: a best play never makes one)."""
    rows = np.frombuffer(table, dtype=np.uint8).reshape(shape) if rows is None else rows
    parts: dict[int, set[int]] = {}
    for x in s:
        parts.setdefault(int(rows[e, x]), set()).add(x)
    if len(parts) == 1 and e not in s:
        return len(s) + _least(table, shape, s) if useless else 10**9
    return len(s) + sum(_least(table, shape, frozenset(p)) for p in parts.values() if p != {e})


def test_the_second_guess_totals_agree_with_a_brute_force() -> None:
    """The shipped totals of every second guess of Bulls and Cows, on the first guess's outcomes that leave at
    most 9 codes, equal an independent brute force over all 5,040 experiments (`_least`), guess by guess."""
    from webapp.results.games import load as load_game

    g = load_game("bulls-and-cows")
    totals = load(SECOND, game_params("bulls-and-cows", (4, 10, None)))
    table = g.dense()
    first = g.experiments.index(totals.first)
    blob, shape = table.tobytes(), table.shape
    checked = 0
    for o, row in enumerate(totals.totals):
        s = frozenset(int(x) for x in np.flatnonzero(table[first] == o))
        if not row or len(s) > 9:
            continue
        by_partition: dict[tuple[int, ...], int] = {}
        for e in range(len(g.experiments)):
            key = (*table[e, sorted(s)].tolist(), int(e in s) and sorted(s).index(e) + 1)
            if key not in by_partition:
                by_partition[key] = _with(blob, shape, s, e)
            assert row[e] == by_partition[key], (g.outcome_names[o], g.experiments[e])
            checked += 1
    assert checked >= 3 * len(g.experiments)


@pytest.mark.parametrize(
    ("c", "params"),
    [pytest.param(AEQUITAS, AequitasParams(40), marks=pytest.mark.proof), (PEGS_TABLE, BoardParams("english"))],
    ids=["aequitas", "pegs"],  # the Æquitas table to 40 coins: a search of seconds, longer here (make proofs)
)
def test_a_cheap_shipped_result_is_made_again_byte_for_byte(c: object, params: object) -> None:
    """The shipped files of results made in seconds are what the computation makes here."""
    assert gzip.decompress(path_of(c, params).read_bytes()) == dumps(c, run(c, params, lambda d, t: None))  # type: ignore[arg-type]


def test_a_fresh_store_holds_every_shipped_result_before_any_job(tmp_path: Path) -> None:
    """`install` stores the certified sizes' optimal averages and every shipped file (once: a second install
    stores nothing), each only if it holds when loaded (`shipped.load`: decoded against its stored type, a strategy
    tree verified on every secret, a peg solution replayed), so the count says that every one holds; the optima
    table then shows each certified size proved at its certificate's total, the published ones agreeing (Koyama and
    Lai 1993's 5,625, Ville 2013's 11,228, arfst23's 20,471)."""
    from webapp.jobs.optima import optima_table
    from webapp.jobs.shipped import certificates

    store, left_out = SqliteStore(tmp_path / "r.db", SECRET), list[str]()
    assert install(store, left_out.append) == len(certified_items()) + len(shipped_items()), left_out
    assert install(store) == 0
    table = optima_table(store)
    cells = {(r.pegs, r.colours): r for r in table.rows}
    for size, _ in certified_items():
        assert cells[size].state == "proved" and cells[size].total == certificates()[size].total
        assert cells[size].certificate is not None
    assert [cells[s].total for s in ((4, 6), (4, 7), (4, 8))] == [5625, 11228, 20471]
    assert all(cells[s].agrees for s in ((4, 6), (4, 7), (4, 8)))
    assert table.proved >= len(certified_items()) >= 14
    english = stored(store, PEGS_REPORT, pegs_problem("english", "d4", "d4"))
    assert english is not None and english.proved


def test_the_command_line_reads_what_is_shipped_without_a_store() -> None:
    """A reader that finds nothing stored gets the shipped result (checked), or None where none is shipped."""
    found = lookup(CODEBREAK, codebreak_params("mastermind", (4, 9, None), "optimal-average"))
    assert found is not None and found[1].verified
    assert lookup(CODEBREAK, codebreak_params("mastermind", (4, 9, None), "optimal-worst")) is None


def test_a_stored_refusal_yields_to_what_is_shipped(tmp_path: Path) -> None:
    """A refusal an older version stored (out of its memory, say) under a shipped result's key is replaced by the
    shipped result, when read and when installed."""
    from webapp.jobs.shipped import kept
    from webapp.results.computations import Failed, write

    params = codebreak_params("bulls-and-cows", (4, 10, None), "optimal-average")
    for way in ("read", "install"):
        store = SqliteStore(tmp_path / f"{way}.db", SECRET)
        write(store, CODEBREAK, CODEBREAK.key(params), Failed("limit", "out of memory"))
        if way == "install":
            install(store)
        found = kept(store, CODEBREAK, params)
        assert not isinstance(found, Failed) and found is not None and found[1].total == 26274


def test_every_file_the_site_reads_from_webapp_data_is_packaged() -> None:
    """Every file under webapp/data (shipped results, certificates, proof snapshots) matches the package data that
    pyproject.toml lists, so that a wheel holds it too, not only an editable install: a wheel built before the
    results' folder was listed held none of its 16 files."""
    import glob
    import tomllib

    root = Path(__file__).resolve().parents[2]
    listed = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["webapp"]
    data = root / "webapp" / "data"
    files = {p.relative_to(root / "webapp").as_posix() for p in data.rglob("*") if p.is_file()}
    packaged = {path for pattern in listed for path in glob.glob(pattern, root_dir=root / "webapp")}  # as setuptools
    assert files and SHIPPED_RESULTS.is_relative_to(data)
    assert sorted(files - packaged) == []


def test_a_kept_frontier_tree_is_listed_only_if_it_holds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A tree make frontier keeps (`write_tree`: each secret's guesses) is read back into the same tree and listed
    at its total; one whose total is off by one, or whose guesses are changed, is not listed (`certified_tree`:
    None). Mastermind 3x4, which has no certificate, its optimal tree proved here."""
    from solvers.codebreak import build, build_tree, verify
    from solvers.codebreak.game import PROOF_COLOURS
    from webapp.jobs import shipped
    from webapp.results.games import game_spec

    monkeypatch.setattr(shipped, "PROOFS", tmp_path)
    g = build(game_spec("mastermind"), {"length": 3, "colours": 4}, colours_up_to=PROOF_COLOURS)
    tree = build_tree(g, "optimal-average")
    total = verify(g, tree).total
    path = shipped.write_tree(3, 4, g, tree, total)
    assert shipped.frontier_sizes() == [(3, 4)] and (3, 4) not in shipped.certificates()
    found = shipped.certified_tree(3, 4)
    assert found is not None and found[1].total == total and found[1].verified
    assert verify(g, found[0]) == verify(g, tree)
    with np.load(path) as f:
        arrays = {k: f[k] for k in f.files}
    for name, change in (("total", 1), ("guesses", 1)):
        bad = dict(arrays)
        bad[name] = arrays[name].copy()
        bad[name][... if name == "total" else len(bad[name]) // 2] += change
        with path.open("wb") as out:
            np.savez_compressed(out, **bad)
        assert shipped.certified_tree(3, 4) is None, name


def test_the_replayed_listing_past_the_table_is_kept_for_the_next_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`beyond` replays the trees past the table once per clone and code (1.5 s of CPU at every server start): a
    later process reads the same cells from the account's cache; a kept file changed (its time), a damaged cache
    file, or no usable cache folder replays them again; a full disk keeps nothing and fails nothing."""
    from webapp.jobs import optima

    cells = optima._replayed()  # the trees replayed, once
    assert [(c.pegs, c.colours) for c in cells] and all(c.state == "proved" for c in cells)
    replays: list[int] = []
    monkeypatch.setattr(optima, "_replayed", lambda: replays.append(1) or cells)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))

    def listed() -> list[list[tuple[str, type, object]]]:
        """The cells as a new process lists them, each field with its type (1 == 1.0 == True in Python)."""
        optima.beyond.cache_clear()
        return [[(k, type(v), v) for k, v in asdict(c).items()] for c in optima.beyond()]

    typed = [[(k, type(v), v) for k, v in asdict(c).items()] for c in cells]
    assert listed() == typed and len(replays) == 1
    kept = list((tmp_path / "cache" / "coin-puzzles" / "verified").glob("beyond-*.json"))
    assert len(kept) == 1
    assert listed() == typed and len(replays) == 1  # read back, field for field
    proofs = tmp_path / "proofs"
    proofs.mkdir()
    (proofs / "mastermind-3x4.runs.json").write_text("[]")
    monkeypatch.setattr(optima, "PROOFS", proofs)
    assert listed() == typed and len(replays) == 2
    os.utime(proofs / "mastermind-3x4.runs.json", (1, 1))
    assert listed() == typed and len(replays) == 3
    for damaged in sorted((tmp_path / "cache" / "coin-puzzles" / "verified").glob("beyond-*.json")):
        damaged.write_text('[{"pegs": 3}]')
    assert listed() == typed and len(replays) == 4
    monkeypatch.setenv("XDG_CACHE_HOME", str(kept[0]))  # a file: no folder can be made there
    assert listed() == typed and listed() == typed and len(replays) == 6
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "full"))

    def full(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full)  # a full disk: listed all the same, nothing left behind
    assert listed() == typed and len(replays) == 7
    assert list((tmp_path / "full" / "coin-puzzles" / "verified").iterdir()) == []
    optima.beyond.cache_clear()
