"""Peg solitaire's searches: the compiled search against the plain one, shared dead tables, the large boards'
tables, bidirectional fewest moves and their bounds, the classic boards' problems and their fewest moves."""

from __future__ import annotations

import pytest

from solvers.pegs import (
    PROBLEMS,
    board,
    board_table,
    canonical,
    class_finals,
    exact,
    fewest_anywhere,
    listed_problem,
    replay,
)
from solvers.pegs.compiled import DeadTable, search
from solvers.pegs.fewest import is_merson, lower_bound, merson_regions
from solvers.pegs.meet import fewest_meet, meet
from solvers.pegs.report import peg_report
from tests.unit.test_pegs import BELL_TRIANGLE_5, brute_triangle_finals, cross_class, cross_jump_ok


def test_compiled_search_agrees_with_the_plain_search() -> None:
    """The compiled depth-first search on the 15-hole triangle, every start and every finish (and 'anywhere'):
    a solution exactly when the plain search in this file reaches that final, and otherwise an exhausted search
    (its proof of none); every solution replays to one coin on the finish hole."""
    b, brute = board("triangle-5"), brute_triangle_finals(5)
    for start, ends in brute.items():
        pos = b.start(str(start))
        for finish in [None, *range(b.size)]:
            r = search(b, pos, finish, table_bits=16)
            reachable = bool(ends) if finish is None else (finish + 1) in ends
            assert (r.status == "found") is reachable and (r.status == "exhausted") is not reachable
            if r.jumps is not None:
                end = replay(b, pos, [(f, t) for f, _, t in r.jumps])
                assert bin(end).count("1") == 1 and (finish is None or end == 1 << finish)


def test_a_dead_table_shared_by_every_start_keeps_the_answers() -> None:
    """One table of dead positions per goal, shared by the searches from every start of the 15-hole triangle, in
    tiny node budgets that stop most of them part-way (as a portfolio's rounds do), then to the end: the same
    answers as the plain search in this file, and fewer positions expanded than with a table per search."""
    b, brute = board("triangle-5"), brute_triangle_finals(5)
    for finish in [None, 0, 4, 12]:
        shared, alone, fresh = DeadTable(b, finish), 0, 0
        for start, ends in brute.items():
            pos = b.start(str(start))
            for limit in (50, 200):
                search(b, pos, finish, limit, dead=shared)
            r = search(b, pos, finish, dead=shared)
            alone += search(b, pos, finish).nodes
            fresh += r.nodes
            reachable = bool(ends) if finish is None else (finish + 1) in ends
            assert (r.status == "found") is reachable and (r.status == "exhausted") is not reachable
            if r.jumps is not None:
                end = replay(b, pos, [(f, t) for f, _, t in r.jumps])
                assert bin(end).count("1") == 1 and (finish is None or end == 1 << finish)
        assert fresh < alone, finish


@pytest.mark.parametrize(
    "name",
    [
        pytest.param("english", marks=pytest.mark.slow),
        pytest.param("french", marks=pytest.mark.proof),  # a minute: make proofs
        pytest.param("triangle-7", marks=pytest.mark.slow),
        pytest.param("triangle-8", marks=pytest.mark.slow),
    ],
)
def test_large_board_tables_have_no_unknown(name: str) -> None:
    """Every start of the large boards is decided, for 'anywhere' and for 'in the start hole' (a 'yes' is only
    given after the solution found replays by the rules, in analyse). On the crosses each 'no' is confirmed by
    the class computed in this file (no single last coin, or none on the start hole, has the start's class); on
    the English board every start and its complement are solvable (the centre game: Beasley 1985)."""
    b = board(name)
    rows = board_table(name)
    assert all(r.solvable is not None and r.home is not None for r in rows)
    every = {(ord(x[0]) - 97, int(x[1:])) for x in b.labels} if name in ("english", "french") else set()
    for r in rows:
        if name in ("english", "french"):
            cell = (ord(r.hole[0]) - 97, int(r.hole[1:]))
            start_class = cross_class(every - {cell})
            if not r.solvable:
                assert all(cross_class({c}) != start_class for c in every), r.hole
            if not r.home:
                assert cross_class({cell}) != start_class, r.hole
    if name == "english":  # every single-vacancy problem, and its complement (finish on the start hole), solvable
        assert all(r.solvable and r.home for r in rows)


