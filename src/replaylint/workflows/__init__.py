"""replaylint.workflows: the standard-library runtime that records workflow runs and replays them.

Design of the run context. A workflow is a plain function (sync or async) that receives a
`RunContext` as its first argument and its JSON input as its second::

    async def run(ctx: RunContext, order: dict) -> dict:
        key = ctx.new_id("payment")             # DeterministicIds, advanced by the context
        deadline = ctx.clock.advanced(900).now()  # WorkflowClock, from the recorded start
        if ctx.patched("screen-before-capture"):  # Patches, decision recorded in the run
            ...
        await ctx.sleep(3600)                     # a durable timer, recorded as a command

Everything a workflow needs to know about its run comes through that argument, so workflow
code keeps no global state. `@activity` functions and `model_call_activity` cannot be handed
the run explicitly (they are called like ordinary functions), so the runtime keeps the live
run in a `contextvars.ContextVar`: set by `record()` / `assert_replays()` around the workflow,
inherited by asyncio tasks, and replaced by a marker while an activity body executes so
that nested activities become part of their caller's result. With no run in progress an
activity simply runs; called from a thread that lost the run's context while a run is in
progress, it raises ActivityContextError instead of running unrecorded.

Nothing here imports the linter, libcst or click: workflow code imports this package.
"""

from replaylint.workflows.activities import activity, model_call_activity
from replaylint.workflows.clock import WorkflowClock
from replaylint.workflows.context import RunContext
from replaylint.workflows.errors import (
    ActivityContextError,
    ActivityError,
    HistoryError,
    NonDeterminismError,
)
from replaylint.workflows.history import Command, RecordedHistory
from replaylint.workflows.identity import workflow
from replaylint.workflows.ids import DeterministicIds
from replaylint.workflows.ordering import stable
from replaylint.workflows.patches import Patches
from replaylint.workflows.recorder import record
from replaylint.workflows.replay_engine import assert_replays

__all__ = [
    "ActivityContextError",
    "ActivityError",
    "Command",
    "DeterministicIds",
    "HistoryError",
    "NonDeterminismError",
    "Patches",
    "RecordedHistory",
    "RunContext",
    "WorkflowClock",
    "activity",
    "assert_replays",
    "model_call_activity",
    "record",
    "stable",
    "workflow",
]
