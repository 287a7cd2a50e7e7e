"""Frameworks whose history a resumed run matches by position: Dapr Workflow, Hatchet's durable
event log, LangGraph's tasks and interrupts (counted apart), Resonate's promise sequence,
Prefect's pause keys, and Agent Framework's Durable Functions orchestrations. Each case is a
git repository with two versions of one file; the findings (code, line, message) are exactly
those the new file's markers and the details listed say. What follows everything a run in
flight can have recorded runs fresh in all of them: an addition at the end is silent."""

from __future__ import annotations

import textwrap
from functools import partial
from pathlib import Path

import pytest
from tests.versioning.repos import (
    Tables,
    body_in,
    cases_of,
    check_case,
    check_change,
)

from replaylint.presets.records import presets

DAPR = """
import dapr.ext.workflow as wf

wfr = wf.WorkflowRuntime()


@wfr.activity(name="charge_card")
def charge(ctx: wf.WorkflowActivityContext, order: dict) -> str:
    return "ok"


@wfr.activity
def ship(ctx: wf.WorkflowActivityContext, order: dict) -> str:
    return "ok"


@wfr.workflow(name="order")
def order_flow(ctx: wf.DaprWorkflowContext, order: dict):
{body}
    return order
"""

DAPR_CASES = {
    "activities swapped": (
        "yield ctx.call_activity(charge, input=order)\nyield ctx.call_activity(ship, input=order)",
        "yield ctx.call_activity(ship, input=order)  # expect: ADK-V001\n"
        "yield ctx.call_activity(charge, input=order)",
        ["order: was: activity charge_card, now: activity ship"],
    ),
    "timer removed": (
        "yield ctx.create_timer(60)\nyield ctx.call_activity(ship, input=order)",
        "yield ctx.call_activity(ship, input=order)  # expect: ADK-V001",
        ["order: was: timer, now: activity ship"],
    ),
    "external event renamed": (
        "yield ctx.wait_for_external_event('approval')",
        "yield ctx.wait_for_external_event('approved')  # expect: ADK-V001",
        ["order: was: event approval, now: event approved"],
    ),
    "patch removed outright": (
        "if ctx.is_patched('ship-first'):\n"
        "    yield ctx.call_activity(ship, input=order)\n"
        "yield ctx.call_activity(charge, input=order)",
        "yield ctx.call_activity(ship, input=order)  # expect: ADK-V003\n"
        "yield ctx.call_activity(charge, input=order)",
        ["order: patch ship-first removed while runs in flight may still replay through it"],
    ),
    # Silent: a run in flight has recorded nothing past the base's last call.
    "activity added at the end": (
        "yield ctx.call_activity(charge, input=order)",
        "yield ctx.call_activity(charge, input=order)\nyield ctx.call_activity(ship, input=order)",
        [],
    ),
    "change behind a new patch": (
        "yield ctx.call_activity(charge, input=order)",
        "if ctx.is_patched('ship-first'):\n"
        "    yield ctx.call_activity(ship, input=order)\n"
        "yield ctx.call_activity(charge, input=order)",
        [],
    ),
    "input and retry policy changed": (
        "yield ctx.call_activity(charge, input=order)",
        "yield ctx.call_activity(charge, input={**order, 'v': 2}, retry_policy=None)",
        [],
    ),
}


VERSIONED = """
import dapr.ext.workflow as wf

wfr = wf.WorkflowRuntime()


@wfr.activity
def ship(ctx: wf.WorkflowActivityContext, order: dict) -> str:
    return "ok"
{versions}"""

V1 = """

@wfr.versioned_workflow(name="express", version_name="v1", is_latest={latest})
def express_v1(ctx: wf.DaprWorkflowContext, order: dict):{mark}
    yield ctx.call_activity(ship, input=order)
"""

V2 = """

@wfr.versioned_workflow(name="express", version_name="v2", is_latest=True)
def express_v2(ctx: wf.DaprWorkflowContext, order: dict):{mark}
    yield ctx.create_timer(60)
    yield ctx.call_activity(ship, input=order)
"""


