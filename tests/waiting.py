"""Waiting on a condition in a test: poll until it holds, or fail at a deadline saying what did not happen. The
deadline only bounds a wait; no test asserts how long something took (the benchmarks measure that)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar, cast

T = TypeVar("T")


def until(check: Callable[[], T | None], seconds: float, what: str, every: float = 0.25) -> T:
    """The first truthy value of check(), polled every `every` seconds; AssertionError(what) past the deadline."""
    deadline = time.monotonic() + seconds
    while not (value := check()):
        assert time.monotonic() < deadline, what
        time.sleep(every)
    return cast(T, value)
