"""Helpers given the workflow's run context through a parameter with no annotation, in a module
that imports no framework."""
import os

import requests


def notify(ctx, data: dict) -> dict:
    url = os.environ.get("NOTIFY_URL", "https://hooks.example.com")
    return requests.post(url, json=data).json()  # expect: ADK-W004


def schedule_notify(ctx, payload: dict):
    # The context's own recorder: `notify` runs as an activity, never inline here.
    return (yield ctx.call_activity(notify, input=payload))


def forward(wf_context, payload: dict):
    return (yield wf_context.call_child_workflow(notify, input=payload))


def run_with(runner, payload: dict):
    # Not named as a context: what it is handed may run right here.
    return runner.call_activity(notify, payload)  # expect: ADK-W005


def poke(ctx, payload: dict):
    # A context's method that records nothing: the function handed over may run here.
    return ctx.keep(notify, payload)  # expect: ADK-W005
