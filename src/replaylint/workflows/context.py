"""RunContext: everything a workflow reads about its run (clock, ids, patches), plus running it."""

from __future__ import annotations

import asyncio
import contextvars
import inspect
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Any

from replaylint.workflows.clock import WorkflowClock
from replaylint.workflows.ids import DeterministicIds
from replaylint.workflows.patches import Patches
from replaylint.workflows.session import Session, active


class RunContext:
    """Handed to a workflow as its first argument: ``def run(ctx: RunContext, input): ...``.

    It is the only source of time, ids and patch decisions a workflow needs, so workflow
    code keeps no global state. The clock and the ids are immutable values; the context
    just holds the current ids and hands out the next one.
    """

    __slots__ = ("_clock", "_ids", "_patches")

    def __init__(
        self, *, run_id: str, started_at: datetime, patches: Patches | None = None
    ) -> None:
        self._clock = WorkflowClock(started_at=started_at)
        self._ids = DeterministicIds(run_id=run_id)
        self._patches = patches if patches is not None else Patches()

    @property
    def run_id(self) -> str:
        return self._ids.run_id

    @property
    def started_at(self) -> datetime:
        return self._clock.started_at

    @property
    def clock(self) -> WorkflowClock:
        """The run's clock at its start; `ctx.clock.advanced(s)` gives a later one."""
        return self._clock

    @property
    def ids(self) -> DeterministicIds:
        """The current id source (what the next `new_id` call will draw from)."""
        return self._ids

    @property
    def patches(self) -> Patches:
        return self._patches

    def new_id(self, namespace: str) -> str:
        """The next deterministic id of `namespace` (same on every replay of this run)."""
        key, self._ids = self._ids.next(namespace)
        return key

    def patched(self, name: str) -> bool:
        """Shorthand for ``ctx.patches.applied(name)``."""
        return self._patches.applied(name)

    def __repr__(self) -> str:
        return f"RunContext(run_id={self.run_id!r}, started_at={self.started_at.isoformat()!r})"


Workflow = Callable[[RunContext, Any], Any]


def workflow_path(workflow: Workflow) -> str:
    """The import path a history names its workflow by: ``package.module:function``."""
    module = getattr(workflow, "__module__", None)
    qualname = getattr(workflow, "__qualname__", None)
    if not isinstance(module, str) or not isinstance(qualname, str):
        raise TypeError(
            f"a workflow must be a function with __module__ and __qualname__, got {workflow!r}"
        )
    return f"{module}:{qualname}"


def run_workflow(workflow: Workflow, ctx: RunContext, input: Any, session: Session) -> Any:
    """Call a sync or async workflow with `session` as the current run; return its result."""
    with active(session):
        outcome = workflow(ctx, input)
        if inspect.isawaitable(outcome):
            outcome = _run_to_completion(outcome)
    return outcome


def _run_to_completion(awaitable: Awaitable[Any]) -> Any:
    async def main() -> Any:
        return await awaitable

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(main())
    # Called from inside a running loop (an async test): a fresh loop on a worker thread,
    # carrying the current context so the session stays visible to activities.
    snapshot = contextvars.copy_context()
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(snapshot.run, asyncio.run, main()).result()
