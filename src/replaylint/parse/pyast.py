"""CPython's `ast` trees, built from several threads: one lock around every one we build.

Python 3.11 converts a parsed tree to `ast` objects with a recursion counter kept in state the
threads share, so two conversions at once can fail ("SystemError: AST constructor recursion
depth mismatch"). `ast.parse` converts, and so does LibCST's `evaluated_value` (through
`ast.literal_eval`); each call is short, so taking turns costs next to nothing.
"""

from __future__ import annotations

import ast
import threading
from typing import Any

_LOCK = threading.Lock()


def parse(source: bytes | str, filename: str = "<unknown>") -> ast.Module:
    with _LOCK:
        return ast.parse(source, filename=filename)


def parse_for(source: bytes | str, version: tuple[int, int]) -> ast.Module:
    """As `parse`, refusing syntax Python `version` does not have (CPython's `feature_version`)."""
    with _LOCK:
        return ast.parse(source, feature_version=version)


def evaluated(node: Any) -> Any:
    """The value of a LibCST literal node (`SimpleString`, `Integer`, ...): LibCST's own
    `evaluated_value`, which compiles each literal with `ast.literal_eval` (0.7 s of a cold run
    on pydantic-ai), worked out directly where the literal's text alone says what it is."""
    value = _plain(node)
    if value is not _ASK:
        return value
    with _LOCK:
        return node.evaluated_value


_ASK = object()  # the literal needs LibCST's (that is, CPython's) reading


def _plain(node: Any) -> Any:
    """The value of a literal whose text needs no decoding: a str with no escapes (or a raw
    one), a decimal, hex, octal or binary int, a float; strings joined by juxtaposition as
    ConcatenatedString joins them. _ASK for anything else (bytes, escapes, f-strings), and
    for text CPython might refuse or translate (a NUL, a carriage return)."""
    kind = type(node).__name__
    if kind == "SimpleString":
        return _plain_string(node.value)
    if kind == "Integer":
        try:
            return int(node.value, 0)
        except ValueError:
            return _ASK
    if kind == "Float":
        try:
            return float(node.value)
        except ValueError:
            return _ASK
    if kind == "ConcatenatedString":
        return _joined(node)
    return _ASK


def _plain_string(text: str) -> Any:
    start = min((i for i in (text.find("'"), text.find('"')) if i >= 0), default=-1)
    if start < 0:
        return _ASK
    prefix = text[:start].lower()
    quote = text[start]
    width = 3 if text.startswith(quote * 3, start) and len(text) - start >= 6 else 1
    body = text[start + width : len(text) - width]
    if "\r" in body or "\x00" in body:
        return _ASK
    if prefix in ("", "u") and "\\" not in body:
        return body
    if prefix == "r":
        return body
    return _ASK


def _joined(node: Any) -> Any:
    """ConcatenatedString.evaluated_value, each side read as evaluated() reads it."""
    left, right = node.left, node.right
    if type(left).__name__ == "FormattedString" or type(right).__name__ == "FormattedString":
        return None
    left_value, right_value = evaluated(left), evaluated(right)
    if right_value is None:
        return None
    if isinstance(left_value, bytes) and isinstance(right_value, bytes):
        return left_value + right_value
    if isinstance(left_value, str) and isinstance(right_value, str):
        return left_value + right_value
    return None
