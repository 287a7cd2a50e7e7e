import time

from temporalio import workflow


@workflow.defn
class Stamp:
    @workflow.run
    async def run(self) -> float:
        first = time.time()  # replaylint: ignore[ADK-W999] -- expect: ADK-S002 ADK-W003
        second = time.time()  # replaylint: ignore -- expect: ADK-S002 ADK-W003
        third = time.time()  # replaylint: ignore[] -- expect: ADK-S002 ADK-W003
        return first + second + third
