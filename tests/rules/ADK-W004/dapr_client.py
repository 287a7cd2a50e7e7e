"""Dapr's client talks to the sidecar: from the workflow it publishes (or saves, or calls) again
on every replay; from an activity, once."""
import json

import dapr.ext.workflow as wf
from dapr.clients import DaprClient

wfr = wf.WorkflowRuntime()


@wfr.activity(name="publish")
def publish(ctx, data: dict) -> None:
    with DaprClient() as client:
        client.publish_event(pubsub_name="bus", topic_name="done", data=json.dumps(data))


@wfr.workflow(name="flow")
def flow(ctx: wf.DaprWorkflowContext, data: dict):
    yield ctx.call_activity(publish, input=data)
    with DaprClient() as client:
        client.save_state("store", "last", json.dumps(data))  # expect: ADK-W004
    return data
