"""Æquitas (Burke et al., "Æquitas: Two-Player Counterfeit Coin Games", 2022): the paper's worked examples and tables
against exhaustive search.

The search is the source of truth; where the paper's formula differs, the test pins the searched value and
checks the certificate (the options and their values) by hand.
"""

from __future__ import annotations

import itertools
from functools import cache

import pytest

from solvers.aequitas import (
    CONVENTIONS,
    Convention,
    Goal,
    Position,
    agreement,
    best_move,
    cells,
    grundy,
    options,
    outcome,
    start,
)
from solvers.aequitas.game import grouped_moves
from solvers.aequitas.match import Match
from solvers.aequitas.play import realise, setup
from solvers.aequitas.report import start_verdict

NORMAL, MISERE_A, MISERE_B = CONVENTIONS


def test_example_n2() -> None:
    """Section 2, N = 2: D(1,1) has no informative weighing; D(2,0)'s only weighing reveals the fake."""
    assert options(start("D", 2, False, 1, False), "find") == ()
    (only,) = options(start("D", 2, False, 2, True), "find")
    assert only.goal_reached("find")


@pytest.mark.parametrize("light", [0, 3])
def test_example_n3_same_destiny(light: int) -> None:
    """Section 2, N = 3, all coins of one destiny, no extra coin: every move reveals the fake."""
    opts = options(start("D", 3, False, light, light == 3), "find")
    assert opts and all(o.goal_reached("find") for o in opts)


def test_example_n3_mixed_destinies_has_a_quiet_move() -> None:
    """N = 3 with mixed destinies: the paper says every weighing reveals the fake; search finds one that doesn't.

    Certificate: weigh the fake (heavy-destined) against a light-destined coin. The scale tips towards the fake;
    the light coin on the rising pan may still be the light fake, so two candidates remain (D(1,1) with one
    excluded coin): the Observer learned something, but not everything.
    """
    kids = options(start("D", 3, False, 1, False), "find")
    assert Position.make(0, 1, 1, 1, False) in kids
    assert not Position.make(0, 1, 1, 1, False).goal_reached("find")


def test_table_3_two_unknown_coins_with_extra() -> None:
    """Table 3: the three kinds of move from two unknown coins and an extra coin, and G = 2, 2, 1, 1."""
    p = start("F", 2, True)
    kids = {c.to_token() for c in options(p, "find")}
    assert kids == {"u0.l0.h1.g1.fH", "u1.l0.h0.g1.fU", "u0.l1.h1.g1.fH"}
    assert grundy(p, "find", NORMAL) == 2 and grundy(p, "identify", NORMAL) == 2
    assert grundy(p, "find", MISERE_B) == 1 and grundy(p, "identify", MISERE_B) == 1
    assert grundy(Position.make(0, 1, 1, 1, False), "find", NORMAL) == 1  # move 3 leads to D+(1,1)


@pytest.mark.parametrize("n", range(2, 13))
def test_lemma_1_destined_with_extra(n: int) -> None:
    """Lemma 1: G(D+) = N - 1 (normal), G(DM+) = N - 2 (misère, stop-before-reveal), every split and fake."""
    for light in range(n + 1):
        for fake_light in (False, True):
            if (fake_light and light == 0) or (not fake_light and light == n):
                continue
            p = start("D", n, True, light, fake_light)
            assert grundy(p, "find", NORMAL) == n - 1
            assert grundy(p, "find", MISERE_B) == n - 2


@pytest.mark.parametrize("n", range(2, 16))
def test_lemma_6_table_4_unknown_with_extra(n: int) -> None:
    """Lemma 6 / Table 4: F+ = FI+ = N, FM+ = FIM+ = N - 1 for N > 1."""
    p = start("F", n, True)
    assert grundy(p, "find", NORMAL) == n and grundy(p, "identify", NORMAL) == n
    assert grundy(p, "find", MISERE_B) == n - 1 and grundy(p, "identify", MISERE_B) == n - 1


@pytest.mark.parametrize("n", range(4, 20, 2))
def test_lemma_9_table_6_even(n: int) -> None:
    """Lemma 9 / Table 6 (N even, no extra coin): F = FI = 0, FM = FIM = N - 2."""
    p = start("F", n, False)
    assert grundy(p, "find", NORMAL) == 0 and grundy(p, "identify", NORMAL) == 0
    assert grundy(p, "find", MISERE_B) == n - 2 and grundy(p, "identify", MISERE_B) == n - 2


