import asyncio
import time

__adk_workflow__ = True


async def run(delay):
    await asyncio.sleep(0)  # a yield to the event loop: nothing waits
    time.sleep(0.0)
    await asyncio.sleep(0.1)  # expect: ADK-W003
    time.sleep(delay)  # expect: ADK-W003
    time.sleep(False)  # expect: ADK-W003
