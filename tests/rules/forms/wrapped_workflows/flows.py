"""A project's decorator written below the framework's wraps the workflow the framework
registers: its wrapper runs on every replay. One written above wraps what the framework
already holds (it runs only where it is called), and one that returns the function as it is
adds nothing to run."""

from dbos import DBOS
from temporalio import workflow
from wrapping import audited, registered, timed, with_parent


@DBOS.step()
def work() -> int:
    return 1


@DBOS.workflow()
@with_parent
@registered
def parented() -> int:
    return work()


@audited
@DBOS.workflow()
def outside() -> int:
    return work()


@workflow.defn
class Report:
    @workflow.run
    @timed("report")
    async def run(self) -> str:
        return "done"
