"""Peg solitaire: golden values from Dunkerley's "Solving Matt Parker's Coin Puzzle in Alteryx" (2020) and from
published sources, checked by an independent replay."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.errors import IllegalMoveError
from solvers.pegs import (
    BOARDS,
    analyse,
    board,
    board_table,
    class_finals,
    exact,
    image,
    replay,
)
from solvers.pegs.compiled import solve


def test_seed_84_winning_sequences_on_the_10_hole_board() -> None:
    """The seed (Parker's puzzle, solved in Alteryx): 84 winning jump sequences over all starts."""
    b, ex = board("triangle-4"), exact("triangle-4")
    assert sum(ex.count(b.start(label)) for label in b.labels) == 84


def test_10_hole_board_starts() -> None:
    """10 holes: corners and the centre cannot be solved; every other start takes 5 moves (8 jumps)."""
    b, ex = board("triangle-4"), exact("triangle-4")
    for label in b.labels:
        m = ex.min_moves(b.start(label))
        assert (m is None) == (label in ("1", "5", "7", "10"))
        assert m in (None, 5)


@pytest.mark.parametrize(("name", "best"), [("triangle-4", 5), ("triangle-5", 9)])
def test_oeis_a127500_shortest_over_all_starts(name: str, best: int) -> None:
    """OEIS A127500 (G. I. Bell, JIS 11 (2008) 08.4.8): shortest solutions 5 (side 4) and 9 (side 5)."""
    b, ex = board(name), exact(name)
    assert min(m for label in b.labels if (m := ex.min_moves(b.start(label))) is not None) == best


@pytest.mark.slow
def test_oeis_a127500_side_6() -> None:
    """OEIS A127500: the shortest solution on side 6 is 9 moves (reached from hole 2, checked by replay)."""
    b, ex = board("triangle-6"), exact("triangle-6")
    start = b.start("2")
    assert ex.min_moves(start) == 9
    sol = ex.solution(start)
    assert len(sol) == 9 and bin(replay(b, start, sol)).count("1") == 1


def brute_triangle_counts(side: int) -> dict[int, int]:
    """Winning jump sequences from each start of a triangle, by a plain search written here: holes are (row,
    column) with column <= row, a jump goes two steps along one of the six lines over a coin into an empty hole,
    positions are frozensets, counts are memoised. Start holes are numbered 1.. row by row from the apex."""
    holes = [(r, c) for r in range(side) for c in range(r + 1)]
    steps = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1)]

    @cache
    def count(coins: frozenset[tuple[int, int]]) -> int:
        if len(coins) == 1:
            return 1
        total = 0
        for r, c in coins:
            for dr, dc in steps:
                over, to = (r + dr, c + dc), (r + 2 * dr, c + 2 * dc)
                if over in coins and to in holes and to not in coins:
                    total += count(coins - {(r, c), over} | {to})
        return total

    return {i + 1: count(frozenset(holes) - {h}) for i, h in enumerate(holes)}


def test_15_hole_board_counts() -> None:
    """15 holes: winning jump sequences from every start (29,760 from the apex, 438,984 over all starts in the
    docs/puzzles/pegs.md) equal the plain search's counts; the same search gives Dunkerley's 84 on the 10-hole board."""
    b, ex = board("triangle-5"), exact("triangle-5")
    brute = brute_triangle_counts(5)
    assert {int(label): ex.count(b.start(label)) for label in b.labels} == brute
    assert brute[1] == 29_760 and sum(brute.values()) == 438_984
    assert sum(brute_triangle_counts(4).values()) == 84


def test_every_solution_replays() -> None:
    """Every fewest-move solution to every final, from every start of sides 4 and 5, replays by the rules."""
    for name in ("triangle-4", "triangle-5"):
        b, ex = board(name), exact(name)
        for label in b.labels:
            start = b.start(label)
            for final, moves in ex.finals(start).items():
                sol = ex.solution(start, final)
                assert len(sol) == moves and replay(b, start, sol) == 1 << final


