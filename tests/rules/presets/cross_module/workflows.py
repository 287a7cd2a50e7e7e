import functools

import httpx
import restate
from dbos import DBOS

from pricing import spread

svc = restate.Service("quotes")


def fetch(url, timeout):
    return httpx.get(url, timeout=timeout).text


@svc.handler()
async def quote(ctx: restate.Context, url: str) -> str:
    return await ctx.run("fetch", functools.partial(fetch, url, 5.0))


@DBOS.workflow()
def quote_workflow(price: float) -> dict:
    return {"bid": spread(price)}  # expect: ADK-W005
