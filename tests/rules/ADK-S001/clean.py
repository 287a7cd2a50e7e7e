import time

from temporalio import workflow


@workflow.defn
class Stamp:
    @workflow.run
    async def run(self) -> float:
        # Every directive here silences a finding, so none of them is stale.
        waited = time.monotonic()  # replaylint: ignore[ADK-W003] -- measured for a log line
        return waited + time.time()  # replaylint: ignore[wall-clock-in-workflow] -- the slug
