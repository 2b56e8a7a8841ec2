"""Reading the command line's arguments, shared by the puzzle subcommands (`cli`) and the site's (`admin`)."""

from __future__ import annotations

from solvers.errors import InputError


def whole(raw: str, name: str) -> int:
    """A whole-number argument (ASCII digits only)."""
    text = raw.strip()
    if not text.isascii() or not text.isdigit() or len(text) > 9:
        raise InputError(f"{name} must be a whole number, not {raw[:20]!r}")
    return int(text)
