"""A precompute job of a long proof keeps its settled parts in the result store (a real SQLite store here), so a job
stopped part-way resumes from them: the second run adopts what the first kept, proves the same optimum with a tree
that verifies, and the checkpoint is removed once the result is stored."""

from __future__ import annotations

from pathlib import Path

import pytest

from webapp import computations
from webapp.codebreak_results import CODEBREAK, codebreak_params
from webapp.computations import StoreCheckpoint, stored, work
from webapp.store import open_store


class Stopped(Exception):
    """The job's process stopped (a restart, a crash)."""


def test_a_stopped_job_resumes_from_its_checkpoint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Mastermind 4x4's optimal average (905, Goddard 2004): the first run stops after keeping two parts; the
    second adopts them and finishes; the stored tree verifies at 905; the checkpoint is gone."""
    store = open_store(f"sqlite:{tmp_path / 'store.sqlite'}", [b"k" * 32])
    params = codebreak_params("mastermind", (4, 4, None), "optimal-average")
    key = CODEBREAK.key(params)
    keep, known = StoreCheckpoint.keep, StoreCheckpoint.known
    kept: list[int] = []
    adopted: list[int] = []

    def stop_after_two(self: StoreCheckpoint, entries: list[computations.Entry]) -> None:
        keep(self, entries)
        kept.append(len(entries))
        if len(kept) == 2:
            raise Stopped

    def counted(self: StoreCheckpoint) -> list[computations.Entry]:
        found = known(self)
        adopted.append(len(found))
        return found

    monkeypatch.setattr(StoreCheckpoint, "keep", stop_after_two)
    with pytest.raises(Stopped):
        work(store, CODEBREAK, params)
    assert stored(store, CODEBREAK, params) is None
    assert len(StoreCheckpoint(store, key).known()) == sum(kept) > 0
    monkeypatch.setattr(StoreCheckpoint, "keep", keep)
    monkeypatch.setattr(StoreCheckpoint, "known", counted)
    work(store, CODEBREAK, params)
    assert adopted == [sum(kept)]  # the second run started from the parts the first kept
    found = stored(store, CODEBREAK, params)
    assert found is not None
    _, stats = found
    assert stats.verified and stats.total == 905
    assert store.get(key + ":checkpoint") is None
