"""Canonical JSON: which values can be recorded, their one byte-exact spelling, and request keys."""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from replaylint.workflows.errors import UnrecordableError

_ALLOWED = "None, bool, int, float, str, list, tuple and dict with str keys"
# JSON readers recurse per level (Python's stops near 1,000 frames, less inside a deep call
# stack), so a value nested deeper than this could be written but not read back.
MAX_DEPTH = 200
# Python refuses to turn an int of more than 4,300 digits into text, or back, by default
# (sys.set_int_max_str_digits): the limit of the host that reads the file is what counts.
MAX_INT_DIGITS = 4300
_TOO_MANY_DIGITS = 10**MAX_INT_DIGITS


def to_json_value(value: Any, where: str, *, writable: bool = True) -> Any:
    """Return `value` as plain JSON data (dict, list, str, int, float, bool, None).

    Tuples become lists and str/int/float subclasses (enums) their base value; dicts keep
    their key order. Anything else is refused with an `UnrecordableError` naming `where`
    and the offending path, because json.dumps would silently turn int dict keys into
    strings or call default=. With `writable` (the default) so is what JSON could hold
    but a history file could not write and read back: a str with a lone surrogate
    (UTF-8 cannot encode it), an int of more than 4,300 digits, and nesting deeper than
    200 levels. A replay passes False for values read from a history, which are written.
    """
    return _convert(value, where, "value", set(), writable)


def _convert(value: Any, where: str, path: str, active: set[int], writable: bool) -> Any:
    if value is None or value is True or value is False:
        return value
    if isinstance(value, int):
        if writable and value.bit_length() > 14_000 and abs(value) >= _TOO_MANY_DIGITS:
            raise UnrecordableError(
                f"{where}: {path} is an int of more than {MAX_INT_DIGITS} digits, "
                "which Python does not read back from JSON"
            )
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise UnrecordableError(f"{where}: {path} is {value!r}, which JSON cannot hold")
        return float(value)
    if isinstance(value, str):
        if writable:
            check_text(value, where, path)
        # str(member) of a `class Color(str, Enum)` is "Color.RED"; str.__str__ gives its value.
        return str.__str__(value)
    if isinstance(value, (list, tuple, dict)):
        if id(value) in active:
            raise UnrecordableError(f"{where}: {path} contains itself")
        if len(active) >= MAX_DEPTH:
            raise UnrecordableError(
                f"{where}: {path} is nested more than {MAX_DEPTH} levels deep, "
                "deeper than a history can be read back"
            )
        active.add(id(value))
        try:
            if isinstance(value, dict):
                return _convert_dict(value, where, path, active, writable)
            return [
                _convert(item, where, f"{path}[{i}]", active, writable)
                for i, item in enumerate(value)
            ]
        finally:
            active.discard(id(value))
    raise UnrecordableError(
        f"{where}: {path} is not JSON-serialisable "
        f"({type(value).__name__}: {shorten(repr(value))}); only {_ALLOWED} can be recorded"
    )


def _convert_dict(
    value: dict[Any, Any], where: str, path: str, active: set[int], writable: bool
) -> dict[str, Any]:
    out = {}
    for key, item in value.items():
        if not isinstance(key, str):
            raise UnrecordableError(
                f"{where}: {path} has a {type(key).__name__} key {key!r}; "
                "recorded dict keys must be str"
            )
        if writable:
            check_text(key, where, f"{path} key {shorten(repr(key))}")
        out[str.__str__(key)] = _convert(item, where, f"{path}[{key!r}]", active, writable)
    return out


def check_text(text: str, where: str, path: str) -> None:
    """Refuse a str a history file cannot hold: one with a lone surrogate, which UTF-8 cannot encode."""
    if text.isascii():
        return
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise UnrecordableError(
            f"{where}: {path} holds a lone surrogate ({text[exc.start]!r} at index {exc.start}), "
            "which a UTF-8 history file cannot hold"
        ) from None


def dumps(value: Any) -> str:
    """The canonical spelling of plain JSON data: sorted keys, no spaces, UTF-8 text."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def make_request(args: Sequence[Any], kwargs: Mapping[str, Any], where: str) -> dict[str, Any]:
    """The canonical request of a call: ``{"args": [...], "kwargs": {...}}``."""
    for name in kwargs:
        check_text(name, where, f"keyword {shorten(repr(name))}")
    return {
        "args": [_convert(a, where, f"args[{i}]", set(), True) for i, a in enumerate(args)],
        "kwargs": {k: _convert(v, where, f"kwargs[{k!r}]", set(), True) for k, v in kwargs.items()},
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
