"""A payment flow: ids, deadlines and retries decided from the wall clock and a random source."""

import random
import uuid
from datetime import datetime, timedelta, timezone

import requests

__adk_workflow__ = True

RETRY_JITTER = random.random


def charge(order: dict) -> dict:
    key = str(uuid.uuid4())
    deadline = datetime.now(timezone.utc) + timedelta(minutes=15)
    response = requests.post(
        "https://payments.example.com/charges",
        json={"amount": order["amount"], "idempotency_key": key},
    )
    return {"key": key, "deadline": deadline.isoformat(), "status": response.status_code}


def backoff(attempt: int) -> float:
    return (2**attempt) + RETRY_JITTER()


def run(order: dict) -> dict:
    for attempt in range(3):
        result = charge(order)
        if result["status"] == 200:
            return result
        delay = backoff(attempt)
    return {"status": "failed", "retry_in": delay}
