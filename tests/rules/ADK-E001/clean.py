"""A workflow module Python reads: nothing to report, however unusual its syntax."""

import asyncio

__adk_workflow__ = True


async def run(items: list[int]) -> int:
    match items:
        case [first, *_] if (total := sum(items)) > first:
            return total
        case _:
            await asyncio.sleep(0)
            return 0
