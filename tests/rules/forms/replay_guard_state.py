"""A branch run only when not replaying is never replayed, but what it leaves in module state is
read by the replays after it: in a fresh worker they read another count."""

from dapr.ext.workflow import DaprWorkflowContext, WorkflowRuntime

wfr = WorkflowRuntime()
attempts = 0
notes = 0
bumped = 0


def bump() -> None:
    global bumped
    bumped += 1  # expect: ADK-W011


@wfr.workflow(name="counted")
def counted(ctx: DaprWorkflowContext):
    global attempts, notes
    if not ctx.is_replaying:
        attempts += 1  # expect: ADK-W011
        notes += 1  # written once and never read back: nothing a replay depends on
    if not ctx.is_replaying:
        bump()  # expect: ADK-W005
    yield ctx.call_activity("work", input=attempts + bumped)
    if attempts < 3:
        raise ValueError("again")
