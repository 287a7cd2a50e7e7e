"""Whether anything can still wake a replay's event loop: its timers, its I/O, threads at work.

A replay serves every activity, model call and timer from the history, so once the
workflow's loop has nothing ready, nothing waiting for a recorded delivery, and nothing
below that could call back into it, the workflow waits for something the history never
delivers: the replay's deadlock, which Temporal's Replayer reports as nondeterminism too.
These checks read CPython's own loop attributes (``_ready``, ``_scheduled``,
``_selector``, ``_default_executor``) and the stacks of the process's threads; where an
attribute is missing the answer is "something may act", so an unknown loop is never
judged stuck.
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from collections.abc import Collection
from types import FrameType

_POOL_MODULE = os.path.join("concurrent", "futures", "thread.py")


def thread_idents() -> frozenset[int]:
    """The threads alive now (started by threading or not): the ones that are not the run's."""
    started = {t.ident for t in threading.enumerate() if t.ident is not None}
    return frozenset(started | set(sys._current_frames()))


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
    """Is a thread other than the loop's at work (it might call back into the loop)?

    A pool worker (concurrent.futures) counts while it runs an item, whenever it started:
    an executor made before the run may run the workflow's code. Any other thread counts
    if it started during the run; the ones before it (a test runner's, a caller blocked
    on the run's result) are not the workflow's.
    """
    executor = getattr(loop, "_default_executor", None)
    queue = getattr(executor, "_work_queue", None)
    if executor is not None and (queue is None or queue.qsize() > 0):
        return True  # work handed over and not yet picked up
    me = threading.get_ident()
    for ident, frame in sys._current_frames().items():
        if ident == me:
            continue
        pool = _pool_worker(frame)
        if pool == "busy" or (pool is None and ident not in baseline):
            return True
    return False


def _pool_worker(frame: FrameType) -> str | None:
    """ "idle" or "busy" for a concurrent.futures pool worker's stack, None for another thread."""
    innermost = frame
    current: FrameType | None = frame
    while current is not None:
        code = current.f_code
        if code.co_name == "_worker" and code.co_filename.endswith(_POOL_MODULE):
            # Idle, it waits in C for its queue, so its own frame is the innermost one.
            return "idle" if current is innermost else "busy"
        current = current.f_back
    return None
