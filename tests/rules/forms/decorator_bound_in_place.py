"""`workflow.defn` bound by the decorator itself (an assignment expression): still a workflow."""

import random

from temporalio import workflow


@(chosen := workflow.defn)
class Farewell:
    @workflow.run
    async def run(self) -> float:
        return random.random()  # expect: ADK-W002
