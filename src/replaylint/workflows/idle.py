"""Whether anything can still wake a replay's event loop: its timers, its I/O, threads at work.

A replay serves every activity, model call and timer from the history, so once the
workflow's loop has nothing ready, nothing waiting for a recorded delivery, and nothing
below that could call back into it, the workflow waits for something the history never
delivers: the replay's deadlock, which Temporal's Replayer reports as nondeterminism too.
These checks read CPython's own loop and executor attributes (``_ready``, ``_scheduled``,
``_selector``, ``_default_executor``); where one is missing the answer is "something
may act", so an unknown loop is never judged stuck.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Collection
from concurrent.futures import ThreadPoolExecutor


def thread_idents() -> frozenset[int]:
    """The live threads now: the ones that cannot be the workflow's own."""
    return frozenset(t.ident for t in threading.enumerate() if t.ident is not None)


def something_may_act(
    loop: asyncio.AbstractEventLoop, baseline: frozenset[int], own: Collection[object]
) -> bool:
    """Can a callback, a timer, an I/O event or a thread still wake `loop`?

    `baseline`: the threads that were alive before the run (not the workflow's);
    `own`: the scheduler's own timer handles, which wake nothing of the workflow.
    """
    ready = getattr(loop, "_ready", None)
    scheduled = getattr(loop, "_scheduled", None)
    if ready is None or scheduled is None:
        return True
    if any(not handle.cancelled() for handle in ready):
        return True
    if any(h not in own and not h.cancelled() for h in scheduled):
        return True
    return _io_registered(loop) or _threads_at_work(loop, baseline)


def _io_registered(loop: asyncio.AbstractEventLoop) -> bool:
    selector = getattr(loop, "_selector", None)
    if selector is None:
        return True
    # A selector loop always watches its own self-pipe; anything more is someone's I/O.
    own_pipe = 1 if getattr(loop, "_ssock", None) is not None else 0
    return len(selector.get_map()) > own_pipe


def _threads_at_work(loop: asyncio.AbstractEventLoop, baseline: frozenset[int]) -> bool:
    executor = getattr(loop, "_default_executor", None)
    idle_workers: set[int] = set()
    if executor is not None:
        if not isinstance(executor, ThreadPoolExecutor) or _executor_busy(executor):
            return True
        idle_workers = {t.ident for t in getattr(executor, "_threads", ()) if t.ident}
    return any(
        t.ident not in baseline and t.ident not in idle_workers and t.is_alive()
        for t in threading.enumerate()
    )


def _executor_busy(executor: ThreadPoolExecutor) -> bool:
    queue = getattr(executor, "_work_queue", None)
    threads = getattr(executor, "_threads", None)
    idle = getattr(getattr(executor, "_idle_semaphore", None), "_value", None)
    if queue is None or threads is None or not isinstance(idle, int):
        return True
    # Each worker releases the idle semaphore when it finishes an item: fewer idle than
    # workers means one is running the workflow's code.
    return queue.qsize() > 0 or idle < len(threads)
