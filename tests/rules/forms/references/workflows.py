"""Workflow methods and activities named by reference are never run here: handles, client
calls and a getattr only handed to execute_activity."""
from datetime import timedelta

from temporalio import workflow
from temporalio.client import WorkflowHandle

with workflow.unsafe.imports_passed_through():
    import billing
    from shipping import Shipping


async def raise_limit(handle: WorkflowHandle, limit: int) -> int:
    return await handle.execute_update(Shipping.set_limit, limit)


@workflow.defn
class Orders:
    @workflow.run
    async def run(self, kind: str, order: str) -> str:
        handle = workflow.get_external_workflow_handle_for(Shipping.run, order)
        await handle.signal(Shipping.restock, 3)
        charge = getattr(billing, f"charge_{kind}")
        await workflow.execute_activity(charge, order, start_to_close_timeout=timedelta(5))
        refund = getattr(billing, f"refund_{kind}")  # expect: ADK-W006
        return refund(order)
