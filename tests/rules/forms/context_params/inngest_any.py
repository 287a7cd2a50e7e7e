"""A helper's context annotated `Any` says no more than none: Inngest's step.run still records
what the helper hands it."""
from functools import partial
from typing import Any

import httpx
import inngest

client = inngest.Inngest(app_id="shop")


def _fetch(url: str) -> dict:
    return httpx.get(url).json()


async def job(ctx: Any, url: str) -> dict:
    return await ctx.step.run("fetch", partial(_fetch, url))


@client.create_function(fn_id="a", trigger=inngest.TriggerEvent(event="a"))
async def fn_a(ctx: inngest.Context) -> dict:
    return await job(ctx, ctx.event.data["url"])
