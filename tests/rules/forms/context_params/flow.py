import dapr.ext.workflow as wf

from helpers import forward, poke, run_with, schedule_notify

runtime = wf.WorkflowRuntime()


@runtime.workflow(name="flow")
def flow(ctx: wf.DaprWorkflowContext, payload: dict):
    yield from schedule_notify(ctx, payload)
    yield from forward(ctx, payload)
    run_with(ctx, payload)  # expect: ADK-W005
    poke(ctx, payload)  # expect: ADK-W005
    return "ok"
