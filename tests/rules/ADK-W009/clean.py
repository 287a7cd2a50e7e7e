"""Traps: asyncio's own tasks, locks and events, a user's own pool, text that mentions the APIs."""
import asyncio
import subprocess
import threading

__adk_workflow__ = True


class Pool:
    def submit(self, fn, *args):
        return fn(*args)

    def map(self, fn, items):
        return [fn(item) for item in items]


async def step(item):
    return item


async def run(pool: Pool, items, runner):
    # subprocess.run(["ls"]) in a comment is not a call
    note = "start a threading.Thread or os.system here"
    tasks = [asyncio.create_task(step(item)) for item in items]
    done = await asyncio.gather(*tasks)
    first, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    async with asyncio.TaskGroup() as group:
        group.create_task(step(1))
    lock = asyncio.Lock()
    event = asyncio.Event()
    mutex = threading.Lock()
    a = pool.submit(step, 1)
    b = pool.map(step, items)
    c = runner.run(["ls"])
    d = subprocess.PIPE
    return note, done, first, pending, lock, event, mutex, a, b, c, d


def shadowed():
    subprocess = Pool()
    return subprocess.submit(print, 1)
