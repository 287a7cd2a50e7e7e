"""A function handed to a helper runs where the helper calls it (or hands it on to code that
may); a helper that only looks at it (its name, its type), or hands it only to a recorder or
to another helper that only looks at it, runs nothing."""
import asyncio
import time
from datetime import timedelta

from temporalio import activity, workflow


@activity.defn
async def fetch(key: str) -> str:
    await asyncio.sleep(1)
    return key


def stamp() -> float:
    return time.time()  # expect: ADK-W003


def activity_name(method) -> str:
    label = method if isinstance(method, str) else method.__name__
    return f"acts.{label}"


def registered(fn) -> str:
    return activity_name(fn)


def for_each(fn, keys: list[str]) -> list[object]:
    return list(map(fn, keys))


def retrying(action, attempts: int = 3):
    for _ in range(attempts):
        result = action()
        if result:
            return result
    return None


@workflow.defn
class Names:
    @workflow.run
    async def run(self) -> str:
        name = activity_name(stamp)
        await workflow.execute_activity(name, start_to_close_timeout=timedelta(seconds=5))
        retrying(stamp)  # expect: ADK-W005
        await self._stage(fetch, name)
        registered(stamp)
        for_each(stamp, [name])  # expect: ADK-W005
        return self._described(stamp)

    async def _stage(self, activity_fn, key: str) -> str:
        return await workflow.execute_activity(
            activity_fn, key, start_to_close_timeout=timedelta(seconds=5)
        )

    def _described(self, fn) -> str:
        if fn is None or not callable(fn):
            return "none"
        return f"{fn.__module__}.{fn.__qualname__}"
