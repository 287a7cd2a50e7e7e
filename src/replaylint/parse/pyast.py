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
    """The value of a LibCST literal node (`SimpleString`, `Integer`, ...)."""
    with _LOCK:
        return node.evaluated_value
