"""The one reader of whole numbers given as text (URL fields, form fields, command-line arguments, settings):
ASCII digits only. `str.isdigit` also takes superscripts and other scripts' digits, which `int` then refuses
('²') or reads ('٣' as 3)."""

from __future__ import annotations

MOST_DIGITS = 9  # below a billion: no field of the site or the command line takes more


def whole_number(text: str, most_digits: int = MOST_DIGITS) -> int | None:
    """The whole number written in ASCII digits (surrounding spaces allowed), or None for anything else."""
    digits = text.strip(" \t")
    if not digits or len(digits) > most_digits or not digits.isascii() or not digits.isdigit():
        return None
    return int(digits)
