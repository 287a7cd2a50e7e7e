"""A Restate handler is checked; what ctx.run journals is not."""
import restate

service = restate.Service("Tally")
TOTALS: dict[str, int] = {}


def _record(key: str) -> int:
    TOTALS[key] = TOTALS.get(key, 0) + 1
    return TOTALS[key]


@service.handler()
async def tally(ctx: restate.Context, key: str) -> int:
    journaled = await ctx.run("record", lambda: _record(key))
    TOTALS.clear()  # expect: ADK-W011
    return journaled
