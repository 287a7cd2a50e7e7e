import uuid

import nexusrpc
from temporalio import nexus, workflow


@workflow.defn
class Other:
    @workflow.run
    async def run(self, name: str) -> str:
        return name


@nexusrpc.handler.service_handler
class Handler:
    @nexus.workflow_run_operation
    async def op(self, ctx: nexus.WorkflowRunOperationContext, name: str):
        # Runs in the Nexus handler's worker: an id drawn here is no workflow's decision.
        return await ctx.start_workflow(Other.run, name, id=str(uuid.uuid4()))


@workflow.defn
class Caller:
    @workflow.run
    async def run(self, name: str) -> str:
        client = workflow.create_nexus_client(service=Handler, endpoint="greetings")
        first = await client.execute_operation(Handler.op, name)
        started = await client.start_operation(Handler.op, name)
        external = workflow.get_external_workflow_handle_for(Other.run, workflow_id="other")
        await external.signal(Other.run)
        return f"{first}{started}{uuid.uuid4()}"  # expect: ADK-W002
