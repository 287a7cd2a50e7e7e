"""What a step or an activity calls runs inside the recorded zone, not in the workflow."""
import random
import time
import uuid

import requests
from dbos import DBOS
from temporalio import workflow
from durabletask import task


def _get_json(url):
    return requests.get(url).json()


def _jittered(base):
    return base + random.random()


@DBOS.step(retries_allowed=True, max_attempts=3)
def fetch_user(uid):
    time.sleep(_jittered(0.1))
    return _get_json(f"https://users.example.com/{uid}")


@DBOS.workflow()
def onboard(uid):
    return fetch_user(uid)


def _download(url):
    time.sleep(1)
    return requests.get(url).content


def download(ctx: task.ActivityContext, url: str) -> bytes:
    return _download(url)


def mirror(ctx: task.OrchestrationContext, url: str):
    return (yield ctx.call_activity(download, input=url))


def _in_workflow() -> bool:
    try:
        return workflow.in_workflow()
    except RuntimeError:
        return False


def new_call_id(tool: str) -> str:
    if _in_workflow():
        suffix = str(workflow.uuid4())
    else:
        suffix = str(uuid.uuid4())
    return f"{tool}-{suffix}"


@workflow.defn
class Harness:
    @workflow.run
    async def run(self, tool: str) -> str:
        if not workflow.in_workflow():
            print(time.time())
        return new_call_id(tool)
