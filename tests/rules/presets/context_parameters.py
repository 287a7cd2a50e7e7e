"""Functions whose run-context parameter type marks them as replayed code."""
import time

import azure.durable_functions as df
from aws_durable_execution_sdk_python import DurableContext, StepContext
from durabletask import task


def orchestrator(ctx: task.OrchestrationContext, _):
    time.sleep(1)  # expect: ADK-W003


def activity_body(ctx: task.ActivityContext, payload):
    time.sleep(1)


def azure_orchestrator(context: df.DurableOrchestrationContext):
    time.sleep(1)  # expect: ADK-W003


def child_context(ctx: DurableContext):
    time.sleep(1)  # expect: ADK-W003


def step_body(step_context: StepContext):
    time.sleep(1)
