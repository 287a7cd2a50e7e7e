import random
import uuid
from datetime import timedelta

import requests
import restate
from restate import Context

greeter = restate.Service("Greeter")


def fetch_profile(name):
    return requests.get(f"https://profiles.example.com/{name}").json()  # expect: ADK-W004


@greeter.handler()
async def greet(ctx: Context, name: str) -> str:
    profile = await ctx.run("profile", lambda: fetch_profile(name))
    stamp = await ctx.time()
    token = ctx.uuid()
    lucky = ctx.random().randint(1, 9)
    await ctx.sleep(timedelta(seconds=1))
    unlucky = random.randint(1, 9)  # expect: ADK-W002
    raw = requests.get("https://example.com")  # expect: ADK-W004
    again = fetch_profile(name)  # expect: ADK-W005
    return f"{profile} {stamp} {token} {lucky} {unlucky} {raw} {again}"


cart = restate.VirtualObject("Cart")


@cart.handler(kind="shared")
async def total(ctx):
    saved = await ctx.run("fetch", fetch_profile, args=("x",))
    return saved, uuid.uuid4()  # expect: ADK-W002
