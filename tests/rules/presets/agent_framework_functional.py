"""Agent Framework functional workflows: the @workflow body runs again on resume and on restore;
@step results are cached, unless the step asks for input: then it runs again up to its request."""
import random
import time
import uuid

import httpx
from agent_framework import RunContext, step, workflow


@step
async def fetch(url: str) -> dict:
    return httpx.get(url, params={"nonce": str(uuid.uuid4())}).json()


@step(name="approve")
async def approve(amount: float, ctx: RunContext) -> bool:
    asked = time.time()  # expect: ADK-W003
    answer = await ctx.request_info({"amount": amount, "asked": asked}, response_type=bool)
    httpx.post("https://audit.example.com", json={"answer": answer})  # after the request: once
    return answer


async def pick_region() -> str:
    return random.choice(["eu", "us"])  # expect: ADK-W002


@workflow(name="payout")
async def payout(amount: float, ctx: RunContext) -> dict:
    data = await fetch("https://ledger.example.com")
    region = await pick_region()  # expect: ADK-W005
    ok = await approve(amount, ctx)
    ctx.set_state("region", region)
    return {"data": data, "ok": ok, "at": time.time()}  # expect: ADK-W003