@pytest.mark.parametrize(
    ("name", "every_start"),
    [
        ("triangle-4", True),
        ("triangle-5", True),
        pytest.param("triangle-6", False, marks=pytest.mark.proof),  # 40 s here: `make proofs`
        pytest.param("triangle-6", True, marks=pytest.mark.proof),
    ],
)
def test_bidirectional_fewest_moves_equal_the_exact_layers(name: str, every_start: bool) -> None:
    """The bidirectional search, every (start, finish) pair: the same fewest moves as the exhaustive breadth-first
    layers, or none when the layers reach no such final; each solution replays onto the finish in that many moves.
    Starts on an axis of the triangle exercise the symmetry that fixes the start and the finish. (Triangle-6, in
    `make proofs`: every fourth class of starts under the board's symmetries, every finish; or every start.)"""
    b, ex = board(name), exact(name)
    classes = list({canonical(b, b.start(label)): label for label in b.labels}.values())
    labels = b.labels if every_start else classes[:: 4 if b.size > 15 else 1]
    for label in labels:
        start = b.start(label)
        finals = ex.finals(start)
        for finish in range(b.size):
            r = fewest_meet(b, start, finish)
            assert r.moves == finals.get(finish), (label, finish)
            assert r.proved
            if r.moves is not None:
                assert len(r.solution) == r.moves and replay(b, start, r.solution) == 1 << finish


def test_bidirectional_limit_is_exact_below_and_silent_above() -> None:
    """One search with a limit, the 15-hole triangle from the apex back to the apex (10 moves, exact layers here
    and Bell's 15-hole table): within 10 it meets exactly 10; within 9 it meets no total of 9 or less (it may
    meet longer ones, which prove nothing)."""
    b, ex = board("triangle-5"), exact("triangle-5")
    start = b.start("1")
    assert ex.finals(start)[0] == 10
    assert meet(b, start, 0, 10, 10**7).total == 10
    below = meet(b, start, 0, 9, 10**7).total
    assert below is None or below > 9


def test_sharp_forward_bound_gives_the_same_moves_from_fewer_states() -> None:
    """The forward bound that subtracts one only when the landed coin is in a full region (the default) and the
    former one that always subtracts one: the same fewest moves on every triangle-5 start to hole 1 and every
    finish from hole 4, never more states, and fewer over the whole run (the exhaustive comparison above checks
    the default against the exact layers)."""
    b = board("triangle-5")
    pairs = [(label, 0) for label in b.labels] + [("4", finish) for finish in range(b.size)]
    sharp_states = loose_states = 0
    for label, finish in pairs:
        start = b.start(label)
        sharp, loose = fewest_meet(b, start, finish), fewest_meet(b, start, finish, sharp=False)
        assert sharp.moves == loose.moves and sharp.proved and loose.proved, (label, finish)
        assert sharp.nodes <= loose.nodes, (label, finish)
        sharp_states += sharp.nodes
        loose_states += loose.nodes
    assert sharp_states < loose_states


@pytest.mark.parametrize(
    ("name", "starts", "first", "stride"),
    [("triangle-5", 2, 0, 7), pytest.param("triangle-6", 1, 3, 800, marks=pytest.mark.slow)],
)
def test_merson_bound_is_admissible(name: str, starts: int, first: int, stride: int) -> None:
    """The bound never exceeds the true number of moves left: for positions met after `first` to 6 moves from the
    first starts (every stride-th one), the full Merson regions are at most the exhaustive layers' fewest moves to
    every final that can be reached; and the backward search's bound (regions full at the start, not full now) is
    at most the moves taken to reach the position, for every layer. (On triangle-6 the positions after 3 moves or
    more: the layers from one after a single move take seconds, the whole board's.)"""
    b, ex = board(name), exact(name)
    regions = merson_regions(b)
    assert all(is_merson(b, set(r)) for r in regions)
    assert all(not (r & s) for r in regions for s in regions if r is not s)
    checked = 0
    for label in b.labels[:starts]:
        layers = ex.layers(b.start(label))
        for layer in layers[first:7]:
            for pos in layer[::stride]:
                p = int(pos)
                for final, moves in ex.finals(p).items():
                    family = [r for r in regions if r != {final}]
                    assert lower_bound(family, p) <= moves, (label, p, final)
                    checked += 1
        # the backward bound: regions full at the start and not full now each took a move to get here
        full = [r for r in regions if all(b.start(label) >> h & 1 for h in r)]
        for depth, layer in enumerate(layers):
            for pos in layer[::stride]:
                assert sum(1 for r in full if not all(int(pos) >> h & 1 for h in r)) <= depth, (label, int(pos))
    assert checked > 50


