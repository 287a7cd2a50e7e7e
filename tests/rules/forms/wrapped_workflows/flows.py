"""A project's decorator written below the framework's wraps the workflow the framework
registers: its wrapper runs on every replay, past other decorators of the framework's too
(`required_roles`). One written above wraps what the framework already holds (it runs only
where it is called), except above Temporal's run method, which the class runs as it holds it;
one that returns the function as it is adds nothing to run."""

from dbos import DBOS
from temporalio import workflow
from wrapping import audited, jittered, noted, registered, sampled, timed, with_parent


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


@DBOS.workflow()
@DBOS.required_roles(["admin"])
@jittered
def guarded() -> int:
    return work()


@workflow.defn
class Report:
    @workflow.run
    @timed("report")
    async def run(self) -> str:
        return "done"

    @noted
    @workflow.signal
    async def poke(self) -> None:
        return None


@workflow.defn
class Sampled:
    @sampled
    @workflow.run
    async def run(self) -> str:
        return "done"
