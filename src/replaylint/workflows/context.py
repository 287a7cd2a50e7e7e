"""RunContext: everything a workflow reads about its run (clock, ids, patches, timers), plus running it."""

from __future__ import annotations

import asyncio
import collections
import contextvars
import inspect
import threading
from collections.abc import Awaitable, Callable, Coroutine, Generator
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from typing import Any

from replaylint.workflows.clock import WorkflowClock, duration
from replaylint.workflows.commands import timer_request
from replaylint.workflows.identity import workflow_path
from replaylint.workflows.ids import DeterministicIds
from replaylint.workflows.patches import Patches
from replaylint.workflows.session import Session, Step, active, running


class RunContext:
    """Handed to a workflow as its first argument: ``def run(ctx: RunContext, input): ...``.

    It is the only source of time, ids, patch decisions and waiting a workflow needs, so
    workflow code keeps no global state. The clock and the ids are immutable values; the
    context holds the current ones and hands out the next id under a lock, so threads that
    carry the run never draw the same id twice.
    """

    __slots__ = ("_started_at", "_elapsed", "_ids", "_patches", "_session", "_lock")

    def __init__(
        self,
        *,
        run_id: str,
        started_at: datetime,
        patches: Patches | None = None,
        _session: Session | None = None,
    ) -> None:
        WorkflowClock(started_at=started_at)  # refuses a naive or non-datetime start
        self._started_at = started_at
        self._elapsed = timedelta(0)
        self._ids = DeterministicIds(run_id=run_id)
        self._patches = patches if patches is not None else Patches()
        self._session = _session
        self._lock = threading.Lock()

    @property
    def run_id(self) -> str:
        return self._ids.run_id

    @property
    def started_at(self) -> datetime:
        return self._started_at

    @property
    def clock(self) -> WorkflowClock:
        """The run's clock now: its start plus the time its timers (`sleep`) have waited.

        `ctx.clock.advanced(s)` gives a later clock without waiting or recording anything.
        """
        return WorkflowClock(started_at=self._started_at, elapsed=self._elapsed)

    @property
    def ids(self) -> DeterministicIds:
        """The current id source (what the next `new_id` call will draw from)."""
        return self._ids

    @property
    def patches(self) -> Patches:
        return self._patches

    def new_id(self, namespace: str) -> str:
        """The next deterministic id of `namespace` (same on every replay of this run)."""
        with self._lock:
            key, self._ids = self._ids.next(namespace)
        return key

    def patched(self, name: str) -> bool:
        """Shorthand for ``ctx.patches.applied(name)``."""
        return self._patches.applied(name)

    def deprecate_patch(self, name: str) -> None:
        """Shorthand for ``ctx.patches.deprecated(name)``."""
        self._patches.deprecated(name)

    def sleep(self, seconds: float) -> Awaitable[None]:
        """A durable timer: wait `seconds` of the run's time, recorded as a ``timer`` command.

        ``await ctx.sleep(900)`` in an async workflow; a sync workflow just calls it. A live
        run fires the timer once the workflow has nothing else to do: at once (the run's
        time skips ahead) when no activity is running, or after `seconds` really pass while
        one is, so an activity raced against a timeout can lose. A replay fires it in the
        recorded order and never waits. `ctx.clock` then reads the start plus the time
        slept. Adding or removing a wait is a divergence, as a timer is in Temporal; so is
        changing its length (a ``key-mismatch``), which Temporal's Replayer does not
        compare. Outside a run the clock simply moves.
        """
        seconds = duration(seconds, "sleep()")
        with self._lock:
            due = self._elapsed + timedelta(seconds=seconds)
        session = self._session
        if session is None:
            self._reach(due)
            return _Fired()
        step = session.begin(timer_request(seconds))
        if step.recorded is None:
            step.succeed(None)  # nothing to execute: the command is complete once issued
        if session.scheduler.on_run_loop():
            return self._timer(step, due, seconds)
        session.scheduler.delivered_now(step.seq)
        self._reach(due)
        return _Fired()

    async def _timer(self, step: Step, due: timedelta, seconds: float) -> None:
        scheduler = step.session.scheduler
        if step.recorded is None:
            await scheduler.timer(step.seq, due, seconds)
        else:
            await scheduler.turn(step.seq)
        self._reach(due)

    def _reach(self, due: timedelta) -> None:
        with self._lock:
            self._elapsed = max(self._elapsed, due)

    def __repr__(self) -> str:
        return f"RunContext(run_id={self.run_id!r}, started_at={self.started_at.isoformat()!r})"


class _Fired:
    """What `sleep` returns when the timer already fired: awaiting it returns at once."""

    __slots__ = ()

    def __await__(self) -> Generator[Any, None, None]:
        return
        yield  # a generator that finishes at once


Workflow = Callable[[RunContext, Any], Any]
LEFTOVER_SECONDS = 1.0
__all__ = ["RunContext", "Workflow", "run_workflow", "workflow_path"]  # workflow_path: its old home


def run_workflow(workflow: Workflow, ctx: RunContext, input: Any, session: Session) -> Any:
    """Call a sync or async workflow with `session` as the current run; return its result."""
    with active(session), running(session):
        outcome = workflow(ctx, input)
        if inspect.isawaitable(outcome):
            return _run_to_completion(outcome, session)
        session.workflow_returned()
        return outcome


def _run_to_completion(awaitable: Awaitable[Any], session: Session) -> Any:
    async def main() -> Any:
        session.scheduler.attach(asyncio.get_running_loop())
        result = await awaitable
        session.workflow_returned()
        return result

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return _run_on_own_loop(main())
    # Called from inside a running loop (an async test): a fresh loop on a worker thread,
    # carrying the current context so the session stays visible to activities.
    snapshot = contextvars.copy_context()
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(snapshot.run, _run_on_own_loop, main()).result()


def _run_on_own_loop(main: Coroutine[Any, Any, Any]) -> Any:
    """asyncio.run on a loop whose ready queue the scheduler can see (CPython's own loops)."""
    loop = asyncio.new_event_loop()
    if not isinstance(getattr(loop, "_ready", None), collections.deque):
        loop.close()
        loop = asyncio.SelectorEventLoop()
    try:
        asyncio.set_event_loop(loop)
        return loop.run_until_complete(main)
    finally:
        try:
            _cancel_leftovers(loop)
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.run_until_complete(loop.shutdown_default_executor())
        finally:
            asyncio.set_event_loop(None)
            loop.close()


def _cancel_leftovers(loop: asyncio.AbstractEventLoop) -> None:
    """Cancel the tasks the workflow left running and give them LEFTOVER_SECONDS to end."""
    leftovers = [task for task in asyncio.all_tasks(loop) if not task.done()]
    for task in leftovers:
        task.cancel()
    if not leftovers:
        return
    # Bounded: a task that swallows its cancellation and waits again must not hang the run.
    loop.run_until_complete(asyncio.wait(leftovers, timeout=LEFTOVER_SECONDS))
    for task in leftovers:
        if task.done() and not task.cancelled():
            task.exception()  # retrieved: an error of a leftover is not the run's outcome
