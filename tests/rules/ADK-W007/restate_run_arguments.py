"""A Restate journaled action is found on replay by its place and name, and its function is not
called again: a value that only goes into the function's arguments decides nothing. Its name
does, and so does what a handler sends to another service."""
import os

import httpx
import restate

weather = restate.Service("weather")
forecasts = restate.Service("forecasts")


async def fetch(url: str, key: str) -> str:
    return (await httpx.AsyncClient().get(url, headers={"key": key})).text


@forecasts.handler()
async def store(ctx: restate.Context, text: str) -> None:
    ctx.set("last", text)


@weather.handler()
async def today(ctx: restate.Context, city: str) -> str:
    key = os.getenv("WEATHER_API_KEY", "")
    text = await ctx.run_typed("fetch", fetch, url=f"https://w.example.com/{city}", key=key)
    label = os.getenv("RUN_LABEL", "fetch-again")  # expect: ADK-W007
    await ctx.run_typed(label, fetch, url="https://w.example.com/all", key="")
    region = os.getenv("REGION", "eu")  # expect: ADK-W007
    await ctx.service_call(store, arg=f"{region}:{text}")
    return text
