"""A Temporal workflow class made one by calling the decorator on it, as `@workflow.defn` would;
its run method marked by a call too, in the class body or after it."""

import time

from temporalio import workflow


class Greeting:
    async def run(self, name: str) -> str:
        return f"{name} at {time.time()}"  # expect: ADK-W003

    run = workflow.run(run)

    @workflow.signal
    def rename(self, name: str) -> None:
        self.stamp = time.monotonic()  # expect: ADK-W003

    def helper(self) -> float:
        return time.time()


Greeting = workflow.defn(sandboxed=False)(Greeting)


class Farewell:
    async def go(self) -> float:
        return time.time()  # expect: ADK-W003


Farewell.go = workflow.run(Farewell.go)
workflow.defn(Farewell)
