"""A fallback in an `except` after a call that raises only outside a workflow never runs in one;
a fallback after anything else that can fail in a workflow still can."""

import random
import time
import uuid
from datetime import datetime

from temporalio import workflow


def today() -> str:
    try:
        from temporalio import workflow as wf

        now = wf.now()
    except Exception:
        now = datetime.now()
    return f"{now:%Y-%m-%d}"


def new_id() -> str:
    try:
        wf_random = workflow.random()
    except RuntimeError:
        return str(random.random())
    return str(wf_random.random())


def run_id() -> str:
    try:
        return workflow.info().workflow_id
    except Exception:
        return str(uuid.uuid4())


def key() -> str:
    try:
        kept = str(workflow.uuid4())
    except Exception:
        kept = uuid.uuid4().hex
    return kept


def stamp() -> str:
    try:
        return workflow.now().isoformat()
    except Exception:
        return datetime.now().isoformat()


def parent_id() -> str:
    try:
        return workflow.info().parent.workflow_id  # None for a workflow with no parent
    except Exception:
        return str(uuid.uuid4())  # expect: ADK-W002


def shard() -> int:
    try:
        return workflow.info().workflow_id.index("-")  # no "-" in the id: ValueError
    except ValueError:
        return int(time.time())  # expect: ADK-W003


def parsed(text: str) -> str:
    try:
        now = workflow.now()
        day = int(text)
    except ValueError:
        return str(time.time())  # expect: ADK-W003
    return f"{now} {day}"


@workflow.defn
class Report:
    @workflow.run
    async def run(self, text: str) -> str:
        safe = today() + new_id() + run_id() + key() + stamp()
        late = parsed(text)  # expect: ADK-W005
        parent = parent_id()  # expect: ADK-W005
        return safe + late + parent + str(shard())  # expect: ADK-W005


def _in_workflow() -> bool:
    try:
        return workflow.in_workflow()
    except RuntimeError:
        return False


def early_id() -> str:
    # The code after a returning `if workflow.in_workflow():` is for the other callers.
    if _in_workflow():
        return str(workflow.uuid4())
    return str(uuid.uuid4())


def early_stamp() -> float:
    if workflow.in_workflow():
        return workflow.time()
    started = time.time()
    return started


def late_stamp() -> float:
    if workflow.in_workflow():
        stamp = workflow.time()
    stamp = time.time()  # expect: ADK-W003
    return stamp


@workflow.defn
class Stamped:
    @workflow.run
    async def run(self) -> str:
        first = early_id() + str(early_stamp())
        return first + str(late_stamp())  # expect: ADK-W005
