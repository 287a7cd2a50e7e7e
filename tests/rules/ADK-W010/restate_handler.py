"""A Restate handler is checked; what ctx.run journals is not."""
import restate

service = restate.Service("Labels")


@service.handler()
async def label(ctx: restate.Context, labels: list[str]) -> str:
    unique = frozenset(labels)
    journaled = await ctx.run("pick", lambda: next(iter(unique)))
    picked = next(iter(unique))  # expect: ADK-W010
    return f"{journaled}{picked}{sorted(unique)}"
