"""A query's answer goes to its caller, never into the history: the order of a set it lists
decides nothing a replay compares. The run's own iteration of the same set does."""
from datetime import timedelta

from temporalio import workflow


@workflow.defn
class Approvals:
    def __init__(self) -> None:
        self._pending: set[str] = set()

    @workflow.signal
    async def add(self, task_id: str) -> None:
        self._pending.add(task_id)

    @workflow.query
    def pending(self) -> list[str]:
        return list(self._pending)

    @workflow.run
    async def run(self) -> None:
        await workflow.wait_condition(lambda: bool(self._pending))
        for task_id in self._pending:  # expect: ADK-W010
            await workflow.execute_activity(
                "approve", task_id, start_to_close_timeout=timedelta(seconds=5)
            )
