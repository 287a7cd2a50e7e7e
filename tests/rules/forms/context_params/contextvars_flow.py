"""In a module whose frameworks have no run context, a `contextvars` context's `ctx.run(fn)`
calls `fn` right there."""
import contextvars
import time

from temporalio import workflow


def stamp() -> float:
    return time.time()  # expect: ADK-W003


def in_context(ctx, fn):
    return ctx.run(stamp)  # expect: ADK-W005


@workflow.defn
class Stamped:
    @workflow.run
    async def run(self) -> float:
        return in_context(contextvars.copy_context(), stamp)  # expect: ADK-W005
