"""Orchestrators written against Dapr's own copy of durabletask (dapr.ext.workflow._durabletask)
are durabletask orchestrators: the module is read though it imports no `durabletask`."""
import random

from dapr.ext.workflow._durabletask import task


def flow(ctx: task.OrchestrationContext, n: int):
    pick = random.choice(range(n))  # expect: ADK-W002
    out = yield ctx.call_activity("act", input=pick)
    return out


def recorded(ctx: task.OrchestrationContext, n: int):
    pick = yield ctx.call_activity("draw", input=n)
    return pick
