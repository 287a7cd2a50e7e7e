"""Dapr Workflow: generator workflows replayed from their history; activities and child workflows
are recorded; the context's clock, ids and random generator are deterministic."""
import os
import random
import threading
import uuid
from datetime import datetime, timedelta

import dapr.ext.workflow as wf
import requests

wfr = wf.WorkflowRuntime()


@wfr.activity(name="charge")
def charge(ctx: wf.WorkflowActivityContext, order: dict) -> str:
    # Recorded: run once, its result in the history.
    return requests.post("https://pay.example.com", json={**order, "key": str(uuid.uuid4())}).text


def shipping_window(order: dict):
    opens = datetime.now()  # expect: ADK-W003
    yield opens


@wfr.workflow(name="order")
def order_flow(ctx: wf.DaprWorkflowContext, order: dict):
    reference = ctx.uuid4()
    deadline = ctx.current_utc_datetime + timedelta(hours=1)
    coupon = ctx.random().choice(["A", "B"])
    receipt = yield ctx.call_activity(charge, input=order)
    yield from shipping_window(order)  # expect: ADK-W005
    if os.environ.get("EXPRESS"):  # expect: ADK-W007
        yield ctx.call_child_workflow(express_flow, input=order)
    tracking = uuid.uuid4().hex  # expect: ADK-W002
    yield ctx.create_timer(deadline)
    return {"ref": str(reference), "receipt": receipt, "coupon": coupon, "tracking": tracking}


@wfr.versioned_workflow(name="express", version_name="v2", is_latest=True)
def express_flow(ctx: wf.DaprWorkflowContext, order: dict):
    priority = random.randint(1, 3)  # expect: ADK-W002
    notifier = threading.Thread(target=print, args=(order,))  # expect: ADK-W009
    notifier.start()
    results = yield wf.when_all([ctx.call_activity(charge, input=order) for _ in range(priority)])
    if ctx.is_patched("cheaper-courier"):
        return results
    return results[:1]
