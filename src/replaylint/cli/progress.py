"""The progress bar of a long check: one line on stderr, redrawn in place, cleared at the end.

`api.run(progress=bar)` calls the bar once per candidate file as `bar(done, total)`. Nothing
is drawn during the first second (`delay`), so a quick run never flickers, and the line is
redrawn at most every `interval` seconds. `clear()` blanks it before the report is printed.
"""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Callable
from typing import TextIO


class ProgressBar:
    def __init__(
        self,
        stream: TextIO,
        *,
        clock: Callable[[], float] = time.monotonic,
        delay: float = 1.0,
        interval: float = 0.1,
        columns: int | None = None,
    ) -> None:
        self.stream = stream
        self.clock = clock
        self.delay = delay
        self.interval = interval
        self.columns = columns or shutil.get_terminal_size(fallback=(80, 24)).columns
        self.started = clock()
        self._drawn = 0  # characters of the line on screen now
        self._last = float("-inf")
        self._lock = threading.Lock()  # the engine may tick from a thread of its own

    def __call__(self, done: int, total: int) -> None:
        now = self.clock()
        if now - self.started < self.delay:
            return
        if now - self._last < self.interval and done < total:
            return
        with self._lock:
            self._last = now
            self._write(self.line(done, total))

    def line(self, done: int, total: int) -> str:
        """`replaylint [########            ] 12/40 files`, fitted to the terminal's width."""
        count = f" {done}/{total} files"
        width = max(0, min(30, self.columns - 1 - len("replaylint []") - len(count)))
        filled = width * done // total if total else width
        return f"replaylint [{'#' * filled}{' ' * (width - filled)}]{count}"

    def clear(self) -> None:
        with self._lock:
            if self._drawn:
                self.stream.write("\r" + " " * self._drawn + "\r")
                self.stream.flush()
                self._drawn = 0

    def _write(self, line: str) -> None:
        # Padding to the previous length blanks what a longer line left behind.
        self.stream.write("\r" + line.ljust(self._drawn))
        self.stream.flush()
        self._drawn = max(self._drawn, len(line))
