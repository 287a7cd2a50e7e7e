"""An order taken from a set that only reaches a log line, however the line is built: a
comprehension over the set, `next(iter(s))`, a local that is only ever logged, `print`. A
local that is also returned, or a comprehension handed to a command, decides the workflow."""
import logging
from datetime import timedelta

from temporalio import workflow

log = logging.getLogger(__name__)


@workflow.defn
class Seen:
    @workflow.run
    async def run(self, xs: list[str]) -> list[str]:
        s = set(xs)
        log.info("seen %s", [x for x in s], extra={"upper": [x.upper() for x in s]})
        log.info("one of them: %s", next(iter(s)))
        names = list(s)
        log.info("seen %s", names)
        print([x.lower() for x in s])
        kept = list(s)  # expect: ADK-W010
        log.info("kept %s", kept)
        await workflow.execute_activity(
            "note",
            [x for x in s],  # expect: ADK-W010
            start_to_close_timeout=timedelta(seconds=5),
        )
        return kept
