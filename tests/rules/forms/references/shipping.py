import random

from temporalio import workflow


@workflow.defn
class Shipping:
    @workflow.run
    async def run(self, order: str) -> str:
        return order

    @workflow.signal
    def restock(self, count: int) -> None:
        self.count = count

    @workflow.update
    def set_limit(self, limit: int) -> int:
        return limit + random.randint(0, 1)  # expect: ADK-W002
