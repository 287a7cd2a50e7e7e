import random
import time

from durabletask import task, worker


def hello(ctx: task.ActivityContext, name: str) -> str:
    time.sleep(1)
    return f"Hello {name}"


def sequence(ctx: task.OrchestrationContext, _):
    first = yield ctx.call_activity(hello, input="Tokyo")
    fire = ctx.current_utc_datetime
    pause = random.random()  # expect: ADK-W002
    yield ctx.create_timer(fire)
    return [first, pause]


def untyped(ctx, _):
    time.sleep(2)  # expect: ADK-W003
    return (yield ctx.call_activity(hello, input="Paris"))


with worker.TaskHubGrpcWorker() as w:
    w.add_orchestrator(sequence)
    w.add_orchestrator(untyped)
    w.add_activity(hello)
    w.start()
