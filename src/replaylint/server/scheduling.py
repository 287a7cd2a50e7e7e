"""Debounced jobs: a burst of edits to one document is checked once, after the burst ends."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger("replaylint.server")

Job = Callable[[], Awaitable[None]]


class Debouncer:
    """Runs the newest job of each key once `delay` seconds pass with no newer one; a newer job
    replaces the one still waiting (a job already running finishes, and its result is dropped by
    whoever sees that the document moved on)."""

    def __init__(self) -> None:
        self._pending: dict[str, asyncio.Task[None]] = {}

    def schedule(self, key: str, delay: float, job: Job) -> None:
        self.cancel(key)
        self._pending[key] = asyncio.get_running_loop().create_task(self._later(key, delay, job))

    def cancel(self, key: str) -> None:
        task = self._pending.pop(key, None)
        if task is not None:
            task.cancel()

    def cancel_all(self, keep: str | None = None) -> None:
        for key in [k for k in self._pending if k != keep]:
            self.cancel(key)

    async def _later(self, key: str, delay: float, job: Job) -> None:
        try:
            if delay > 0:
                await asyncio.sleep(delay)
            # The wait is over: from here a newer edit no longer cancels this run.
            if self._pending.get(key) is asyncio.current_task():
                del self._pending[key]
            await job()
        except asyncio.CancelledError:
            raise
        except Exception:  # a failed check must not end the server's loop
            log.exception("%s: check failed", key)