@pytest.mark.parametrize("n", range(3, 20, 2))
def test_lemma_10_table_8_odd_and_its_one_disagreement(n: int) -> None:
    """Lemma 10 / Table 8 (N odd): FI = 0, FM = FIM = 1 as printed; F is 2, not the printed 1.

    Certificate for F: the options include 'one unknown coin left' (the Observer has found it: value 0) and
    'two destined coins' (D+ with 2 coins: value 1 by Lemma 1), so mex >= 2; the paper's own Table 7 lists
    exactly these values.
    """
    p = start("F", n, False)
    assert grundy(p, "identify", NORMAL) == 0
    assert grundy(p, "find", MISERE_B) == 1 and grundy(p, "identify", MISERE_B) == 1
    values = {grundy(o, "find", NORMAL) for o in options(p, "find")}
    assert {0, 1} <= values and 2 not in values
    assert grundy(p, "find", NORMAL) == 2


def test_table_1_all_light() -> None:
    """Table 1 (D(N,0), no extra coin) holds for N >= 3; N = 1 is a finished game and N = 2 has value 1."""
    for n in range(3, 31):
        k, r = divmod(n, 4)
        normal = [2 * k, 2 * k + 1, 2 * k + 2, 2 * k + 1][r]
        p = start("D", n, False, n, True)
        assert grundy(p, "find", NORMAL) == normal
        assert grundy(p, "find", MISERE_B) == normal - 1
    assert grundy(start("D", 2, False, 2, True), "find", NORMAL) == 1  # the printed 2 exceeds mex{0}


def test_corollary_4_p_positions() -> None:
    """Corollary 4: even N with the fake the lone coin of its destiny is P; with a partner of its destiny, N."""
    for n in range(4, 21, 2):
        lone = start("D", n, False, 1, True)  # one light coin, and it is the fake
        assert outcome(lone, "find", NORMAL) == "P"
        shared = start("D", n, False, 1, False)  # one light coin, the fake among the heavy ones
        assert outcome(shared, "find", NORMAL) == "N"
    for n in (2, 3):
        assert outcome(start("D", n, False, n, True), "find", MISERE_B) == "P"


def test_corollary_7_one_move_wins() -> None:
    """Corollary 7: with an extra coin and N > 1, the first player wins at once."""
    for n in range(2, 12):
        p = start("F", n, True)
        child, _ = best_move(p, "find", NORMAL) or (None, None)
        assert child is not None and child.goal_reached("find")
        child_m, _ = best_move(p, "find", MISERE_B) or (None, None)
        assert child_m is not None and grundy(child_m, "find", MISERE_B) == 0


