import asyncio
import random
import time
from datetime import timedelta

import httpx
from temporalio import activity, workflow

with workflow.unsafe.imports_passed_through():
    from openai import AsyncOpenAI


def _stamp():
    return time.time()  # expect: ADK-W003


def _format(order):
    return f"order-{order}"


@activity.defn
async def fetch_quote(sku: str) -> dict:
    async with httpx.AsyncClient() as client:
        return (await client.get(f"https://quotes.example.com/{sku}")).json()


@activity.defn
async def summarize(text: str) -> str:
    reply = await AsyncOpenAI().responses.create(model="gpt-4o", input=text)
    return reply.output_text


@workflow.defn
class OrderWorkflow:
    def __init__(self) -> None:
        self.approved = False

    @workflow.run
    async def run(self, sku: str) -> dict:
        started = workflow.now()
        ticket = workflow.uuid4()
        jitter = workflow.random().random()
        await asyncio.sleep(5)
        await workflow.sleep(timedelta(seconds=5))
        await workflow.wait_condition(lambda: self.approved)
        quote = await workflow.execute_activity(
            fetch_quote, sku, start_to_close_timeout=timedelta(seconds=10)
        )
        summary = await workflow.execute_activity(summarize, str(quote), start_to_close_timeout=timedelta(seconds=30))
        label = _format(sku)
        wall = time.time()  # expect: ADK-W003
        rid = random.randint(1, 9)  # expect: ADK-W002
        when = _stamp()  # expect: ADK-W005
        direct = await fetch_quote(sku)  # expect: ADK-W005
        return {"quote": quote, "summary": summary, "started": started, "ticket": ticket,
                "jitter": jitter, "label": label, "wall": wall, "rid": rid, "when": when, "direct": direct}

    @workflow.signal
    def approve(self) -> None:
        self.approved = True

    @workflow.query
    def status(self) -> str:
        return f"approved={self.approved} at {time.monotonic()}"  # expect: ADK-W003

    @workflow.update
    def set_discount(self, percent: int) -> None:
        self.discount = percent

    @set_discount.validator
    def check_discount(self, percent: int) -> None:
        if percent > 50 and random.random() > 0.5:  # expect: ADK-W002
            raise ValueError("too generous")

    def debug_stamp(self) -> float:
        return time.time()  # never called from workflow context: not replayed


def not_reached():
    return time.time()
