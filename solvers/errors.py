"""One error family for every solver: what a solver refuses, with a message meant for people.

The web layer answers any `PuzzleError` with a 4xx and the command line with exit status 2, so a new error
type can never become a 500 or a traceback.
"""

from __future__ import annotations

import re
from typing import TypeVar

Word = TypeVar("Word", bound=str)


class PuzzleError(ValueError):
    """Anything a solver refuses; `detail` carries the offending input, shortened, for JSON errors."""

    def __init__(self, message: str, detail: object = None) -> None:
        """Keep the message and the detail."""
        super().__init__(message)
        self.detail = detail

    @property
    def message(self) -> str:
        """The message meant for people."""
        return str(self.args[0]) if self.args else ""


class Paused(Exception):
    """A search stopped part-way (`solvers.halt.halt`), not a refusal: `frames` holds where each of its running
    parts stood (`rules.saved` records, which a checkpoint keeps: `FrameCheckpoint.pause`)."""

    def __init__(self, frames: list[tuple[int, ...]]) -> None:
        super().__init__(f"stopped part-way; {len(frames)} part(s) kept where they stood")
        self.frames = frames


class InputError(PuzzleError):
    """Malformed or out-of-range input: a number, a name, a token, a game file."""


class LimitError(PuzzleError):
    """Valid input that is larger than this tool searches or holds."""


class IllegalMoveError(PuzzleError):
    """A move, weighing or guess that the rules of the game do not allow here."""


def one_of(raw: str, options: tuple[Word, ...], name: str) -> Word:
    """raw as one of a fixed set of words (typed as the set's own literal type); InputError naming the set."""
    for option in options:
        if raw == option:
            return option
    raise InputError(f"{name} must be one of: {', '.join(options)}", {name: raw[:40]})


def token_match(pattern: re.Pattern[str], token: str, what: str, example: str) -> re.Match[str]:
    """The pattern's match of the whole token, or InputError: 'a {what} token looks like {example}'."""
    m = pattern.fullmatch(token)
    if not m:
        raise InputError(f"a {what} token looks like {example}", token[:40])
    return m
