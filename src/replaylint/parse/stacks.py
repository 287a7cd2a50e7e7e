"""Work on a thread of its own: how the check goes deeper than the caller's stack allows,
without changing the recursion limit or any other setting another thread could see."""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import TypeVar

T = TypeVar("T")

_LOCK = threading.Lock()  # threading.stack_size is process-wide: set only while starting ours
# The signals that stop a run (cli/signals.py). A thread started here never takes them: the
# kernel hands a process-wide signal to any thread that does not block it, and taken by ours,
# Python runs its handler only once the main thread wakes, which it does not while it waits
# in join() for this very thread (the whole check of a module).
_KEPT_FOR_MAIN = {signal.SIGINT, signal.SIGTERM}
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
            with _LOCK, _blocked_while_starting():
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


@contextmanager
def _blocked_while_starting() -> Iterator[None]:
    """The stopping signals blocked in the calling thread while it starts one: the new thread
    inherits the mask, so they go to the main thread (it waits in join(), which a signal
    interrupts to run the handler)."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows: signals go to the main thread anyway
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _KEPT_FOR_MAIN)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def depth() -> int:
    """How many Python frames the calling thread has."""
    frame: FrameType | None = sys._getframe()
    count = 0
    while frame is not None:
        frame, count = frame.f_back, count + 1
    return count
