"""LangGraph's functional API: an @entrypoint body runs again on every resume, whole; a @task is
recorded, unless it interrupts: then it is replayed on its own, up to its last interrupt."""
import os
import time
import uuid

import requests
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.func import entrypoint, task
from langgraph.types import interrupt

REGION = os.environ.get("REGION", "eu")


def order_number() -> str:
    return f"ord-{uuid.uuid4().hex[:8]}"  # expect: ADK-W002


@task
def reserve(items: list[str]) -> dict:
    # Recorded: its result is stored in the checkpoint.
    return requests.post("https://stock.example.com/reserve", json={"items": items, "n": order_number()}).json()


@task
def confirm(order: dict) -> bool:
    asked_at = time.time()  # expect: ADK-W003
    answer = interrupt({"order": order, "asked_at": asked_at})
    requests.post("https://audit.example.com", json={"answer": answer})  # after it: once
    return bool(answer)


@entrypoint(checkpointer=InMemorySaver())
def place(order: dict, *, previous: dict | None = None) -> dict:
    number = order_number()  # expect: ADK-W005
    reservation = reserve(order["items"]).result()
    reserve([os.environ.get("SPARE", "none")])  # a task is found by its position: fine
    if os.environ.get("SKIP_CONFIRM"):  # expect: ADK-W007
        return {"number": number}
    confirmed = confirm({"number": number, **reservation}).result()
    time.sleep(1)  # expect: ADK-W003
    return entrypoint.final(value={"number": number, "ok": confirmed}, save={"last": number})
