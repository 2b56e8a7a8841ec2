"""Game rules that the pages play by, tested in the solvers: turns, replies, verdicts, hidden tables and makers."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from solvers.aequitas.match import Match
from solvers.codebreak import Game, build, parse
from solvers.codebreak.play import adversary_score, code_index, follow, play_round, suggestions
from solvers.codebreak.strategy import build_tree
from solvers.devil import DevilVariant, adversarial_sizes, flip_mask, lamping, random_play, won_at
from solvers.errors import IllegalMoveError, InputError, LimitError
from solvers.pegs import board, game_from_text
from solvers.weighing import Problem
from solvers.weighing.adversary import end_game, replay
from solvers.weighing.case import Case
from solvers.weighing.knowledge import parse_weighings
from webapp.results.games import GAMES_DIR


def test_random_devil_that_never_turns_is_plain_xor() -> None:
    """With the identity turn every time, the hidden table is just flipped by each move."""
    v = DevilVariant(4)
    won, table = random_play(v, 0b0110, (0b0010, 0b0100), lambda i: 0)
    assert won == 2 and table == 0
    won, table = random_play(v, 0b0110, (0b0001,), lambda i: 0)
    assert won is None and table == 0b0111


def test_lamping_beats_every_random_devil() -> None:
    """Lamping's 15 moves for N = 4 win from every hidden table whatever the Devil turns."""
    v = DevilVariant(4)
    moves = tuple(lamping(4))
    for table in range(1, 16):
        for shift in range(4):
            won, _ = random_play(v, table, moves, lambda i, s=shift: (i * s) % 4)
            assert won is not None


def test_adversarial_devil_keeps_tables_alive_until_the_end() -> None:
    """Against the adversarial Devil the game is won exactly after the last move of a sure win."""
    sizes = adversarial_sizes(DevilVariant(2), (3, 1, 3))
    assert won_at(sizes) == 3 and all(s > 0 for s in sizes[:-1])


@pytest.mark.parametrize("places", [["4"], ["\u00b2"], ["-1"], ["x"], []])
def test_flip_places_must_exist(places: list[str]) -> None:
    """Places are ASCII numbers 0..N-1, and a move flips at least one (the search's moves are never empty)."""
    with pytest.raises(InputError):
        flip_mask(DevilVariant(4), places)


def test_aequitas_turns_alternate_and_the_computer_replies() -> None:
    """F_4, the player first: after the player's weighing the computer answers; playing out of turn is refused."""
    m = Match("F", 4, False, 0, 1, True, "normal", "you")
    assert [m.mover(i) for i in range(4)] == ["you", "computer", "you", "computer"]
    after = m.play((), parse_weighings("3-4")[0])
    assert len(after) in (1, 2) and after[0] == ((3,), (4,))
    if len(after) == 2:
        with pytest.raises(IllegalMoveError):
            m.play(after[:1], parse_weighings("1-2")[0])


def test_aequitas_revealing_weighing_ends_the_game() -> None:
    """D(2,0) with the fake coin 1: the only weighing reveals it; under normal play its maker wins."""
    m = Match("D", 2, False, 2, 1, False, "normal", "you")
    w = parse_weighings("1-2")[0]
    t = m.replay((w,))[-1]
    verdict = m.verdict(t, 1)
    assert verdict is not None and verdict.winner == "you"
    misere = Match("D", 2, False, 2, 1, False, "misere-last-mover-loses", "you")
    later = misere.verdict(misere.replay((w,))[-1], 1)
    assert later is not None and later.winner == "computer"


def test_weighings_that_are_not_moves_are_refused() -> None:
    """An empty weighing, and one that tells the Observer nothing, are not moves."""
    m = Match("D", 3, False, 3, 1, False, "normal", "you")
    with pytest.raises(IllegalMoveError):
        m.play((), ((), ()))
    d21 = Match("D", 2, False, 1, 1, False, "normal", "you")  # one light-, one heavy-destined coin
    with pytest.raises(IllegalMoveError):
        d21.play((), parse_weighings("1-2")[0])


def test_guess_on_honest_scale_names_the_secret() -> None:
    """The honest scale: a guess wins when it names the secret, even if it was not yet sure."""
    r = replay(
        Problem(12),
        3,
        parse_weighings("1,2,3,4-5,6,7,8"),
        lambda c, w: __import__("solvers.weighing.knowledge", fromlist=["honest_outcome"]).honest_outcome(
            w, Case(9, True)
        ),
    )
    lucky = end_game(r, Case(9, True), Case(9, True))
    assert lucky.win and not lucky.sure
    wrong = end_game(r, Case(10, True), Case(9, True))
    assert not wrong.win and wrong.counter == Case(9, True)


def mastermind(pegs: int, colours: int) -> Game:
    """A small Mastermind built from the shipped rules."""
    return build(parse((GAMES_DIR / "mastermind.game").read_text()), {"length": pegs, "colours": colours})


