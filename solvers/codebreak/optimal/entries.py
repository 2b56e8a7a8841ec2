"""A long proof's settled sets as text, the form its checkpoints and the snapshots kept in git take: one JSON list
of table entries per line (fingerprint, fingerprint, cost, experiment), so that a file appended to part by part
stays readable when a run stops mid-line. Pure: the callers read and write the files."""

from __future__ import annotations

import json
from collections.abc import Iterable

from solvers.checkpoint import Entry

LINE = 1000  # entries per line of a rewritten file


def parse_entries(text: str) -> list[Entry]:
    """The entries of every line (a last line cut short by a crash, or any line not of entries, is skipped)."""
    out: list[Entry] = []
    for line in text.splitlines():
        try:
            out += [(int(a), int(b), int(c), int(d)) for a, b, c, d in json.loads(line)]
        except (ValueError, TypeError):
            continue
    return out


def format_entries(entries: Iterable[Entry]) -> str:
    """One entry per set (the last of a set's entries wins), sorted, LINE to a line."""
    rows = sorted({(e[0], e[1]): e for e in entries}.values())
    return "".join(json.dumps([list(e) for e in rows[i : i + LINE]]) + "\n" for i in range(0, len(rows), LINE))


def snapshot_name(game: str, pegs: int | None, colours: int | None, possible_only: bool) -> str:
    """The file name (without .jsonl.gz) under which a long proof's checkpoint and snapshot are kept: Mastermind's
    table sizes, and Super Mastermind's possible-only proof."""
    if possible_only:
        return f"{game}-possible"
    return f"{game}-{pegs}x{colours}"