def test_dapr_versioned_workflows_keep_each_version(tmp_path: Path) -> None:
    # A new version beside the old one: instances stay on the version they started on.
    base = VERSIONED.format(versions=V1.format(latest=True, mark=""))
    beside = VERSIONED.format(versions=V1.format(latest=False, mark="") + V2.format(mark=""))
    check_change(tmp_path / "beside", "express.py", base, beside, [])
    # The old version replaced: its instances have no code left to replay on.
    replaced = VERSIONED.format(versions=V2.format(mark="  # expect: ADK-V002"))
    check_change(
        tmp_path / "replaced",
        "express.py",
        base,
        replaced,
        ["was: express (version v1), now: express (version v2)"],
    )


def test_dapr_remedies_name_its_own_gate() -> None:
    remedy = presets()["dapr"].remedy("ADK-V001") or ""
    assert "ctx.is_patched" in remedy and "versioned_workflow" in remedy
    assert "no call that retires a patch" in (presets()["dapr"].remedy("ADK-V003") or "")


HATCHET = """
from datetime import timedelta

from hatchet_sdk import Context, DurableContext, EmptyModel, Hatchet

hatchet = Hatchet()


@hatchet.task(name="fetch-rates")
async def fetch_rates(input: EmptyModel, ctx: Context) -> dict:
    return {{"rate": 1}}


@hatchet.task(name="fetch-fees")
async def fetch_fees(input: EmptyModel, ctx: Context) -> dict:
    return {{"fee": 2}}


@hatchet.durable_task(name="settle")
async def settle(input: EmptyModel, ctx: DurableContext) -> dict:
{body}
    return {{}}
"""

HATCHET_CASES = {
    "sleep added before a child run": (
        "await fetch_rates.aio_run(input)",
        "await ctx.aio_sleep_for(timedelta(minutes=5))  # expect: ADK-V001\n"
        "await fetch_rates.aio_run(input)",
        ["settle: was: child run fetch-rates, now: sleep"],
    ),
    "another child spawned": (
        "await fetch_rates.aio_run(input)",
        "await fetch_fees.aio_run(input)  # expect: ADK-V001",
        ["settle: was: child run fetch-rates, now: child run fetch-fees"],
    ),
    "event wait removed": (
        "await ctx.aio_wait_for_event('paid')\nawait ctx.aio_sleep_for(timedelta(hours=1))",
        "await ctx.aio_sleep_for(timedelta(hours=1))  # expect: ADK-V001",
        ["settle: was: event paid, now: sleep"],
    ),
    "memoized clock added at the end": (
        "await ctx.aio_wait_for_event('paid')",
        "await ctx.aio_wait_for_event('paid')\nnow = await ctx.aio_now()",
        [],
    ),
    "code between the durable events": (
        "await ctx.aio_wait_for_event('paid')\nawait fetch_rates.aio_run(input)",
        "paid = await ctx.aio_wait_for_event('paid')\n"
        "total = sum(paid.values())\n"
        "await fetch_rates.aio_run(input)",
        [],
    ),
}


def test_hatchet_plain_task_changed(tmp_path: Path) -> None:
    base = body_in(HATCHET, "await fetch_rates.aio_run(input)")
    # A plain task's body runs once per run of it: recorded, never replayed.
    plain = base.replace('return {"rate": 1}', 'return {"rate": 2, "source": "ecb"}')
    check_change(tmp_path / "plain", "settle.py", base, plain, [])


LANGGRAPH = """
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.func import entrypoint, task
from langgraph.types import interrupt


@task
def reserve(items: list) -> dict:
    return {{"items": items}}


@task(name="charge_card")
def charge(order: dict) -> dict:
    return order


@entrypoint(checkpointer=InMemorySaver())
def place(order: dict) -> dict:
{body}
    return order
"""

LANGGRAPH_CASES = {
    "task added before a stored one": (
        "reserve(order['items']).result()\nanswer = interrupt('ship?')",
        "charge(order).result()  # expect: ADK-V001\n"
        "reserve(order['items']).result()\n"
        "answer = interrupt('ship?')",
        ["place: was: task reserve, now: task charge_card"],
    ),
    "interrupt added before another": (
        "first = interrupt('ship?')\nreserve(order['items']).result()",
        # The questions tell the new interrupt from the old: it takes the old one's answer.
        "extra = interrupt('gift wrap?')  # expect: ADK-V001\n"
        "first = interrupt('ship?')\n"
        "reserve(order['items']).result()",
        ["place: was: interrupt, now: interrupt"],
    ),
    # Silent: tasks and interrupts are numbered apart, so a task moved across an interrupt
    # keeps its index; and what follows everything recorded runs fresh.
    "task moved across an interrupt": (
        "reserve(order['items']).result()\nanswer = interrupt('ship?')",
        "answer = interrupt('ship?')\nreserve(order['items']).result()",
        [],
    ),
    "task added after the last": (
        "reserve(order['items']).result()\nanswer = interrupt('ship?')",
        "reserve(order['items']).result()\nanswer = interrupt('ship?')\ncharge(order).result()",
        [],
    ),
    "task input changed": (
        "reserve(order['items']).result()",
        "reserve(sorted(order['items'])).result()",
        [],
    ),
}


