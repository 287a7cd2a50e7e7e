import functools
import time
from concurrent.futures import ThreadPoolExecutor

__adk_workflow__ = True


def schedule(pool: ThreadPoolExecutor, items):
    stamp = functools.partial(time.time)  # expect: ADK-W003
    pool.submit(time.sleep, 1)  # expect: ADK-W003, ADK-W009
    stamps = list(map(lambda _: time.time(), items))  # expect: ADK-W003
    return sorted(items, key=lambda item: time.monotonic())  # expect: ADK-W003
