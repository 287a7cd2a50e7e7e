import random
import time
import uuid

import boto3
from aws_durable_execution_sdk_python import (
    DurableContext,
    StepContext,
    durable_execution,
    durable_step,
)
from aws_durable_execution_sdk_python.config import Duration


@durable_step
def reserve(step_context: StepContext, item: str) -> str:
    return f"{item}-{uuid.uuid4()}"


@durable_execution
def handler(event: dict, context: DurableContext) -> dict:
    reservation = context.step(reserve(event["item"]))
    price = context.step(lambda _: random.randint(1, 100), name="price")
    context.wait(Duration.from_seconds(10))
    time.sleep(1)  # expect: ADK-W003
    table = boto3.resource("dynamodb").Table("orders")
    row = table.get_item(Key={"id": event["id"]})  # expect: ADK-W004
    return {"reservation": reservation, "price": price, "row": row}
