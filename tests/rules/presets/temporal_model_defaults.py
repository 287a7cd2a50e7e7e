import uuid
from dataclasses import dataclass, field
from datetime import datetime

from pydantic import BaseModel, Field
from temporalio import workflow


@dataclass
class Order:
    item: str
    order_id: str = field(default_factory=lambda: str(uuid.uuid4()))  # expect: ADK-W002
    tags: list[str] = field(default_factory=list)


class Invoice(BaseModel):
    issued: datetime = Field(default_factory=datetime.now)  # expect: ADK-W003


class Unused(BaseModel):
    # Never built on a workflow path: module-level code is not a Temporal workflow's.
    token: str = Field(default_factory=lambda: uuid.uuid4().hex)


@workflow.defn
class Checkout:
    @workflow.run
    async def run(self, item: str) -> str:
        order = Order(item)  # expect: ADK-W005
        invoice = Invoice()  # expect: ADK-W005
        given = Order(item, order_id=str(workflow.uuid4()))  # the factory never runs
        return f"{order}{invoice}{given}"
