"""Inngest: the handler runs again on every request; step outputs are memoized by step id, so a
step id drawn from the clock or a random generator is itself a replay bug."""
import asyncio
import os
import random
import time
import uuid
from datetime import date, timedelta
from functools import partial

import httpx
import inngest
from inngest import Inngest as Client

client = Client(app_id="billing")
SEEN: set[str] = set()


def invoice_pdf(invoice_id: str) -> bytes:
    return httpx.get(f"https://pdf.example.com/{invoice_id}").content  # expect: ADK-W004


@client.create_function(fn_id="send-invoice", trigger=inngest.TriggerEvent(event="billing/invoice"))
async def send_invoice(ctx: inngest.Context) -> dict:
    invoice = ctx.event.data
    pdf = await ctx.step.run("render", invoice_pdf, invoice["id"])  # recorded
    preview = invoice_pdf(invoice["id"])  # expect: ADK-W005
    await ctx.step.run(f"mail-{uuid.uuid4()}", partial(httpx.post, "https://mail.example.com"))  # expect: ADK-W002
    await ctx.step.sleep(f"wait-{date.today()}", timedelta(days=1))  # expect: ADK-W003
    await asyncio.sleep(5)  # expect: ADK-W003
    if invoice["id"] in SEEN:
        return {"duplicate": True}
    SEEN.add(invoice["id"])  # expect: ADK-W011
    ctx.logger.info("region %s", os.environ.get("REGION"))  # a log line only: fine
    # Given to a step memoized by its id, the value decides nothing; as the id, it does.
    await ctx.step.run("archive", invoice_pdf, os.environ.get("ARCHIVE_ID", "none"))
    await ctx.step.run(os.environ.get("STEP_NAME", "notify"), invoice_pdf, "n")  # expect: ADK-W007
    return {"pdf": len(pdf), "preview": len(preview)}


@client.create_function(fn_id="reindex", trigger=inngest.TriggerCron(cron="0 * * * *"))
def reindex(ctx) -> list:
    # Called on every request to find their steps: the group's callables are replayed.
    shards = ctx.group.parallel(
        tuple(lambda n=n: ctx.step.run(f"shard-{n}-{random.random()}", lambda: n) for n in range(3))  # expect: ADK-W002
    )
    ctx.step.run("stamp", time.time)  # the clock read inside the step: recorded
    time.sleep(2)  # expect: ADK-W003
    return list(shards)


@client.create_function(fn_id="fan", trigger=inngest.TriggerEvent(event="fan/out"))
async def fan(ctx: inngest.Context) -> tuple:
    # Named callables given to the group run on every request, as lambdas do.
    async def left() -> str:
        return await ctx.step.run("left", invoice_pdf, "l")

    async def right() -> str:
        shard = random.randint(0, 9)  # expect: ADK-W002
        return await ctx.step.run(f"right-{shard}", invoice_pdf, "r")

    return await ctx.group.parallel((left, right))
