import time

from temporalio import workflow


@workflow.defn
class Stamp:
    @workflow.run
    async def run(self) -> float:
        first = time.time()  # replaylint: ignore[ADK-W003] -- a code
        second = time.time()  # replaylint: ignore[wall-clock-in-workflow] -- or its slug
        # Text that only mentions replaylint: ignore[...] in a comment's prose is no directive.
        return first + second
