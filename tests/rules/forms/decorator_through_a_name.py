"""`workflow.defn` bound to a name first: the class that name decorates is a workflow."""

import time

from temporalio import workflow

replayed = workflow.defn


@replayed
class Greeting:
    @workflow.run
    async def run(self) -> float:
        return time.time()  # expect: ADK-W003
