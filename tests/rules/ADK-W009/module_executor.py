"""An executor built at import time is not reported there, but handing it work on the path is."""
from concurrent.futures import ThreadPoolExecutor

from temporalio import workflow

EXECUTOR = ThreadPoolExecutor(max_workers=2)


@workflow.defn
class Squares:
    @workflow.run
    async def run(self, n: int) -> int:
        future = EXECUTOR.submit(pow, n, 2)  # expect: ADK-W009
        local = ThreadPoolExecutor()  # expect: ADK-W009
        again = local.submit(pow, n, 3)  # the construction above is the finding
        return future.result() + again.result()
