import asyncio
import datetime
import time

__adk_workflow__ = True


async def run(ctx):
    started = time.time()  # expect: ADK-W003
    stamp = time.time_ns()  # expect: ADK-W003
    tick = time.monotonic()  # expect: ADK-W003
    perf = time.perf_counter()  # expect: ADK-W003
    today = datetime.date.today()  # expect: ADK-W003
    now = datetime.datetime.now(tz=datetime.timezone.utc)  # expect: ADK-W003
    utc = datetime.datetime.utcnow()  # expect: ADK-W003
    time.sleep(1)  # expect: ADK-W003
    await asyncio.sleep(1)  # expect: ADK-W003
    fixed = datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)
    return fixed.isoformat()
