"""SIGINT and SIGTERM: the run stops at once, its workers end, and the exit status says which
signal stopped it (130 for SIGINT, 143 for SIGTERM: 128 plus its number, as a shell reports).

A cancelled CI step must not read as a lint failure (exit 1) nor wait for the run to end. The
first signal raises Interrupted in the main thread, wherever it waits (for a worker, for the
thread that parses, for a file): the run unwinds without printing a report, the workers are
killed, and what is on disk stays whole (the cache is written by renaming a finished file over
the old one; a half-written temporary is removed on the way out). A second signal while that
happens exits at once.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

STOPPING = (signal.SIGINT, signal.SIGTERM)


class Interrupted(BaseException):
    """The run was stopped by a signal. A BaseException, like KeyboardInterrupt, so no
    `except Exception` on the way (the CLI's own "internal error" line) takes it for a bug."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        return 128 + self.signum


@contextmanager
def stopping_on_signals() -> Iterator[None]:
    """While the body runs, SIGINT and SIGTERM raise Interrupted (the second exits at once).
    Only the main thread can take signals; elsewhere nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []

    def handle(signum: int, frame: FrameType | None) -> None:
        if received:
            _exit_now(signum)
        received.append(signum)
        raise Interrupted(signum)

    previous = {number: signal.signal(number, handle) for number in STOPPING}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def stop(interrupted: Interrupted) -> None:
    """End the process for `interrupted`: workers killed, output flushed, nothing else run
    (no atexit work that could block: a thread parsing for the stopped run is abandoned)."""
    from replaylint.index import lifetime  # only when stopping: not on every start

    lifetime.end_all()
    _flush()
    sys.stderr.write(f"replaylint: stopped by {interrupted}\n")
    _flush()
    os._exit(interrupted.exit_code)


def _exit_now(signum: int) -> None:
    # Nothing is imported in a signal handler: no workers were started if lifetime never was.
    lifetime = sys.modules.get("replaylint.index.lifetime")
    for process in list(lifetime.LIVE.values()) if lifetime is not None else ():
        try:
            process.kill()  # no reaping: they are gone the moment this process is
        except (OSError, ValueError, AttributeError):
            pass
    os._exit(128 + signum)


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
