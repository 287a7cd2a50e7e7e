"""A workflow class's handlers written in a plain base class are registered with it (Temporal
reads the class's members, its bases' included): they are replayed code. The base's other
methods are not, until a handler calls them."""
import time

from temporalio import workflow


class Approvals:
    @workflow.signal
    async def approve(self) -> None:
        self.approved_at = time.time()  # expect: ADK-W003

    @workflow.query
    def approved(self) -> bool:
        return self.approved_at > 0

    def stamp(self) -> float:
        return time.time()


@workflow.defn
class Payment(Approvals):
    def __init__(self) -> None:
        self.approved_at = 0.0

    @workflow.run
    async def run(self) -> bool:
        await workflow.wait_condition(lambda: self.approved_at > 0)
        return True