def test_replay_rejects_illegal_moves() -> None:
    """The rule checker refuses jumps that are not along a line, over nothing, or into a coin."""
    b = board("triangle-4")
    start = b.start("1")
    for bad in ([(0, 3)], [(3, 0), (3, 0)], [(5, 0), (0, 3)], [(9, 0)]):
        with pytest.raises(IllegalMoveError):
            replay(b, start, bad)  # type: ignore[arg-type]


def cross_jump_ok(holes: set[tuple[int, int]], frm: str, over: str, to: str) -> bool:
    """An independent rule for the English cross, from the hole labels alone: three holes in a row or column,
    one step apart, the jumping coin and the jumped coin present and the target empty."""
    (c1, r1), (c2, r2), (c3, r3) = ((ord(x[0]) - 97, int(x[1:])) for x in (frm, over, to))
    in_line = (r1 == r2 == r3 and abs(c1 - c3) == 2) or (c1 == c2 == c3 and abs(r1 - r3) == 2)
    return (
        in_line and 2 * c2 == c1 + c3 and 2 * r2 == r1 + r3 and {(c1, r1), (c2, r2)} <= holes and (c3, r3) not in holes
    )


def test_english_board_any_solution() -> None:
    """The English 33-hole board, centre empty: the solution found is legal jump by jump under a rule written
    here from the board's geometry, and ends with one coin."""
    b = board("english")
    found = solve(b, b.start("d4"))
    assert found.jumps is not None
    holes = {(ord(x[0]) - 97, int(x[1:])) for x in b.labels if x != "d4"}
    for f, o, t in found.jumps:
        frm, over, to = b.labels[f], b.labels[o], b.labels[t]
        assert cross_jump_ok(holes, frm, over, to), (frm, over, to)
        holes -= {(ord(frm[0]) - 97, int(frm[1:])), (ord(over[0]) - 97, int(over[1:]))}
        holes.add((ord(to[0]) - 97, int(to[1:])))
    assert len(holes) == 1


def test_french_centre_is_unsolvable_by_position_class() -> None:
    """The French 37-hole board cannot be solved from the centre (the classic position-class argument)."""
    b = board("french")
    assert class_finals(b, b.start("d4")) == []
    assert analyse(b, b.start("d4")).solvable is False


def test_class_finals_contain_the_true_finals() -> None:
    """The position-class filter never rules out a final that search reaches (sides 4 and 5)."""
    for name in ("triangle-4", "triangle-5"):
        b, ex = board(name), exact(name)
        for label in b.labels:
            start = b.start(label)
            assert set(ex.finals(start)) <= set(class_finals(b, start))


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["triangle-4", "triangle-5"]), st.data())
def test_symmetric_starts_give_equal_answers(name: str, data: st.DataObject) -> None:
    """A start and its image under a symmetry of the board have the same fewest moves and count."""
    b, ex = board(name), exact(name)
    label = data.draw(st.sampled_from(b.labels))
    perm = data.draw(st.sampled_from(b.symmetries))
    start = b.start(label)
    other = image(perm, start)
    assert ex.min_moves(start) == ex.min_moves(other) and ex.count(start) == ex.count(other)
    assert {perm[h] for h in ex.finals(start)} == set(ex.finals(other))


def test_board_shapes() -> None:
    """Hole counts and symmetry groups: triangles 10..36 holes (6 symmetries), crosses 33 and 37 (8)."""
    sizes = {name: (b.size, len(b.symmetries)) for name, b in BOARDS.items()}
    assert sizes == {
        "triangle-4": (10, 6),
        "triangle-5": (15, 6),
        "triangle-6": (21, 6),
        "triangle-7": (28, 6),
        "triangle-8": (36, 6),
        "english": (33, 8),
        "french": (37, 8),
    }


def brute_triangle_finals(side: int) -> dict[int, set[int]]:
    """For each start of a triangle, the holes (numbered 1.. row by row) where a last coin can end, by the same
    plain frozenset search as brute_triangle_counts."""
    holes = [(r, c) for r in range(side) for c in range(r + 1)]
    steps = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1)]

    @cache
    def finals(coins: frozenset[tuple[int, int]]) -> frozenset[tuple[int, int]]:
        if len(coins) == 1:
            return coins
        out: set[tuple[int, int]] = set()
        for r, c in coins:
            for dr, dc in steps:
                over, to = (r + dr, c + dc), (r + 2 * dr, c + 2 * dc)
                if over in coins and to in holes and to not in coins:
                    out |= finals(coins - {(r, c), over} | {to})
        return frozenset(out)

    return {i + 1: {holes.index(h) + 1 for h in finals(frozenset(holes) - {s})} for i, s in enumerate(holes)}


