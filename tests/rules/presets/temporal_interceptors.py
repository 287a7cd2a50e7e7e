"""A Temporal workflow interceptor's hooks run inside the workflow, in its sandbox, on every
replay: the inbound interceptor's execute_workflow and handlers, the outbound one's calls."""
import random
import time
from typing import Any

from temporalio import workflow
from temporalio.worker import (
    ExecuteWorkflowInput,
    Interceptor,
    StartActivityInput,
    WorkflowInboundInterceptor,
    WorkflowInterceptorClassInput,
    WorkflowOutboundInterceptor,
)


class StampInbound(WorkflowInboundInterceptor):
    async def execute_workflow(self, input: ExecuteWorkflowInput) -> Any:
        started = time.time()  # expect: ADK-W003
        if started % 2:
            workflow.logger.info("odd start")
        return await self.next.execute_workflow(input)

    def init(self, outbound: WorkflowOutboundInterceptor) -> None:
        super().init(JitterOutbound(outbound))


class SignalledInbound(StampInbound):
    # Through a local class in between: still a workflow interceptor.
    async def handle_signal(self, input: Any) -> None:
        if random.random() < 0.1:  # expect: ADK-W002
            workflow.logger.info("sampled signal")
        await super().handle_signal(input)


class JitterOutbound(WorkflowOutboundInterceptor):
    def start_activity(self, input: StartActivityInput) -> workflow.ActivityHandle:
        if random.random() < 0.5:  # expect: ADK-W002
            workflow.logger.info("sampled")
        return super().start_activity(input)


class Stamp(Interceptor):
    def workflow_interceptor_class(
        self, input: WorkflowInterceptorClassInput
    ) -> type[WorkflowInboundInterceptor] | None:
        # Asked by the worker, outside any workflow.
        print("asked at", time.time())
        return StampInbound


@workflow.defn
class Orders:
    # Named like interceptor hooks, these are no hooks: nothing in a workflow calls them.
    @staticmethod
    def execute_workflow(client: Any, order: str) -> Any:
        return client.start_workflow(Orders.run, order, id=f"order-{random.random()}")

    @classmethod
    def info(cls) -> str:
        return f"orders as of {time.time()}"

    @workflow.run
    async def run(self, order: str) -> str:
        return order
