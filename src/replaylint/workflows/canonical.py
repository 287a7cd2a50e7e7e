"""Canonical JSON: which values can be recorded, their one byte-exact spelling, and request keys."""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from replaylint.workflows.errors import UnrecordableError

_ALLOWED = "None, bool, int, float, str, list, tuple and dict with str keys"


def to_json_value(value: Any, where: str) -> Any:
    """Return `value` as plain JSON data (dict, list, str, int, float, bool, None).

    Tuples become lists and str/int/float subclasses (enums) their base value. Anything
    else is refused with an `UnrecordableError` naming `where` and the offending path,
    because json.dumps would silently turn int dict keys into strings or call default=.
    """
    return _convert(value, where, "value", set())


def _convert(value: Any, where: str, path: str, active: set[int]) -> Any:
    if value is None or value is True or value is False:
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise UnrecordableError(f"{where}: {path} is {value!r}, which JSON cannot hold")
        return float(value)
    if isinstance(value, str):
        # str(member) of a `class Color(str, Enum)` is "Color.RED"; str.__str__ gives its value.
        return str.__str__(value)
    if isinstance(value, (list, tuple, dict)):
        if id(value) in active:
            raise UnrecordableError(f"{where}: {path} contains itself")
        active.add(id(value))
        try:
            if isinstance(value, dict):
                out = {}
                for key, item in value.items():
                    if not isinstance(key, str):
                        raise UnrecordableError(
                            f"{where}: {path} has a {type(key).__name__} key {key!r}; "
                            "recorded dict keys must be str"
                        )
                    out[str(key)] = _convert(item, where, f"{path}[{key!r}]", active)
                return out
            return [_convert(item, where, f"{path}[{i}]", active) for i, item in enumerate(value)]
        finally:
            active.discard(id(value))
    raise UnrecordableError(
        f"{where}: {path} is not JSON-serialisable "
        f"({type(value).__name__}: {shorten(repr(value))}); only {_ALLOWED} can be recorded"
    )


def dumps(value: Any) -> str:
    """The canonical spelling of plain JSON data: sorted keys, no spaces, UTF-8 text."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def make_request(args: Sequence[Any], kwargs: Mapping[str, Any], where: str) -> dict[str, Any]:
    """The canonical request of a call: ``{"args": [...], "kwargs": {...}}``."""
    return {
        "args": [_convert(a, where, f"args[{i}]", set()) for i, a in enumerate(args)],
        "kwargs": {k: _convert(v, where, f"kwargs[{k!r}]", set()) for k, v in kwargs.items()},
    }


def request_key(request: Any) -> str:
    """SHA-256 (hex) of the canonical spelling of a request."""
    return hashlib.sha256(dumps(request).encode("utf-8")).hexdigest()


def exception_type_name(exc: BaseException) -> str:
    """`ValueError` for builtins, `package.module.Qualname` otherwise."""
    cls = type(exc)
    if cls.__module__ == "builtins":
        return cls.__qualname__
    return f"{cls.__module__}.{cls.__qualname__}"


def shorten(text: str, limit: int = 60) -> str:
    """`text` cut to `limit` characters, marked with an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 3] + "..."