GRAPH = """
from typing import TypedDict

from langgraph.graph import START, StateGraph
from langgraph.types import interrupt


class Ticket(TypedDict, total=False):
    body: str
    verdict: str


def classify(ticket: Ticket) -> dict:
    return {{"verdict": "{verdict}"}}


def review(ticket: Ticket) -> dict:{mark}
{body}
    return {{"verdict": verdict}}


builder = StateGraph(Ticket)
builder.add_node("classify", classify)
builder.add_node("{name}", review)
builder.add_edge(START, "classify")
"""


def graph(body: str, name: str = "review", verdict: str = "new", mark: str = "") -> str:
    return GRAPH.format(
        body=textwrap.indent(body, "    "), name=name, verdict=verdict, mark=mark
    ).lstrip()


def test_langgraph_nodes(tmp_path: Path) -> None:
    one = "verdict = interrupt('approve?')"
    two = "note = interrupt('note?')  # expect: ADK-V001\nverdict = interrupt('approve?')"
    # An interrupt added before another: a resumed thread hands the first answer to the new one.
    check_change(
        tmp_path / "added",
        "tickets.py",
        graph(one),
        graph(two),
        ["review: was: interrupt, now: interrupt"],
    )
    # Added after the last one: a thread paused there answers it, then stops at the new one.
    after = "verdict = interrupt('approve?')\nnote = interrupt('note?')"
    check_change(tmp_path / "after", "tickets.py", graph(one), graph(after), [])
    # The node renamed where it is added: a thread paused in it has it as its next node.
    renamed = graph(one, name="triage").replace(
        "def review(ticket: Ticket) -> dict:",
        "def review(ticket: Ticket) -> dict:  # expect: ADK-V002",
    )
    check_change(
        tmp_path / "renamed", "tickets.py", graph(one), renamed, ["was: review, now: triage"]
    )
    # Silent: the function renamed under the same node name; a node that never interrupts.
    kept = (
        graph(one)
        .replace("def review(", "def review_ticket(")
        .replace(", review)", ", review_ticket)")
    )
    check_change(tmp_path / "kept", "tickets.py", graph(one), kept, [])
    check_change(tmp_path / "once", "tickets.py", graph(one), graph(one, verdict="spam"), [])


REGISTERED = """
import dapr.ext.workflow as wf

wfr = wf.WorkflowRuntime()


def {function}(ctx: wf.DaprWorkflowContext, order: dict):{mark}
    yield ctx.create_timer(60)


wfr.register_workflow({function}, name="{name}")
"""


def test_dapr_names_given_at_registration(tmp_path: Path) -> None:
    base = REGISTERED.format(function="order_flow", name="order", mark="")
    # The function renamed, the name it is registered under kept: the same workflow.
    kept = REGISTERED.format(function="process_order", name="order", mark="")
    check_change(tmp_path / "kept", "orders.py", base, kept, [])
    renamed = REGISTERED.format(function="order_flow", name="orders", mark="  # expect: ADK-V002")
    check_change(tmp_path / "renamed", "orders.py", base, renamed, ["was: order, now: orders"])


TABLES: Tables = {
    "dapr": ("orders.py", partial(body_in, DAPR), DAPR_CASES),
    "hatchet": ("settle.py", partial(body_in, HATCHET), HATCHET_CASES),
    "langgraph": ("place.py", partial(body_in, LANGGRAPH), LANGGRAPH_CASES),
}


@pytest.mark.parametrize(("framework", "case"), cases_of(TABLES))
def test_a_change(framework: str, case: str, tmp_path: Path) -> None:
    check_case(TABLES, framework, case, tmp_path)
