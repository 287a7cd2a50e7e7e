"""Resonate's published constructors: `Resonate.remote(...)` and `Resonate.local()` build the
instance whose `register` marks durable functions, as `Resonate(...)` does."""
import random
import time

from resonate import Resonate

resonate = Resonate.remote(host="http://localhost", group="worker")
local = Resonate.local()


def step(_, value):
    return value


@resonate.register
def flow(ctx, value):
    started = time.time()  # expect: ADK-W003
    found = yield ctx.lfc(step, value)
    return found if time.time() - started < 5 else None  # expect: ADK-W003


@local.register(name="tally")
def tally(ctx, values):
    total = yield ctx.lfc(step, sum(values))
    return total + random.random()  # expect: ADK-W002
