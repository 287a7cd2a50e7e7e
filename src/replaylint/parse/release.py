"""Memory a large parse used, given back to the system.

LibCST's native parser needs several times the tree it returns while it works (about 300 bytes
per byte of a 350 KB module, against some 45 for the tree), and glibc keeps what is freed in its
heap: a process that parsed one large module stays that large, and the next large parse
stacks on top. `malloc_trim` returns the free pages, so a run's peak is its live data plus one
parse at a time. Where there is no glibc it is a no-op.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
from functools import lru_cache
from typing import Any

LARGE = 64 * 1024  # bytes of source above which a parse's leftovers are worth giving back


@lru_cache(maxsize=1)
def _trim() -> Any:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return libc.malloc_trim
    except (OSError, AttributeError):
        return None


def after_parse(size: int) -> None:
    """Give back what the parse of a module of `size` bytes left free, if it was large."""
    if size < LARGE:
        return
    trim = _trim()
    if trim is not None:
        trim(0)
