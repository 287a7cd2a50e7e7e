"""Inngest: every effect in a step, constant or event-derived step ids, the serve module (clean)."""
import random
import uuid
from datetime import datetime, timedelta

import fastapi
import httpx
import inngest
import inngest.fast_api

client = inngest.Inngest(app_id="shop", is_production=False)


@client.create_function(fn_id="ship", trigger=inngest.TriggerEvent(event="shop/paid"))
async def ship(ctx: inngest.Context) -> dict:
    order = ctx.event.data

    async def book_courier() -> dict:
        return httpx.post("https://courier.example.com", json={"ref": str(uuid.uuid4())}).json()

    booking = await ctx.step.run(f"book-{order['id']}", book_courier)
    lucky = await ctx.step.run("lucky", lambda: random.random() < 0.1)
    await ctx.step.sleep_until("until-noon", datetime.fromisoformat(order["noon"]))
    await ctx.step.sleep("cool-off", timedelta(minutes=5))
    await ctx.step.wait_for_event("delivered", event="shop/delivered", timeout=timedelta(days=3))
    await ctx.step.invoke("receipt", function=receipt, data={"id": order["id"]})
    await ctx.step.send_event("notify", inngest.Event(name="shop/shipped", data=order))
    return {"booking": booking, "lucky": lucky, "run": ctx.run_id}


@client.create_function(fn_id="receipt", trigger=inngest.TriggerEvent(event="shop/receipt"))
async def receipt(ctx: inngest.Context) -> str:
    return await ctx.step.run("print", lambda: httpx.get("https://print.example.com").text)


app = fastapi.FastAPI()
inngest.fast_api.serve(app, client, [ship, receipt])
