"""ctx.step.invoke(function=child) runs the child as a run of its own, memoized: the child's
own findings are its own, and the invoking handler calls nothing of it."""
import time

import inngest

client = inngest.Inngest(app_id="shop")


@client.create_function(fn_id="child", trigger=inngest.TriggerEvent(event="child"))
async def child(ctx: inngest.Context) -> float:
    started = time.time()  # expect: ADK-W003
    await ctx.step.sleep("pause", 1000)
    return started


@client.create_function(fn_id="parent", trigger=inngest.TriggerEvent(event="parent"))
async def parent(ctx: inngest.Context) -> float:
    return await ctx.step.invoke("call-child", function=child, data={})
