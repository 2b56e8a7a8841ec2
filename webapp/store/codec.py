"""Results as data: the result store keeps JSON, never pickles, so that a writable store (a shared Redis) can at
worst change an answer (which its signature catches), never run code.

msgspec encodes a result and decodes it against the type its computation declares (dataclasses, named tuples,
tuples, dictionaries, literals), building only that type; NumPy arrays travel as their dtype, shape and bytes.
A refusal (`Failed`) is stored in the same envelope: `{"value": ...}` or `{"failed": {"kind", "message"}}`.
"""

from __future__ import annotations

import hashlib
import json
import typing
from typing import Any, TypeVar

import msgspec
import numpy as np

T = TypeVar("T")


def _encode_extra(value: object) -> object:
    """What msgspec does not know: NumPy arrays and scalars."""
    if isinstance(value, np.ndarray):
        return {"dtype": value.dtype.str, "shape": list(value.shape), "data": value.tobytes()}
    if isinstance(value, np.generic):
        return value.item()
    raise NotImplementedError(f"cannot store a {type(value).__name__}")


class _Array(msgspec.Struct):
    """An array as stored."""

    dtype: str
    shape: list[int]
    data: bytes


def _numpy_type(kind: Any) -> type | None:
    """np.ndarray for an array type (NDArray[...] included), the scalar type for a NumPy scalar, else None: the
    types msgspec leaves to the hooks below."""
    origin = typing.get_origin(kind) or kind
    if origin is np.ndarray or (isinstance(origin, type) and issubclass(origin, np.generic)):
        return origin
    return None


def _decode_extra(kind: Any, raw: object) -> object:
    """NumPy arrays (from their dtype, shape and bytes) and scalars (from their value)."""
    origin = _numpy_type(kind)
    if origin is np.ndarray:
        a = msgspec.convert(raw, _Array)
        dtype = np.dtype(a.dtype)
        if dtype.hasobject:
            raise msgspec.ValidationError("object arrays are not stored")
        return np.frombuffer(a.data, dtype=dtype).reshape(a.shape).copy()
    if origin is not None and isinstance(raw, (int, float, bool)):
        return origin(raw)
    raise NotImplementedError(f"cannot read a {kind!r}")


def _schema_extra(kind: Any) -> dict[str, Any]:
    """The schema of what msgspec does not know: NumPy arrays (stored as _Array) and scalars (by their type)."""
    origin = _numpy_type(kind)
    if origin is np.ndarray:
        return msgspec.json.schema(_Array)
    if origin is not None:
        return {"type": origin.__name__}
    raise NotImplementedError(f"cannot store a {kind!r}")


def schema_digest(kind: Any) -> str:
    """A short digest of a stored type's JSON schema: it changes when a field, a type or the nesting does."""
    schema = msgspec.json.schema(kind, schema_hook=_schema_extra)
    return hashlib.sha256(json.dumps(schema, sort_keys=True).encode()).hexdigest()[:12]


def encode(value: object) -> bytes:
    """A result's JSON."""
    return msgspec.json.encode({"value": value}, enc_hook=_encode_extra)


def encode_failure(kind: str, message: str) -> bytes:
    """A stored refusal's JSON."""
    return msgspec.json.encode({"failed": {"kind": kind, "message": message}})


class Envelope(msgspec.Struct, forbid_unknown_fields=True):
    """What the store holds: a value (still raw JSON) or a refusal."""

    value: msgspec.Raw = msgspec.Raw(b"")  # empty when the entry is a refusal
    failed: dict[str, str] | None = None


def open_envelope(blob: bytes) -> Envelope:
    """The envelope of a stored entry (msgspec.ValidationError / DecodeError if it is not one)."""
    return msgspec.json.decode(blob, type=Envelope)


def decode(raw: msgspec.Raw | bytes, kind: type[T] | Any) -> T:
    """A value of the given type from its JSON (msgspec.ValidationError if it does not have that shape)."""
    value: T = msgspec.json.decode(raw, type=kind, dec_hook=_decode_extra)
    return value


DecodeErrors = (msgspec.ValidationError, msgspec.DecodeError, ValueError, TypeError)
