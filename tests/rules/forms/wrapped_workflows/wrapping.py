"""The project's own decorators, kept apart from the workflows they wrap."""

import functools
import os
import random
import time
import uuid

from dbos import DBOS


def with_parent(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        if os.environ.get("PARENT_ID"):  # expect: ADK-W007
            DBOS.set_event("parent", "known")
        return func(*args, **kwargs)

    return wrapper


def timed(label):
    def decorate(func):
        @functools.wraps(func)
        async def wrapper(*args, **kwargs):
            started = time.monotonic()  # expect: ADK-W003
            result = await func(*args, **kwargs)
            print(label, time.monotonic() - started)  # expect: ADK-W003
            return result

        return wrapper

    return decorate


def audited(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        print("called at", time.time())
        return func(*args, **kwargs)

    return wrapper


def registered(func):
    return func


def jittered(func):
    def wrapper(*args, **kwargs):
        if random.random() < 0.5:  # expect: ADK-W002
            return None
        return func(*args, **kwargs)

    return functools.wraps(func)(wrapper)


def sampled(func):
    @functools.wraps(func)
    async def wrapper(*args, **kwargs):
        return await func(*args, **kwargs), uuid.uuid4()  # expect: ADK-W002

    return wrapper


def noted(func):
    @functools.wraps(func)
    async def wrapper(*args, **kwargs):
        print(uuid.uuid4())  # a signal handler's outer wrapper: Temporal runs the inner one
        return await func(*args, **kwargs)

    return wrapper
