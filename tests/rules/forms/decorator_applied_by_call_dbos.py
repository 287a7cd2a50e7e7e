"""DBOS's decorators applied by a call, or through a name their call was bound to. `DBOS.step()`
wraps the function it is given: the wrapper is recorded, so `new_key()` is a step once the name
holds it, while `fetch`, whose wrapper went elsewhere, still runs inline on every replay."""

import time
import uuid

import requests
from dbos import DBOS


def new_key() -> str:
    return str(uuid.uuid4())


def fetch(url: str) -> str:
    return requests.get(url).text  # expect: ADK-W004


new_key = DBOS.step()(new_key)
recorded_fetch = DBOS.step()(fetch)
checkout_workflow = DBOS.workflow()


@checkout_workflow
def checkout(amount: int) -> dict:
    key = new_key()
    page = recorded_fetch("https://shop.example.com")
    time.sleep(1)  # expect: ADK-W003
    return {"key": key, "page": page, "inline": fetch("https://x.example.com")}  # expect: ADK-W005


def refund(order: str) -> str:
    return f"{order}-{uuid.uuid4()}"  # expect: ADK-W002


DBOS.workflow()(refund)
