"""A Restate handler is checked; what ctx.run journals is not."""
import restate

service = restate.Service("Tally")
TOTALS: dict[str, int] = {}
LAST: dict[str, str] = {}


def _record(key: str) -> int:
    TOTALS[key] = TOTALS.get(key, 0) + 1
    return TOTALS[key]


@service.handler()
async def tally(ctx: restate.Context, key: str) -> int:
    journaled = await ctx.run("record", lambda: _record(key))
    TOTALS.clear()  # only ctx.run's journaled action reads it back: write-only here
    LAST[key] = key  # expect: ADK-W011
    return journaled


@service.handler()
async def last(ctx: restate.Context, key: str) -> str:
    return LAST.get(key, "")  # another handler reads it back: what a replay returns depends on it
