import restate
import requests

greeter = restate.Service("greeter")


def fetch(url: str) -> str:
    return requests.get(url).text


async def journaled(ctx, url: str) -> str:
    return await ctx.run_typed("fetch", fetch, url=url)


@greeter.handler()
async def greet(ctx: restate.Context, url: str) -> str:
    return await journaled(ctx, url)
