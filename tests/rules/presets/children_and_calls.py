"""Child workflows and service calls are recorded by the framework, so handing over an unsafe
workflow or handler is not a finding where it is handed over."""
import random
import time

import restate
from dbos import DBOS, Queue

queue = Queue("work")


@DBOS.workflow()
def child():
    time.sleep(5)  # expect: ADK-W003


@DBOS.workflow()
def parent():
    first = child()
    handle = DBOS.start_workflow(child)
    queued = queue.enqueue(child)
    later = DBOS.enqueue_workflow("work", child)
    return first, handle, queued, later


svc = restate.Service("dice")


@svc.handler()
async def roll(ctx: restate.Context) -> int:
    return random.randint(1, 6)  # expect: ADK-W002


@svc.handler()
async def game(ctx: restate.Context) -> int:
    remote = await ctx.service_call(roll, arg=None)
    ctx.service_send(roll, arg=None)
    inline = await roll(ctx)  # expect: ADK-W005
    return remote + inline
