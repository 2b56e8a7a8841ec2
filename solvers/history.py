"""One undo chain per game, as Simon Tatham's puzzles keep it: every move and every restart in order, and how many
of them are in effect; the ones after that can be redone. A restart is an entry of its own, so it can be undone
like a move. A new move after some undos drops the entries that could have been redone.

The chain's text form is what URLs carry: the entries comma-separated (a restart is `RESTART`) and the number in
effect (`at`; omitted when every entry is)."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import InputError, LimitError
from .numbers import whole_number

RESTART = "restart"
TAKE_BACK = "undo"  # in a forward-only game's log: the last move in effect taken back (and counted)
MOVES = "moves"  # every game's list of moves in its URLs (and in its forms)
MAX_ENTRIES = 200


@dataclass(frozen=True)
class Chain:
    """The entries (moves as their game writes them, and restarts) and how many are in effect."""

    entries: tuple[str, ...] = ()
    at: int = 0
    undos: int = 0  # how many times an entry was taken back (shown in the history and the result)

    @property
    def applied(self) -> tuple[str, ...]:
        """The moves in effect: those after the last restart in effect."""
        live = self.entries[: self.at]
        start = max((i + 1 for i, e in enumerate(live) if e == RESTART), default=0)
        return live[start:]

    @property
    def can_undo(self) -> bool:
        """Whether an entry is in effect."""
        return self.at > 0

    @property
    def can_redo(self) -> bool:
        """Whether an undone entry can be made again."""
        return self.at < len(self.entries)

    def play(self, move: str) -> Chain:
        """A move made now (the entries that could have been redone are dropped)."""
        return Chain((*self.entries[: self.at], move), self.at + 1, self.undos)

    def restart(self) -> Chain:
        """Back to the start, as an entry that can be undone (nothing to do when no move is in effect)."""
        return self.play(RESTART) if self.applied else self

    def undo(self) -> Chain:
        """The last entry in effect taken back."""
        return Chain(self.entries, self.at - 1, self.undos + 1) if self.at else self

    def redo(self) -> Chain:
        """The next undone entry made again."""
        return Chain(self.entries, self.at + 1, self.undos) if self.can_redo else self

    def shared(self) -> Chain:
        """The position alone, as a share link gives it: its moves in effect, no undo history or take-backs."""
        return Chain(self.applied, len(self.applied))

    def states(self) -> list[tuple[str, ...]]:
        """The moves in effect after each entry (index 0: none), so that a game can check every state once."""
        return [Chain(self.entries, k).applied for k in range(len(self.entries) + 1)]

    def query(self, key: str = MOVES, sep: str = ",") -> dict[str, str]:
        """The URL fields: the entries (under key, joined by sep) and, when some are undone, how many are in
        effect, and the take-backs made."""
        out = {key: sep.join(self.entries)}
        if self.at < len(self.entries):
            out["at"] = str(self.at)
        if self.undos:
            out["u"] = str(self.undos)
        return out


def from_log(log: tuple[str, ...]) -> Chain:
    """The chain of a game played forward only (a hidden secret): its log of moves and take-backs, appended to and
    never rewritten, so every take-back stays in the history and is counted; a move taken back is made again by
    playing it again."""
    chain = Chain()
    for entry in log:
        if entry == RESTART:
            raise InputError("a game with a hidden secret is played forward: no restart")
        chain = chain.undo() if entry == TAKE_BACK else chain.play(entry)
    return Chain(chain.entries[: chain.at], chain.at, chain.undos)


def log_from_text(text: str, sep: str = ",") -> tuple[str, ...]:
    """A forward-only game's log from its URL field (at most MAX_ENTRIES moves and take-backs)."""
    return chain_from_text(text, sep=sep).entries


def positions_in_log(log: tuple[str, ...]) -> list[int]:
    """Where a forward-only game's earlier positions are in its log: for k from 0 to the number of moves in
    effect, the length of the log's prefix whose moves in effect are the first k of the log's (the prefix ending
    with the entry that made the k-th), so a link to an earlier position is a prefix of the record."""
    made: list[int] = []
    for i, entry in enumerate(log):
        if entry == TAKE_BACK:
            if made:
                made.pop()
        elif entry != RESTART:
            made.append(i + 1)
    return [0, *made]


def taken_back(log: tuple[str, ...]) -> list[str]:
    """The moves a forward-only game's log took back, in the order they were taken back."""
    applied: list[str] = []
    out: list[str] = []
    for entry in log:
        if entry == TAKE_BACK:
            if applied:
                out.append(applied.pop())
        else:
            applied.append(entry)
    return out


def chain_from_text(text: str, at: str = "", undos: str = "", sep: str = ",") -> Chain:
    """A chain from its URL fields: the entries (separated by sep), how many are in effect (all when empty) and
    how many take-backs were made (none when empty)."""
    entries = tuple(e.strip() for e in text.split(sep) if e.strip())
    if len(entries) > MAX_ENTRIES:
        raise LimitError(f"at most {MAX_ENTRIES} moves and restarts in a game's history")
    return Chain(entries, _count(at, "at", len(entries), len(entries)), _count(undos, "u", 0, 10**6))


def _count(text: str, name: str, empty: int, most: int) -> int:
    """A whole number from 0 to most given in a URL field (empty: the default)."""
    if not text:
        return empty
    value = whole_number(text)
    if value is None or value > most:
        raise InputError(f"{name}={text[:12]!r}: expected a whole number from 0 to {most:,}")
    return value
