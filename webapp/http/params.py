"""Parse and validate query or form parameters into solver values; errors become clear 400s."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from flask import request

from solvers.errors import InputError, Word, one_of
from solvers.history import MOVES
from solvers.numbers import whole_number
from solvers.variants.model import MAX_LIES, MAX_PANS, VARIANT_MAX_COINS, Variant
from solvers.weighing import GOALS, MAX_COINS, OBJECTIVES, WEIGHTS, Objective, Problem
from solvers.weighing.knowledge import UserWeighing, parse_weighings

_TRUE = {"1", "true", "on", "yes"}
_FALSE = {"", "0", "false", "off", "no"}


MAX_HINTS = 10**6  # the hints a game counts (the field h)
View = TypeVar("View", bound=Callable[..., Any])


def takes(parameters: str) -> Callable[[View], View]:
    """An API answer's parameters (their names, separated by spaces), named once beside its view: any other name in
    the query is refused with a 400 that names it and those taken, so that a misspelt one (colors=8) is never answered
    as if it had not been given; so is one given twice (which would count is not guessed)."""
    names = tuple(parameters.split())

    def wrap(view: View) -> View:
        @functools.wraps(view)
        def checked(*args: Any, **kwargs: Any) -> Any:
            unknown = sorted(set(request.args) - set(names))
            if unknown:
                taken = ", ".join(names) or "no parameters"
                said = [name[:40] for name in unknown[:10]]
                raise InputError(f"unknown parameter {said[0]!r}: {request.path} takes {taken}", said)
            twice = sorted(k for k, values in request.args.lists() if len(values) > 1)
            if twice:  # (the first was read, the others silently dropped)
                raise InputError(f"parameter {twice[0][:40]!r} is given more than once", [k[:40] for k in twice[:10]])
            return view(*args, **kwargs)

        checked.takes = names  # type: ignore[attr-defined]  # (read by the tests: tests/web/test_api.py)
        return checked  # type: ignore[return-value]

    return wrap


def hints_used(args: Mapping[str, str]) -> int:
    """The hints a game has used so far (the field h, every game's), checked."""
    return whole(args, "h", 0, 0, MAX_HINTS, "h")


def hints(args: Mapping[str, str]) -> str:
    """The hint count a page or a form carries on (the field h), checked: '' for none (a form's h went into its
    redirect as it came, 17,000 characters of it made a 502)."""
    n = hints_used(args)
    return str(n) if n else ""


def whole(args: Mapping[str, str], name: str, default: int | None, lo: int, hi: int, label: str) -> int:
    """A whole number parameter within [lo, hi]."""
    raw = args.get(name)
    if raw is None or (raw == "" and default is not None):
        if default is None:
            raise InputError(f"{label} is required")
        return default
    value = whole_number(raw)
    if value is None or not lo <= value <= hi:
        raise InputError(f"{label} must be a whole number from {lo:,} to {hi:,}", {name: raw[:40]})
    return value


def flag(args: Mapping[str, str], name: str) -> bool:
    """A yes/no parameter (1/0, true/false, on/off)."""
    raw = args.get(name, "").strip().lower()
    if raw in _TRUE:
        return True
    if raw in _FALSE:
        return False
    raise InputError(f"{name} must be 1 or 0", {name: raw[:40]})


def choice(args: Mapping[str, str], name: str, options: tuple[Word, ...]) -> Word:
    """One of a fixed set of words; the first is the default."""
    return one_of(args.get(name) or options[0], options, name)


def problem(args: Mapping[str, str]) -> Problem:
    """The weighing problem named by n, weight, goal, extra and maybe_none."""
    n = whole(args, "n", None, 1, MAX_COINS, "The number of coins (n)")
    extra = whole(args, "extra", 0, 0, MAX_COINS, "The number of extra genuine coins")
    weight = choice(args, "weight", WEIGHTS)
    goal = choice(args, "goal", GOALS)
    try:
        return Problem(n, weight, goal, extra, flag(args, "maybe_none"))
    except InputError as e:
        raise InputError(str(e)) from e


def objective(args: Mapping[str, str]) -> Objective:
    """'worst' (default) or 'average'."""
    return choice(args, "objective", OBJECTIVES)


def query(p: Problem, obj: Objective, **more: str) -> dict[str, str]:
    """The canonical query parameters for a problem (what URLs carry)."""
    base = {
        "n": str(p.coins),
        "weight": p.weight,
        "goal": p.goal,
        "extra": str(p.extra),
        "maybe_none": str(int(p.maybe_none)),
        "objective": obj,
    }
    return {**base, **more}


def moves_text(args: Mapping[str, str], before: str) -> str:
    """A game's list of moves from its URL or form: under `moves`, every game's name for it, or under the name the
    game used before (`before`), so that old links, bookmarks and open pages keep working."""
    if MOVES in args and before != MOVES and before in args:
        raise InputError(f"give the moves as {MOVES} or as {before} (the older name), not both")
    return args[MOVES] if MOVES in args else args.get(before, "")


def variant(args: Mapping[str, str]) -> Variant:
    """The variant named by n, weight, lies, fakes and pans."""
    n = whole(args, "n", None, 1, VARIANT_MAX_COINS, "The number of coins (n)")
    lies = whole(args, "lies", 0, 0, MAX_LIES, "lies")
    fakes = whole(args, "fakes", 1, 1, 2, "fakes")
    pans = whole(args, "pans", 2, 2, MAX_PANS, "pans")
    return Variant(n, choice(args, "weight", WEIGHTS), lies, fakes, pans)


def weighings_arg(args: Mapping[str, str]) -> tuple[UserWeighing, ...]:
    """Weighings from the moves parameter (before: w; every one in effect: the API and the Æquitas games)."""
    text = moves_text(args, "w")
    if len(text) > 200_000:
        raise InputError("too many weighings")
    return parse_weighings(text)
