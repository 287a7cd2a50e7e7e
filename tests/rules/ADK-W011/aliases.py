"""Module state reached through a local name bound to it is still module state."""
from temporalio import workflow

HISTORY: list[str] = []
LIMITS = {"max": 3}


@workflow.defn(sandboxed=False)  # every run on the worker shares this module
class ReportWorkflow:
    @workflow.run
    async def run(self, name: str) -> str:
        log = HISTORY
        log.append(name)  # expect: ADK-W011
        limits = LIMITS
        if limits.get("max"):  # a read
            pass
        copy = list(HISTORY)
        copy.append(name)  # a copy is the run's own
        log = []
        log.append(name)  # rebound to a list of its own
        return name
