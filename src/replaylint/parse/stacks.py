"""Work on a thread of its own: how the check goes deeper than the caller's stack allows,
without changing the recursion limit or any other setting another thread could see."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from types import FrameType
from typing import TypeVar

T = TypeVar("T")

_LOCK = threading.Lock()  # threading.stack_size is process-wide: set only while starting ours
MIB = 1024 * 1024
_SMALLEST = 8 * MIB


def on_fresh_stack(work: Callable[[], T], stack_bytes: int, name: str) -> T:
    """Run `work` on a new thread whose stack is `stack_bytes` (address space reserved, pages
    touched only as used) and whose Python frames start from zero; return or raise its outcome."""
    outcome: list[T] = []
    failure: list[BaseException] = []

    def target() -> None:
        try:
            outcome.append(work())
        except BaseException as error:  # handed back to the calling thread
            failure.append(error)

    size = stack_bytes
    while True:
        thread = threading.Thread(target=target, name=name, daemon=True)
        try:
            with _LOCK:
                previous = threading.stack_size(size)
                try:
                    thread.start()
                finally:
                    threading.stack_size(previous)
            break
        except RuntimeError:
            # No room for the stack under an address-space limit (`ulimit -v`): a smaller
            # one still checks all but the deepest code (whose RecursionError is reported).
            if size <= _SMALLEST:
                raise
            size //= 2
    thread.join()
    if failure:
        raise failure[0]
    return outcome[0]


def depth() -> int:
    """How many Python frames the calling thread has."""
    frame: FrameType | None = sys._getframe()
    count = 0
    while frame is not None:
        frame, count = frame.f_back, count + 1
    return count
