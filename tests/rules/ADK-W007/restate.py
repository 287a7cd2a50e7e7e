import os

import restate
from restate import Context

greeter = restate.Service("Greeter")


@greeter.handler()
async def greet(ctx: Context, name: str) -> str:
    region = await ctx.run("region", lambda: os.environ["REGION"])
    host = os.getenv("HOSTNAME")  # expect: ADK-W007
    return f"{name} {region} {host}"


app = restate.app([greeter]) if os.environ.get("SERVE") else None
