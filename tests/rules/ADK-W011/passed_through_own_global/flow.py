from datetime import timedelta

from temporalio import workflow

import fresh

with workflow.unsafe.imports_passed_through():
    import counter


@workflow.defn
class Flow:
    @workflow.run
    async def run(self, x: str) -> str:
        n = counter.remember(x)  # expect: ADK-W005
        if n > 3 or fresh.remember(x) > 3:
            return await workflow.execute_activity(
                "a", x, start_to_close_timeout=timedelta(seconds=5)
            )
        return x