@pytest.mark.parametrize("side", [4, 5])
def test_finish_hole_goal_against_plain_search(side: int) -> None:
    """Every (start, finish) pair of the 10- and 15-hole triangles: the solver says solvable exactly when the
    plain search reaches that final, and its solution replays to one coin on that hole; the table's 'finish in
    the start hole' column agrees."""
    name = f"triangle-{side}"
    b, brute = board(name), brute_triangle_finals(side)
    for start, ends in brute.items():
        pos = b.start(str(start))
        for finish in range(1, b.size + 1):
            a = analyse(b, pos, finish=b.index(str(finish)))
            assert a.solvable is (finish in ends), (start, finish)
            if a.solvable:
                assert replay(b, pos, a.solution) == 1 << b.index(str(finish))
    rows = {int(r.hole): r for r in board_table(name)}
    assert {s: rows[s].home for s in brute} == {s: s in ends for s, ends in brute.items()}


def cross_class(holes: set[tuple[int, int]]) -> tuple[int, ...]:
    """The classic position class on a cross board, written here: colour (col + row) mod 3 and (col - row) mod 3;
    a jump changes the count on every colour of a colouring by one, so the parities of n0 + n1 and n1 + n2 stay."""
    out = []
    for colour in (lambda c, r: (c + r) % 3, lambda c, r: (c - r) % 3):
        n = [0, 0, 0]
        for c, r in holes:
            n[colour(c, r)] += 1
        out += [(n[0] + n[1]) % 2, (n[1] + n[2]) % 2]
    return tuple(out)


def test_finish_in_the_start_hole_on_the_crosses() -> None:
    """English: the centre game (empty d4, last coin on d4; Beasley 1985) is found, legal jump by jump under the
    rule written here. French: no start can finish in its own hole, by the class computed here, and the solver
    refuses every such goal."""
    b = board("english")
    d4 = b.index("d4")
    found = solve(b, b.start("d4"), finish=d4)
    assert found.jumps is not None
    holes = {(ord(x[0]) - 97, int(x[1:])) for x in b.labels if x != "d4"}
    for f, o, t in found.jumps:
        assert cross_jump_ok(holes, b.labels[f], b.labels[o], b.labels[t])
        for x, add in ((f, False), (o, False), (t, True)):
            cell = (ord(b.labels[x][0]) - 97, int(b.labels[x][1:]))
            (holes.add if add else holes.discard)(cell)
    assert holes == {(3, 4)}
    fr = board("french")
    every = {(ord(x[0]) - 97, int(x[1:])) for x in fr.labels}
    for label in fr.labels:
        cell = (ord(label[0]) - 97, int(label[1:]))
        assert cross_class(every - {cell}) != cross_class({cell}), label
        assert analyse(fr, fr.start(label), finish=fr.index(label)).solvable is False


# George Bell's catalogue of the 15-hole triangle's single vacancy to single survivor problems (gibell.net,
# pegsolitaire/Catalogs/Triangular15): vacate, finish, length of the shortest solution in moves (None:
# impossible). His holes are letter = place in the row, digit = row: a1 the apex, b3 the middle of row 3, a4 and
# d4 the ends of row 4, c5 the middle of row 5 (here 1, 5, 7, 10, 13).
BELL_TRIANGLE_5 = [
    ("a1", "a1", 10), ("b3", "a1", None), ("a4", "a1", 10), ("c5", "a1", 9),
    ("a1", "b3", None), ("b3", "b3", None), ("a4", "b3", None), ("c5", "b3", 10),
    ("a1", "c5", 10), ("b3", "c5", 11), ("a4", "c5", 10), ("c5", "c5", 9),
    ("a1", "a4", 11), ("b3", "a4", None), ("a4", "a4", 11), ("d4", "a4", 11), ("c5", "a4", 10),
]  # fmt: skip
