"""The undo chain (Tatham's model): undo and redo walk it, a restart is undone like a move, a new move drops
what could have been redone, and the URL form round-trips."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solvers.errors import InputError, LimitError
from solvers.history import (
    MAX_ENTRIES,
    RESTART,
    TAKE_BACK,
    Chain,
    chain_from_text,
    from_log,
    log_from_text,
    positions_in_log,
    taken_back,
)

ACTIONS = st.lists(st.sampled_from(["a", "b", "c", "undo", "redo", "restart"]), max_size=30)


def run(actions: list[str]) -> tuple[Chain, list[list[str]]]:
    """The chain after actions, and the moves in effect after each, kept by a plain list model: the history of
    positions and a cursor into it (a restart is a position like any other)."""
    chain, positions, cursor = Chain(), [[]], 0
    seen = []
    for a in actions:
        if a == "undo":
            chain, cursor = chain.undo(), max(0, cursor - 1)
        elif a == "redo":
            chain, cursor = chain.redo(), min(len(positions) - 1, cursor + 1)
        elif a == "restart":
            if positions[cursor]:
                positions, cursor = [*positions[: cursor + 1], []], cursor + 1
            chain = chain.restart()
        else:
            positions, cursor = [*positions[: cursor + 1], [*positions[cursor], a]], cursor + 1
            chain = chain.play(a)
        seen.append(list(chain.applied))
        assert list(chain.applied) == positions[cursor]
    return chain, seen


@given(ACTIONS)
def test_the_chain_matches_a_list_of_positions(actions: list[str]) -> None:
    """After any actions the moves in effect are those of the plain model; undo then redo changes nothing."""
    chain, _ = run(actions)
    if chain.can_undo:
        assert chain.undo().redo().applied == chain.applied
    if chain.can_redo:
        assert chain.redo().undo().applied == chain.applied


@given(ACTIONS)
def test_the_url_form_round_trips(actions: list[str]) -> None:
    """What a URL carries gives the same chain back."""
    chain, _ = run(actions)
    q = chain.query()
    assert chain_from_text(q["moves"], q.get("at", ""), q.get("u", "")) == chain


def test_a_restart_is_undone_like_a_move() -> None:
    """Two moves, a restart, then undo: the two moves are back; redo restarts again; undo counts take-backs."""
    chain = Chain().play("a").play("b").restart()
    assert chain.applied == () and chain.entries == ("a", "b", RESTART)
    assert chain.undo().applied == ("a", "b") and chain.undo().redo().applied == ()
    assert chain.undo().undo().undos == 2 and Chain().restart() == Chain()


def test_a_new_move_drops_the_redo_entries() -> None:
    """Undo twice, then move: the two undone moves cannot be redone."""
    chain = Chain().play("a").play("b").play("c").undo().undo().play("d")
    assert chain.entries == ("a", "d") and not chain.can_redo


@pytest.mark.parametrize(("j", "at", "message"), [("a,b", "3", "at='3'"), ("a", "x", "at='x'"), ("a", "-1", "at")])
def test_bad_url_fields(j: str, at: str, message: str) -> None:
    """A cursor outside the chain is refused with the field named."""
    with pytest.raises(InputError, match=message):
        chain_from_text(j, at)


def test_a_long_chain_is_refused() -> None:
    """The chain's length is bounded."""
    with pytest.raises(LimitError):
        chain_from_text(",".join(["a"] * (MAX_ENTRIES + 1)))


def test_a_forward_only_log_counts_its_take_backs() -> None:
    """A hidden game's log: moves and take-backs appended; the moves in effect and the take-backs made."""
    chain = from_log(("a", "b", TAKE_BACK, "c", TAKE_BACK, TAKE_BACK, "d"))
    assert chain.applied == ("d",) and chain.undos == 3 and not chain.can_redo
    assert from_log((TAKE_BACK,)).applied == ()  # nothing to take back: counted, nothing changes
    with pytest.raises(InputError, match="no restart"):
        from_log(("a", RESTART))


@given(st.lists(st.sampled_from(["a", "b", "c", TAKE_BACK]), max_size=30))
def test_earlier_positions_of_a_log_are_its_prefixes(log: list[str]) -> None:
    """Each earlier position of a forward-only game (the first k moves in effect) is a prefix of its log, and the
    moves taken back are those a plain stack model pops."""
    entries = tuple(log)
    applied = from_log(entries).applied
    cuts = positions_in_log(entries)
    assert len(cuts) == len(applied) + 1 and cuts[0] == 0 and cuts == sorted(cuts)
    for k, cut in enumerate(cuts):
        assert from_log(entries[:cut]).applied == applied[:k]
    stack: list[str] = []
    popped: list[str] = []
    for e in entries:
        if e != TAKE_BACK:
            stack.append(e)
        elif stack:
            popped.append(stack.pop())
    assert taken_back(entries) == popped and tuple(stack) == applied
    assert log_from_text(";".join(entries), ";") == entries
