"""Registering the workflows and activities of workflows.py; the client starts one (no workflow code)."""
import uuid

from dapr.ext.workflow import DaprWorkflowClient, WorkflowRuntime

from workflows import audit, store

runtime = WorkflowRuntime()
runtime.register_workflow(audit)
runtime.register_activity(store)


def start() -> str:
    runtime.start()
    client = DaprWorkflowClient()
    return client.schedule_new_workflow(workflow=audit, input={"id": str(uuid.uuid4())})
