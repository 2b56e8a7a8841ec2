"""Reading the command line's arguments, shared by the puzzle subcommands (`cli`) and the site's (`admin`)."""

from __future__ import annotations

from solvers.errors import InputError
from solvers.numbers import whole_number


def whole(raw: str, name: str) -> int:
    """A whole-number argument (ASCII digits only)."""
    value = whole_number(raw)
    if value is None:
        raise InputError(f"{name} must be a whole number, not {raw[:20]!r}")
    return value
