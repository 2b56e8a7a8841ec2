"""The table of proved sets shared by a split proof's processes (`rules.new_memo(shared=True)`, `sets.seal`): what a
forked process records, the others read; an entry whose fields two processes wrote at once reads as absent, and is
never kept in a checkpoint."""

from __future__ import annotations

import multiprocessing

import numpy as np

from solvers.codebreak.optimal.rules import new_memo
from solvers.codebreak.optimal.sets import look, record, slot


def test_a_forked_process_records_what_the_parent_reads() -> None:
    memo = new_memo(1 << 10, 10**6, shared=True)
    h1, h2 = np.uint64(12345), np.uint64(67890)
    assert not look(memo, h1, h2)[0]

    def child() -> None:
        record(memo, h1, h2, np.int64(77), True, 5)

    process = multiprocessing.get_context("fork").Process(target=child)
    process.start()
    process.join()
    assert process.exitcode == 0
    held, value, exact, choice = look(memo, h1, h2)
    assert held and value == 77 and exact and choice == 5
    private = new_memo(1 << 10, 10**6)
    process = multiprocessing.get_context("fork").Process(target=lambda: record(private, h1, h2, 77, True, 5))
    process.start()
    process.join()
    assert not look(private, h1, h2)[0]  # a table of its own: the child's copy


def test_an_entry_written_by_two_processes_at_once_reads_as_absent() -> None:
    """Each field of another set's entry written over one field at a time, as two processes writing the same slot at
    once may leave it: every mixture fails the seal."""
    memo = new_memo(1 << 10, 10**6, shared=True)
    a1, a2, b2 = np.uint64(1 << 20), np.uint64(99), np.uint64(7)
    record(memo, a1, a2, np.int64(40), True, 3)
    at = slot(memo, a1, a2)
    fields = (memo.value, memo.exact, memo.choice, memo.k2)
    other = (41, False, 4, b2)  # the same slot: another set of the same home (the same first key)
    for field, mixed in zip(fields, other, strict=True):
        kept = field[at]
        field[at] = mixed
        held, value, _, _ = look(memo, a1, a2)
        assert not held, f"a mixture read as held, value {value}"
        field[at] = kept
    assert look(memo, a1, a2)[:2] == (True, 40)


def test_a_mixed_entry_is_never_kept_in_a_checkpoint() -> None:
    from pathlib import Path

    from solvers.codebreak import build, parse
    from solvers.codebreak.optimal.average_search import KEEP_MIN_COST, AverageSearch

    games = Path(__file__).resolve().parents[2] / "games"
    g = build(parse((games / "mastermind.game").read_text()), {"length": 3, "colours": 3})
    search = AverageSearch(g)
    kept: list[tuple[int, int, int, int]] = []
    search.keep = kept.extend
    whole, torn = (np.uint64(11), np.uint64(12)), (np.uint64(21), np.uint64(22))
    for h1, h2 in (whole, torn):
        record(search.memo, h1, h2, np.int64(KEEP_MIN_COST + 1), True, 2)
    search.memo.value[slot(search.memo, *torn)] += 1  # its value rewritten without its seal
    assert search.keep_new(every=True) == 1
    assert kept == [(11, 12, KEEP_MIN_COST + 1, 2)]
