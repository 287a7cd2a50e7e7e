import random
import uuid

__adk_workflow__ = True


def make_key(prefix):
    return f"{prefix}-{uuid.uuid4()}"  # expect: ADK-W002


def order_ids(n):
    return [make_key("order") for _ in range(n)]  # expect: ADK-W005


def jitter(values):
    return list(map(random.random, values))  # expect: ADK-W002
