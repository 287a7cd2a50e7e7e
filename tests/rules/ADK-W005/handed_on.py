"""A function handed to a helper runs where the helper calls it (or hands it on); a helper that
only looks at it (its name, its type) runs nothing."""
import time
from datetime import timedelta

from temporalio import workflow


def stamp() -> float:
    return time.time()  # expect: ADK-W003


def activity_name(method) -> str:
    label = method if isinstance(method, str) else method.__name__
    return f"acts.{label}"


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
        return self._described(stamp)

    def _described(self, fn) -> str:
        if fn is None or not callable(fn):
            return "none"
        return f"{fn.__module__}.{fn.__qualname__}"
