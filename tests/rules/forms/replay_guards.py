"""A framework context's own question whether it replays: the branch taken when it is not
replaying runs the first time the run gets there, never on a replay, which is how Azure's and
Dapr's guides advise making a side effect once; so does the branch of a test with the guard as
one of its conjuncts (`not ctx.is_replaying and x`), false on every replay. The other branch, an
`is_replaying` of the project's own, a guard one of whose alternatives is something else (`x or
not ctx.is_replaying`), and a guarded block whose values the code after it reads are replayed code
like any; so is Temporal's, whose sandbox refuses the clock on the first
run too."""

import time
from datetime import timedelta

import azure.durable_functions as df
import requests
from dapr.ext.workflow import DaprWorkflowContext, WorkflowRuntime
from durabletask import task
from temporalio import workflow

wfr = WorkflowRuntime()


class Flags:
    is_replaying = False


FLAGS = Flags()
PENDING: dict[str, object] = {}


def orchestrator(ctx: df.DurableOrchestrationContext):
    if not ctx.is_replaying:
        requests.post("https://logs.example.com", json={"msg": "started"})
    else:
        requests.post("https://logs.example.com", json={"msg": "again"})  # expect: ADK-W004
    if ctx.is_replaying:
        requests.post("https://logs.example.com", json={"msg": "replay"})  # expect: ADK-W004
    else:
        time.sleep(1)
    if not FLAGS.is_replaying:
        requests.post("https://logs.example.com", json={"msg": "ours"})  # expect: ADK-W004
    return (yield ctx.call_activity("work", ctx.get_input()))


main = df.Orchestrator.create(orchestrator)


def scheduled(ctx: task.OrchestrationContext, value: int):
    if not ctx.is_replaying:
        print("first pass at", time.time())
    if not ctx.is_replaying and value > 2:
        print("large at", time.time())  # false on every replay, whatever the value
    if value > time.time() and not ctx.is_replaying:  # expect: ADK-W003
        print("a test evaluated before the guard, on every replay too")
    if not ctx.is_replaying and requests.get("https://hooks.example.com/ready").ok:
        print("asked the first time only: the guard fails first on a replay")
    if value > 2 or not ctx.is_replaying:
        print("large or first at", time.time())  # expect: ADK-W003
    if not (ctx.is_replaying and value > 2):
        print("not a large replay at", time.time())  # expect: ADK-W003
    if not (value > 2 and not ctx.is_replaying):
        print("small or replaying at", time.time())  # expect: ADK-W003
    else:
        print("large, first pass at", time.time())
    started = 0.0
    if not ctx.is_replaying:
        started = time.time()  # expect: ADK-W003
    if not ctx.is_replaying:
        elapsed = time.time()  # read nowhere else: made once, for the log line
        print("elapsed", elapsed)
    return (yield ctx.call_activity("double", input=value + started))


@wfr.workflow(name="notify")
def notify(ctx: DaprWorkflowContext, value: int):
    if not ctx.is_replaying:
        requests.post("https://hooks.example.com", json={"value": value})
    reply = yield ctx.wait_for_external_event("reply")
    if not ctx.is_replaying:
        # An item of a dict the block made itself: nothing outlives the block.
        body = {"value": value}
        if reply:
            body["reply"] = reply
        requests.post("https://hooks.example.com", json=body)
    if not ctx.is_replaying:
        PENDING["reply"] = reply  # module state: the block is replayed code
        requests.post("https://hooks.example.com", json=PENDING)  # expect: ADK-W004
    yield ctx.create_timer(timedelta(seconds=5))
    return value



@workflow.defn
class Reminder:
    @workflow.run
    async def run(self) -> str:
        if not workflow.unsafe.is_replaying():
            print("started at", time.time())  # expect: ADK-W003
        await workflow.sleep(60)
        return "done"
