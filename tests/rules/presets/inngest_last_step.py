"""An Inngest handler runs again on every request up to its last step: what follows the last
step runs in the last request only, once, and a handler that calls no step runs once per attempt,
with nothing memoized to differ from."""
import random
import time
import uuid

import inngest
import requests

client = inngest.Inngest(app_id="audits")


def check() -> dict:
    return requests.get("https://api.example.com/check").json()


async def checked_twice(ctx: inngest.Context) -> dict:
    first = await ctx.step.run("first", check)
    return await ctx.step.run(f"second-{time.time()}", check)  # expect: ADK-W003


@client.create_function(fn_id="audit", trigger=inngest.TriggerEvent(event="audit/run"))
async def audit(ctx: inngest.Context) -> dict:
    started = time.time()  # expect: ADK-W003
    result = await ctx.step.run("check", check)
    result["started"] = started
    result["completed"] = time.time()  # after the last step: once
    requests.post("https://ui.example.com/progress", json=result)
    return result


@client.create_function(fn_id="batch", trigger=inngest.TriggerEvent(event="batch/run"))
async def batch(ctx: inngest.Context) -> list:
    done = []
    for n in range(3):
        stamp = time.time()  # expect: ADK-W003
        done.append(await ctx.step.run(f"item-{n}", check))
    done.append(uuid.uuid4().hex)  # after the loop whose turns each take a step: once
    return done


@client.create_function(fn_id="nested", trigger=inngest.TriggerEvent(event="nested/run"))
async def nested(ctx: inngest.Context) -> dict:
    marker = uuid.uuid4().hex  # expect: ADK-W002
    result = await checked_twice(ctx)  # expect: ADK-W005
    return {"marker": marker, "result": result, "at": time.time()}


@client.create_function(fn_id="plot", trigger=inngest.TriggerEvent(event="movie/watched"))
async def plot(ctx: inngest.Context) -> dict:
    # No step at all: one request per attempt, nothing memoized, nothing replayed.
    movie = requests.get("https://omdb.example.com/?t=" + ctx.event.data["title"]).json()
    return {"plot": movie["Plot"], "ref": str(uuid.uuid4())}


async def first_phase(ctx: inngest.Context) -> int:
    await ctx.step.run("phase-1", check)
    # After this helper's last step, but its caller takes another: on every later request.
    return random.randint(0, 9)  # expect: ADK-W002


@client.create_function(fn_id="phased", trigger=inngest.TriggerEvent(event="phased/run"))
async def phased(ctx: inngest.Context) -> dict:
    shard = await first_phase(ctx)  # expect: ADK-W005
    return await ctx.step.run(f"phase-2-{shard}", check)


@client.create_function(fn_id="poll", trigger=inngest.TriggerEvent(event="poll/run"))
async def poll(ctx: inngest.Context) -> int:
    n = 0
    while not await ctx.step.run(f"poll-{n}", check):
        n += random.randint(1, 3)  # expect: ADK-W002
    return n


@client.create_function(fn_id="guarded", trigger=inngest.TriggerEvent(event="guarded/run"))
async def guarded(ctx: inngest.Context) -> dict:
    try:
        return await ctx.step.run("work", check)
    finally:
        # Each new step ends the request by raising through here: on every request.
        print("closed at", time.time())  # expect: ADK-W003
