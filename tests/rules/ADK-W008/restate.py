from pathlib import Path

import restate
from restate import Context

reports = restate.Service("Reports")


def read(name: str) -> str:
    return Path(name).read_text()


@reports.handler()
async def render(ctx: Context, name: str) -> str:
    journaled = await ctx.run("read", lambda: Path(name).read_text())
    again = await ctx.run("read-again", read, args=(name,))
    raw = Path(name).read_text()  # expect: ADK-W008
    return journaled + again + raw
