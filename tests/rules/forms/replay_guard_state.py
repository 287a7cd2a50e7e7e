"""A branch run only when not replaying that leaves something in module state is checked as
replayed code: the replays after it read what it left, and in a fresh worker another count."""

from dapr.ext.workflow import DaprWorkflowContext, WorkflowRuntime

wfr = WorkflowRuntime()
attempts = 0
notes = 0
bumped = 0
SEEN: list[str] = []


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
    if not ctx.is_replaying:
        SEEN.append("counted")  # expect: ADK-W011
    yield ctx.call_activity("work", input=attempts + bumped + len(SEEN))
    if attempts < 3:
        raise ValueError("again")