def brute_grundy(game: str, n: int, extra: bool, light: int, fake_light: bool, convention: str) -> int:
    """An independent Grundy value on concrete coins: the Observer's knowledge is the set of cases (coin,
    heavier) still possible; a move is any weighing of equal pans (coins 1..n and G1 if extra) that shrinks it;
    the result is what a real scale shows with the known fake. Written here from the rules, not the solver."""
    coins: list[int | str] = [*range(1, n + 1), *(["G1"] if extra else [])]
    if game == "D":
        cases = frozenset((c, c > light) for c in range(1, n + 1))
        fake = (1, False) if fake_light else (light + 1, True)
    else:
        cases = frozenset((c, h) for c in range(1, n + 1) for h in (True, False))
        fake = (1, True)
    identify = game == "FI"

    def done(k: frozenset[tuple[int, bool]]) -> bool:
        return len(k) == 1 if identify else len({c for c, _ in k}) == 1

    def shows(left: tuple[int | str, ...], right: tuple[int | str, ...], case: tuple[int, bool]) -> int:
        coin, heavier = case
        sign = 1 if heavier else -1
        return sign if coin in left else -sign if coin in right else 0

    @cache
    def value(k: frozenset[tuple[int, bool]]) -> int:
        kids = set()
        for size in range(1, len(coins) // 2 + 1):
            for left in itertools.combinations(coins, size):
                rest = [c for c in coins if c not in left]
                for right in itertools.combinations(rest, size):
                    seen = shows(left, right, fake)
                    after = frozenset(case for case in k if shows(left, right, case) == seen)
                    if after != k and not (convention == "misere-stop-before-reveal" and done(after)):
                        kids.add(after)
        if not kids:
            return 1 if convention == "misere-last-mover-loses" else 0
        return mex_of({value(kid) if not done(kid) else terminal() for kid in kids})

    def terminal() -> int:
        return 1 if convention == "misere-last-mover-loses" else 0

    def mex_of(values: set[int]) -> int:
        return min(set(range(len(values) + 1)) - values)

    return value(cases)


@pytest.mark.parametrize("convention", CONVENTIONS)
def test_grundy_agrees_with_a_concrete_brute_force(convention: Convention) -> None:
    """Every starting position with up to 5 coins (F, FI, every D), with and without the extra coin, has the
    value that an independent search on concrete coins and every weighing gives."""
    for n in range(1, 6):
        for extra in (False, True):
            for game in ("F", "FI"):
                goal: Goal = "identify" if game == "FI" else "find"
                p = start(game, n, extra)
                if options(p, goal):
                    assert grundy(p, goal, convention) == brute_grundy(game, n, extra, 0, False, convention)
            for light in range(n + 1):
                for fake_light in (False, True):
                    if (fake_light and light == 0) or (not fake_light and light == n):
                        continue
                    p = start("D", n, extra, light, fake_light)
                    if options(p, "find"):
                        found = brute_grundy("D", n, extra, light, fake_light, convention)
                        assert grundy(p, "find", convention) == found, (n, extra, light, fake_light)


def test_misere_readings_differ_and_the_paper_uses_stop_before_reveal() -> None:
    """The two misère readings give different tables; the paper's agrees with stop-before-reveal."""
    agree = agreement(cells(12))
    assert agree[MISERE_B][0] > 0.8 * agree[MISERE_B][1]
    assert agree[MISERE_A][0] < 0.2 * agree[MISERE_A][1]
    p = start("D", 5, True, 5, True)
    assert grundy(p, "find", MISERE_A) == 4 and grundy(p, "find", MISERE_B) == 3


def test_flagged_cells_carry_certificates() -> None:
    """Every disagreement lists the position's options, and each option's value is its own searched value."""
    for c in cells(8):
        if not c.agrees and c.paper is not None:
            listed = {(pos, v) for pos, v, _ in c.certificate()}
            options_ = {(kid.describe(), grundy(kid, c.goal, c.convention)) for kid in options(c.position, c.goal)}
            assert listed <= options_ and bool(listed) == bool(options_)


def test_options_are_the_positions_the_weighings_lead_to() -> None:
    """The memoised options (children computed without building weighings) are exactly the distinct positions
    that the listed weighings lead to, for every position of up to 12 candidates and 13 genuine coins."""
    from solvers.aequitas.game import moves

    checked = 0
    for u, l, h, g in itertools.product(range(13), range(13), range(13), range(14)):  # noqa: E741 - the paper's l
        if u and (l or h) or not 0 < u + l + h <= 12 or g > u + l + h:
            continue
        p = Position(u, l, h, g, u > 0)
        if u == 0 and h == 0:
            continue  # the fake is heavy-destined: some coin must be
        expected = set() if p.goal_reached("find") else {child for child, _ in moves(p)}
        assert set(options(p, "find")) == expected, p
        assert list(options(p, "find")) == sorted(expected)
        checked += 1
    assert checked > 800


def test_concrete_moves_reach_their_positions() -> None:
    """Every abstract move, realised on numbered coins, leads to the position it claims (N <= 7)."""
    for game in ("D", "F", "FI"):
        for n in range(1, 8):
            for extra in (False, True):
                for light in range(n + 1) if game == "D" else [0]:
                    for fake in range(1, n + 1):
                        t = setup(game, n, extra, light, fake, True)
                        pos, mirrored = t.position()
                        for child, _, move, _ in grouped_moves(pos, t.goal, NORMAL):
                            w = realise(t, move, mirrored)
                            assert t.refusal(w, NORMAL) is None
                            assert t.after(w).position()[0] == child


@pytest.mark.parametrize("n", [5, 6, 8])
def test_play_view_hints_follow_the_grundy_theorem(n: int) -> None:
    """The play page's hints list every move with its value (Sprague-Grundy): a position of nonzero value has a
    move to a zero, a zero position has none; each hint is a weighing of the table's coins."""
    from solvers.aequitas.match import Match
    from solvers.aequitas.report import play_view

    m = Match("D", n, False, n, 1, True, "normal", "you")
    view = play_view(m, (), hint=True)
    values = {h.grundy for h in view.hints}
    assert view.hints and (0 in values) == (view.value != 0)
    assert all(h.weighing.count(" against ") == 1 for h in view.hints) and view.recent == ()


@pytest.mark.parametrize("first", ["you", "computer"])
def test_the_start_verdict_follows_the_papers_lemmas(first: str) -> None:
    """Normal play: F with an even N >= 4 and FI with an odd N >= 3 have value 0 (Burke et al. 2022, Lemmas 9 and
    10), lost for the first player; F with an extra genuine coin has value N (Lemma 6), won for the first player;
    F with an odd N has value 2 (Table 7's options, see the test of Lemma 10 above), won. The player wins exactly
    when the first player wins and the player moves first, or loses and the player moves second."""
    cases = [("F", n, False, 0) for n in range(4, 13, 2)] + [("FI", n, False, 0) for n in range(3, 12, 2)]
    cases += [("F", n, True, n) for n in range(2, 10)] + [("F", n, False, 2) for n in range(3, 12, 2)]
    for game, n, extra, value in cases:
        v = start_verdict(Match(game, n, extra, 0, 1, True, "normal", first))  # type: ignore[arg-type]
        assert (v.value, v.first_wins) == (value, value != 0), (game, n, extra)
        assert v.you_win == (v.first_wins == (first == "you")) and v.you_first == (first == "you")


def test_what_the_observer_knows_in_plain_words() -> None:
    """No 'destined' and no 'viewed with the fake heavier': the coins' classes named as the weighing pages name
    them, light and heavy swapped back when the fake is lighter."""
    p = Position(0, 2, 1, 1, False)
    assert p.plain() == "2 coins that can only be light, 1 coin that can only be heavy, 1 known genuine"
    assert p.plain(mirrored=True) == "2 coins that can only be heavy, 1 coin that can only be light, 1 known genuine"
    assert Position(4, 0, 0, 0, True).plain() == "4 coins she knows nothing about, no coin known genuine"
    # one coin left that can be the fake: she knows it is (a visitor's tour read "1 coin she knows nothing about"
    # once game F was won)
    assert (
        Position(1, 0, 0, 1, True).plain(genuine=4)
        == "1 coin she knows is the fake (heavier or lighter), 4 known genuine"
    )
    assert Position(0, 1, 0, 1, False).plain(mirrored=True) == "1 coin she knows is the fake (heavier), 1 known genuine"


def test_the_play_page_model_is_made_without_flask() -> None:
    """F with 4 coins: at the start the player moves and no turn is judged; after the player's weighing and the
    computer's reply, the Grundy values before and after the player's weighing (0 before: every weighing leads to
    a non-zero value, Lemma 9); once over, the first-turn sentence says no win could be forced."""
    from solvers.aequitas.report import play_page

    m = Match("F", 4, False, 0, 1, True, "normal", "you")
    start = play_page(m, (), hint=False)
    assert start.to_move == "you" and start.grundy_step is None and start.your_weighings == 0
    t = m.start()
    _, move = best_move(t.position()[0], t.goal, "normal")  # type: ignore[misc]
    ws = m.play((), realise(t, move, t.position()[1]))
    after = play_page(m, ws, hint=False)
    assert after.grundy_step is not None and after.grundy_step[0] == 0 and after.grundy_step[1] != 0
    assert after.your_weighings == 1
    while play_page(m, ws, hint=False).view.over is None:
        t = m.replay(ws)[-1]
        _, move = best_move(t.position()[0], t.goal, "normal")  # type: ignore[misc]
        ws = m.play(ws, realise(t, move, t.position()[1]))
    end = play_page(m, ws, hint=False)
    assert end.first_turn == "you could not force a win against best play from your first turn (Grundy value 0)"


def test_the_table_view_places_every_cell_in_its_column() -> None:
    """The site's table up to 8 coins: per convention a row per N, each cell in the column of its game and extra
    coin (D with every coin light-destined), every computed cell of those columns placed once; below it, exactly
    the D(l, h) cells that disagree with the paper."""
    from solvers.aequitas.report import TABLE_COLUMNS, table_view

    rows = tuple(cells(8))
    view = table_view(rows, 8)
    for conv in CONVENTIONS:
        assert [n for n, _ in view.grid[conv]] == list(range(1, 9))
        placed = [c for _, row in view.grid[conv] for c in row if c is not None]
        for n, row in view.grid[conv]:
            for (game, extra), c in zip(TABLE_COLUMNS, row, strict=True):
                assert c is None or (c.convention, c.game, c.n, c.extra) == (conv, game, n, extra)
                assert c is None or c.game != "D" or c.light == n
        shown = [c for c in rows if c.convention == conv and (c.game != "D" or c.light == c.n)]
        assert sorted(map(id, placed)) == sorted(map(id, shown))
        assert view.flagged[conv] == [c for c in rows if c.convention == conv and c.game == "D" and not c.agrees]
    assert view.agree == agreement(list(rows))
