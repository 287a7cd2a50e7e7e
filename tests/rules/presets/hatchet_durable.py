"""Hatchet: a durable task runs again from its first line after eviction; its waits and memoized
values come from the durable event log. Plain tasks run once per task run."""
import asyncio
import random
import time
from datetime import timedelta

import httpx
from hatchet_sdk import Context, DurableContext, EmptyModel
from hatchet_sdk import Hatchet as Client
from hatchet_sdk.conditions import SleepCondition, UserEventCondition, or_

hatchet = Client()
billing = hatchet.workflow(name="billing")


@hatchet.task(name="fetch-rates")
async def fetch_rates(input: EmptyModel, ctx: Context) -> dict:
    # A plain task: runs once per run, not replayed.
    return httpx.get("https://fx.example.com", params={"t": time.time()}).json()


@hatchet.durable_task(name="settle", execution_timeout=timedelta(hours=2))
async def settle(input: EmptyModel, ctx: DurableContext) -> dict:
    started = await ctx.aio_now()
    rates = await fetch_rates.aio_run(input)
    await ctx.aio_sleep_for(timedelta(minutes=10))
    await ctx.aio_wait_for("paid", or_(SleepCondition(timedelta(hours=1)), UserEventCondition(event_key="paid")))
    jitter = random.random()  # expect: ADK-W002
    await asyncio.sleep(jitter)  # expect: ADK-W003
    return {"started": started.isoformat(), "rates": rates}


@billing.durable_task()
async def reconcile(input, ctx) -> dict:
    ledger = httpx.get("https://ledger.example.com").json()  # expect: ADK-W004
    await ctx.aio_sleep_until(ctx_deadline(ledger))
    return ledger


def ctx_deadline(ledger: dict):
    return ledger["deadline"]


def main() -> None:
    worker = hatchet.worker("billing-worker", workflows=[fetch_rates, settle, billing])
    worker.start()


if __name__ == "__main__":
    main()
