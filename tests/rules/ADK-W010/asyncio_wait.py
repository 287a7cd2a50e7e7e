"""asyncio.wait hands back the finished tasks as a set: iterating it follows their memory
addresses (Temporal's guide: use workflow.wait or workflow.as_completed instead)."""
import asyncio
from datetime import timedelta

from temporalio import activity, workflow


@activity.defn
async def work(n: int) -> int:
    return n


@workflow.defn
class Fanout:
    @workflow.run
    async def run(self, ns: list[int]) -> list[int]:
        timeout = timedelta(seconds=5)
        tasks = [
            asyncio.create_task(workflow.execute_activity(work, n, start_to_close_timeout=timeout))
            for n in ns
        ]
        out: list[int] = []
        pending = set(tasks)
        finished = 0
        while pending:
            done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            finished += len(done)
            for task in done:  # expect: ADK-W010
                out.append(task.result())
        return out + [finished]
