import time

from temporalio import workflow


@workflow.defn
class Stamp:
    @workflow.run
    async def run(self) -> float:
        started = workflow.now()  # replaylint: ignore[ADK-W003] -- expect: ADK-S001
        # replaylint: ignore[ADK-W004] -- left behind by a refactor  # expect: ADK-S001
        waited = time.monotonic()  # replaylint: ignore[ADK-W003, ADK-W002] -- expect: ADK-S001
        return started.timestamp() + waited
