"""An order taken from a set that only goes into a log line decides nothing; a set known to
hold one element gives that element to next(iter(...)) in any order."""
from datetime import timedelta

from temporalio import workflow


@workflow.defn
class Scheduler:
    def __init__(self) -> None:
        self.done: set[str] = set()

    @workflow.run
    async def run(self, tasks: list[str]) -> list[str]:
        for task in sorted(tasks):
            self.done.add(task)
            workflow.logger.debug("queued", extra={"visited": list(self.done)})
            workflow.logger.info(f"done so far: {', '.join(self.done)}")
        scopes = {t.split(".")[0] for t in tasks}
        if len(scopes) != 1:
            raise RuntimeError("one scope expected")
        scope = next(iter(scopes))
        await workflow.execute_activity(
            "close", scope, start_to_close_timeout=timedelta(seconds=5)
        )
        return list(self.done)  # expect: ADK-W010