def test_adversarial_maker_keeps_the_largest_part() -> None:
    """The adversarial code maker's score leaves the most secrets, checked by counting scores in the test."""
    g = mastermind(2, 4)
    alive = np.arange(len(g.secrets))
    for e in range(len(g.secrets)):
        counts = Counter(int(x) for x in g.table[e, alive])
        score = adversary_score(g, alive, e)
        others = {o: k for o, k in counts.items() if o != g.win_outcome}
        assert counts[score] == max(others.values())


def test_a_round_stops_at_the_win() -> None:
    """Guessing the secret wins; a further guess is refused; more than twelve guesses are refused."""
    g = mastermind(2, 4)
    secret = code_index(g, "AB")
    r = play_round(g, (code_index(g, "AA"), secret), secret)
    assert r.won and r.alive.tolist() == [secret]
    with pytest.raises(IllegalMoveError):
        play_round(g, (secret, secret), secret)
    with pytest.raises(LimitError):
        play_round(g, (0,) * 13)
    assert set(suggestions(g, r).values()) == {"AB"}


def test_suggestions_follow_a_stored_tree_or_compute() -> None:
    """Where the guesses so far are a heuristic's own, its tree's next node is its suggestion; elsewhere the
    heuristic itself is asked, and the two agree."""
    g = mastermind(3, 4)
    tree = build_tree(g, "knuth")
    first = tree.experiment
    assert first is not None
    secret = code_index(g, "DCB")
    r = play_round(g, (first,), secret)
    from_tree = suggestions(g, r, {"knuth": tree})["knuth"]
    computed = suggestions(g, r)["knuth"]
    assert from_tree == computed


def test_suggestions_past_the_work_budget_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    """Off its tree, a heuristic that would score more pairs than a request may afford gives no suggestion (None)
    instead of minutes of work; on its tree it still answers at once."""
    import solvers.codebreak.play as play_module

    g = mastermind(3, 4)
    tree = build_tree(g, "knuth")
    r = play_round(g, (code_index(g, "AAA"),), code_index(g, "DCB"))
    monkeypatch.setattr(play_module, "HINT_WORK", len(g.experiments) * r.alive.size - 1)
    assert suggestions(g, r)["knuth"] is None
    start = play_round(g, (), code_index(g, "DCB"))
    assert suggestions(g, start, {"knuth": tree})["knuth"] == g.experiments[tree.experiment or 0]


def test_following_a_tree_refuses_impossible_feedback() -> None:
    """Real feedback leads down the tree; feedback no remaining secret gives is a contradiction."""
    g = mastermind(2, 4)
    root = build_tree(g, "knuth")
    first = g.outcome_names[min(root.children)]
    assert follow(g, root, [first]) is root.children[min(root.children)]
    impossible = next(o for i, o in enumerate(g.outcome_names) if i not in root.children)
    with pytest.raises(IllegalMoveError):
        follow(g, root, [impossible])


def test_peg_game_checks_every_jump() -> None:
    """Jumps from the URL text are checked by the rules; a won game and a dead one are told apart."""
    b = board("triangle-4")
    with pytest.raises(IllegalMoveError):
        game_from_text(b, "1", "4-1,4-1")
    with pytest.raises(InputError):
        game_from_text(b, "1", "4+1")
    g = game_from_text(b, "1", "")
    assert not g.won and not g.dead and g.then(g.jumps[0] if g.jumps else (3, 1, 0)).back() == g


def test_a_trees_top_gives_the_same_suggestions(monkeypatch: pytest.MonkeyPatch) -> None:
    """The web keeps only a tree's expensive top: at every node of Knuth's 3x4 tree the top (cut at 5 secrets)
    suggests what the whole tree does, and it holds fewer nodes."""
    import solvers.codebreak.play as play_module
    from solvers.codebreak.tree import Node

    g = mastermind(3, 4)
    tree = build_tree(g, "knuth")
    monkeypatch.setattr(play_module, "QUICK_HINT", 5 * len(g.experiments))
    cut = play_module.top(g, tree)

    def nodes(n: Node | None) -> int:
        return 0 if n is None or n.experiment is None else 1 + sum(nodes(c) for c in n.children.values())

    assert 0 < nodes(cut) < nodes(tree)
    checked = 0
    todo: list[tuple[Node, tuple[int, ...], tuple[int, ...]]] = [(tree, (), ())]
    while todo:
        node, guesses, outcomes = todo.pop()
        if node.experiment is None:
            continue
        alive = np.arange(len(g.secrets))
        for e, o in zip(guesses, outcomes, strict=True):
            alive = alive[g.outcomes(e, alive) == o]
        r = play_module.Round(guesses, outcomes, alive, False)
        assert suggestions(g, r, {"knuth": cut})["knuth"] == g.experiments[node.experiment]
        checked += 1
        for o, child in node.children.items():
            if child is not None:
                todo.append((child, (*guesses, node.experiment), (*outcomes, o)))
    assert checked == nodes(tree)
