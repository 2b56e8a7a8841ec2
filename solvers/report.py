"""Typed reports: one frozen dataclass per puzzle answer, serialised once for the API and the command line."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, ClassVar, Protocol

OMIT_IF_NONE = {"omit_if_none": True}


class Report(Protocol):
    """A report: a dataclass that can also say itself in words for the command line."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    def text(self) -> str:
        """The report in words."""
        ...


def optional() -> Any:
    """A field left out of the JSON when it is None (for parts a caller did not ask for)."""
    return dataclasses.field(default=None, metadata=OMIT_IF_NONE)


def as_json(value: object) -> Any:
    """JSON-ready data: dataclasses become objects in field order, tuples lists; optional None fields dropped."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = {}
        for f in dataclasses.fields(value):
            item = getattr(value, f.name)
            if item is None and f.metadata.get("omit_if_none"):
                continue
            out[f.name] = as_json(item)
        return out
    if isinstance(value, Mapping):
        return {str(k): as_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [as_json(v) for v in value]
    return value
