"""Resonate: a registered function that awaits durable operations walks its body again when it
resumes; a leaf (no durable operations) runs once, and so does one run through ctx.run, unless it
awaits durable operations itself: then it is a nested workflow."""
import random
import time
import uuid
from datetime import timedelta

import httpx
from resonate.context import Context
from resonate.resonate import Resonate

resonate = Resonate(url="http://localhost:8001")


def price(ctx: Context, sku: str) -> float:
    # A leaf run through ctx.run: recorded.
    return httpx.get(f"https://price.example.com/{sku}", params={"t": time.time()}).json()["price"]


async def remind(ctx, email: str) -> str:
    note = f"reminder-{uuid.uuid4().hex}"  # expect: ADK-W002
    await ctx.sleep(timedelta(days=1))
    return note


def stock(sku: str) -> int:
    return httpx.get(f"https://stock.example.com/{sku}").json()["n"]  # expect: ADK-W004


@resonate.register(name="quote", version=2)
async def quote(ctx: Context, sku: str, email: str) -> dict:
    amount = await ctx.run(price, sku)
    count = stock(sku)  # expect: ADK-W005
    note = await ctx.run(remind, email)
    discount = random.random() < 0.1  # expect: ADK-W002
    approval = ctx.promise(timeout=timedelta(hours=4))
    await ctx.rpc("notify", await approval.id())
    return {"amount": amount, "count": count, "note": note, "discount": discount}


@resonate.register
def lookup(ctx: Context, sku: str) -> dict:
    # A registered leaf: no durable operations, so it runs once.
    return {"sku": sku, "at": time.time(), "stock": stock(sku)}


def audit(ctx: Context, entry: dict):
    stamp = time.time()  # expect: ADK-W003
    yield ctx.lfc(price, entry["sku"])
    return stamp


resonate.register(audit, name="audit")


async def main() -> None:
    handle = resonate.run(f"quote-{uuid.uuid4()}", quote, "sku-1", "a@example.com")
    print(await handle.result(), time.time())