@pytest.mark.proof  # 24 s on two cores: make proofs (Bell's 15-hole catalogue checks the same search in make test)
def test_english_centre_game_in_18_moves() -> None:
    """The English board, centre empty, last coin in the centre: 18 moves (Bergholt 1912's solution; proved
    minimal by Beasley, 1964, 'The Ins and Outs of Peg Solitaire', 1985). The report says 18, proved, and its
    solution is legal jump by jump under the rule written in this file and ends on d4."""
    b = board("english")
    r = peg_report(b, b.start("d4"), "d4", finish="d4")
    assert r.min_moves == 18 and r.proved and r.method == "bidirectional" and len(r.solution) == 18
    holes = {(ord(x[0]) - 97, int(x[1:])) for x in b.labels if x != "d4"}
    for move in r.solution:
        for frm, to in zip(move, move[1:], strict=False):
            (c1, r1), (c3, r3) = ((ord(x[0]) - 97, int(x[1:])) for x in (frm, to))
            over = f"{chr(97 + (c1 + c3) // 2)}{(r1 + r3) // 2}"
            assert cross_jump_ok(holes, frm, over, to), (frm, over, to)
            holes -= {(c1, r1), ((c1 + c3) // 2, (r1 + r3) // 2)}
            holes.add((c3, r3))
    assert holes == {(3, 4)}


def test_french_problems_up_to_symmetry() -> None:
    """The French board's single vacancy to single survivor problems, every start with every finish its position
    class allows: 16 of the 37 starts, ten problems up to the board's symmetry (found by mapping every pair onto a
    representative); the listed ones are among them, no two images of each other."""
    b = board("french")
    pairs = {(h, b.labels[f]) for h in b.labels for f in class_finals(b, b.start(h))}
    assert len({h for h, _ in pairs}) == 16
    classes: list[set[tuple[str, str]]] = []
    for h, f in sorted(pairs):
        images = {(b.labels[s[b.index(h)]], b.labels[s[b.index(f)]]) for s in b.symmetries}
        if not any(images & c for c in classes):
            classes.append(images)
    assert len(classes) == 10
    for problems in (FRENCH_PROBLEMS, PROBLEMS["french"]):
        assert all(sum(pair in c for c in classes) == 1 for pair in problems)
        assert len({next(i for i, c in enumerate(classes) if p in c) for p in problems}) == len(problems)
    assert len(FRENCH_PROBLEMS) == 10


FRENCH_PROBLEMS = (
    ("c1", "e1"),
    ("c1", "b4"),
    ("c1", "e4"),
    ("c1", "e7"),
    ("d2", "a3"),
    ("d2", "d3"),
    ("d2", "d6"),
    ("d3", "d2"),
    ("d3", "a5"),
    ("d3", "d5"),
)


def test_fewest_anywhere_is_the_least_over_every_finish_the_class_allows(monkeypatch: pytest.MonkeyPatch) -> None:
    """Finishing anywhere from a French start, with all ten problems listed: the least of its settled problems,
    over every finish its position class allows (c1's four, each a problem of c1; e7 is c1 reflected, so the same
    four); nothing while one of them is not settled; a problem proved impossible (None) is skipped; an unsolvable
    start gets nothing."""
    monkeypatch.setitem(PROBLEMS, "french", FRENCH_PROBLEMS)
    b = board("french")
    settled: dict[tuple[str, str], int | None] = {p: 30 + i for i, p in enumerate(PROBLEMS["french"])}
    c1 = {p for p in PROBLEMS["french"] if p[0] == "c1"}
    assert {listed_problem(b, "c1", b.labels[f]) for f in class_finals(b, b.start("c1"))} == c1
    assert fewest_anywhere(b, "c1", settled) == fewest_anywhere(b, "e7", settled) == 30
    assert fewest_anywhere(b, "d3", settled) == min(settled[p] or 99 for p in PROBLEMS["french"] if p[0] == "d3")
    assert fewest_anywhere(b, "c1", {**settled, ("c1", "e1"): None}) == 31
    assert fewest_anywhere(b, "c1", {p: m for p, m in settled.items() if p != ("c1", "e7")}) is None
    assert fewest_anywhere(b, "d4", settled) is None


def test_listed_problems_cover_every_english_start_and_finish_up_to_symmetry() -> None:
    """Every English start with every finish its position class allows is exactly one listed problem up to the
    board's symmetry (21 classes, counted here by their images), found through mirror images and rotations; the
    starts finishing in their own hole (7 classes) come first after the centre game; a pair the position classes
    forbid is not listed, and the French d6 to d2 is d2 to d6 reflected."""
    b = board("english")
    pairs = {(h, b.labels[f]) for h in b.labels for f in class_finals(b, b.start(h))}
    classes = {frozenset((b.labels[s[b.index(h)]], b.labels[s[b.index(f)]]) for s in b.symmetries) for h, f in pairs}
    assert len(classes) == 21 == len(PROBLEMS["english"]) == len(set(PROBLEMS["english"]))
    assert all(sum(p in c for p in PROBLEMS["english"]) == 1 for c in classes)
    assert {listed_problem(b, h, f) for h, f in pairs} == set(PROBLEMS["english"])
    assert {listed_problem(b, h, h) for h in b.labels} == set(PROBLEMS["english"][:7])
    assert listed_problem(b, "e1", "e1") == ("c1", "c1") and listed_problem(b, "g4", "g4") == ("d1", "d1")
    assert listed_problem(b, "c1", "e1") is None and listed_problem(b, "d4", "d3") is None
    assert listed_problem(board("french"), "d6", "d2") == ("d2", "d6")


def test_triangle_5_fewest_moves_match_bells_catalogue() -> None:
    """Every single vacancy to single survivor problem of the 15-hole triangle: the bidirectional search's proved
    fewest moves (and 'impossible') equal George Bell's published catalogue, and the exact layers agree."""
    b = board("triangle-5")
    ours = {"a1": "1", "b3": "5", "a4": "7", "d4": "10", "c5": "13"}
    for vacate, finish, moves in BELL_TRIANGLE_5:
        start, goal = b.start(ours[vacate]), b.index(ours[finish])
        found = fewest_meet(b, start, goal)
        assert found.proved and found.moves == moves, (vacate, finish, found.moves)
        assert exact("triangle-5").finals(start).get(goal) == moves


@pytest.mark.parametrize(
    ("name", "hole"),
    [("triangle-5", "1"), ("triangle-5", "4"), pytest.param("triangle-6", "1", marks=pytest.mark.proof)],  # 15 CPU s
)
def test_the_rest_of_a_proved_solution_is_proved_from_every_position_on_it(name: str, hole: str) -> None:
    """A fewest-move solution from a start (to its nearest finish), and each position it passes through mapped by
    every symmetry of the board: the rest, mapped back, is the fewest from there (the exact layers, computed
    apart, agree); a position off the path (a poorer first jump) is not on it."""
    from solvers.pegs.analysis import Analysis
    from solvers.pegs.report import on_proved_path
    from solvers.pegs.rules import apply_jump, legal_jumps

    b, ex = board(name), exact(name)
    start = b.start(hole)
    solution = ex.solution(start)
    finish = b.labels[replay(b, start, solution).bit_length() - 1]
    proved = Analysis(True, len(solution), None, None, solution, "exact")
    here = start
    for done in range(len(solution)):
        for sym in b.symmetries:
            if sym[b.index(finish)] != b.index(finish):
                continue
            image = sum(1 << sym[h] for h in range(b.size) if here >> h & 1)
            rest = on_proved_path(b, start, proved, image, finish)
            assert rest is not None and rest.min_moves == len(solution) - done
            assert rest.min_moves == ex.finals(image)[b.index(finish)]  # the exact analysis, from that position
            assert replay(b, image, rest.solution) == 1 << b.index(finish)
        here = replay(b, here, solution[done : done + 1])
    after = [apply_jump(start, j) for j in legal_jumps(b, start)]
    off = [p for p in after if ex.finals(p).get(b.index(finish), len(solution)) >= len(solution)]
    for p in off:
        assert on_proved_path(b, start, proved, p, finish) is None
