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


def only_if(flag: str) -> Any:
    """A field in the JSON only when the report's boolean field `flag` is true (a part the caller asked for)."""
    return dataclasses.field(default=None, metadata={"only_if": flag})


def internal() -> Any:
    """A field the report keeps for itself and never serialises."""
    return dataclasses.field(default=False, metadata={"internal": True})


def _shown(value: object, f: dataclasses.Field[Any]) -> bool:
    """True when a field belongs in the JSON."""
    if f.metadata.get("internal"):
        return False
    if f.metadata.get("omit_if_none") and getattr(value, f.name) is None:
        return False
    flag = f.metadata.get("only_if")
    return not flag or bool(getattr(value, flag))


def as_json(value: object) -> Any:
    """JSON-ready data: dataclasses become objects in field order, tuples lists; parts not asked for dropped."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: as_json(getattr(value, f.name)) for f in dataclasses.fields(value) if _shown(value, f)}
    if isinstance(value, Mapping):
        return {str(k): as_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [as_json(v) for v in value]
    return value
