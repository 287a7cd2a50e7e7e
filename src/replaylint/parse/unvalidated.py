"""LibCST's parse without re-validating every node it builds.

Each LibCST node checks its own fields as it is constructed (`CSTNode.__post_init__` calls
`_validate`): right for trees a program builds by hand, redundant for the tree of a module its
parser read, which CPython has already accepted (parsing.judge). On real modules the checks are
a sixth to a third of the parse. While any thread parses here, node construction skips them
(nodes another thread builds meanwhile too: the fixes build theirs from code LibCST parsed);
the first parse in sets the switch, the last one out restores it, so concurrent parses (the
editor server's threads) share one state and no parse sees it restored half-way.
"""

from __future__ import annotations

import threading
from typing import Any

import libcst as cst
from libcst._nodes.base import CSTNode

_LOCK = threading.Lock()
_VALIDATING = CSTNode.__post_init__
_parsing = 0  # parses under way, in every thread


def _skip(self: Any) -> None:
    return None


def parse_module(source: bytes | str) -> cst.Module:
    """`libcst.parse_module(source)`, nodes unchecked; raises as it does."""
    global _parsing
    with _LOCK:
        _parsing += 1
        if _parsing == 1:
            CSTNode.__post_init__ = _skip  # type: ignore[method-assign]
    try:
        return cst.parse_module(source)
    finally:
        with _LOCK:
            _parsing -= 1
            if _parsing == 0:
                CSTNode.__post_init__ = _VALIDATING  # type: ignore[method-assign]
