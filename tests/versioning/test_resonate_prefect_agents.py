"""Resonate's promise sequence, Prefect's pause keys and Microsoft Agent Framework's durable
orchestrations: positional histories, each case a git repository whose findings (code, line,
message) are exactly what the new file's markers and the details listed say."""

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

RESONATE = """
from datetime import timedelta

from resonate.context import Context
from resonate.resonate import Resonate

resonate = Resonate(url="http://localhost:8001")


def price(ctx: Context, sku: str) -> float:
    return 1.0


def discount(ctx: Context, sku: str) -> float:
    return 0.1


@resonate.register(name="quote", version=1)
async def quote(ctx: Context, sku: str) -> dict:
{body}
    return {{}}
"""

RESONATE_CASES = {
    # The settled promise at that position holds price's value: discount would get it.
    "child replaced at a position": (
        "amount = await ctx.run(price, sku)\nawait ctx.sleep(timedelta(hours=1))",
        "amount = await ctx.run(discount, sku)  # expect: ADK-V001\n"
        "await ctx.sleep(timedelta(hours=1))",
        ["quote (version 1): was: function price, now: function discount"],
    ),
    "sleep added before a child": (
        "amount = await ctx.run(price, sku)",
        "await ctx.sleep(timedelta(minutes=1))  # expect: ADK-V001\n"
        "amount = await ctx.run(price, sku)",
        ["quote (version 1): was: function price, now: sleep"],
    ),
    "rpc by name replaces a local run": (
        "amount = await ctx.run(price, sku)",
        "amount = await ctx.rpc('pricing', sku)  # expect: ADK-V001",
        ["quote (version 1): was: function price, now: function pricing"],
    ),
    # Silent: a promise past the last one a run recorded is created fresh; arguments and the
    # options a child runs with are not in the promise's place.
    "promise added at the end": (
        "amount = await ctx.run(price, sku)",
        "amount = await ctx.run(price, sku)\napproval = ctx.promise(timeout=timedelta(hours=4))",
        [],
    ),
    "arguments and options changed": (
        "amount = await ctx.run(price, sku)",
        "amount = await ctx.options(timeout=60).run(price, sku.upper())",
        [],
    ),
}


def test_resonate_versions_are_functions_of_their_own(tmp_path: Path) -> None:
    base = body_in(RESONATE, "amount = await ctx.run(price, sku)")
    # (RENAMES: the version bumped in place leaves promises of version 1 no function.)
    # Version 2 beside version 1, which is left as it was: nothing to report.
    beside = base + textwrap.dedent(
        """

        @resonate.register(name="quote", version=2)
        async def quote_v2(ctx: Context, sku: str) -> dict:
            await ctx.sleep(timedelta(minutes=1))
            return {}
        """
    )
    check_change(tmp_path, "quote.py", base, beside, [])


def test_a_resonate_child_is_found_by_its_place_not_its_name(tmp_path: Path) -> None:
    child = """
    async def {name}(ctx: Context, sku: str) -> None:
        await ctx.sleep(timedelta(days=1))
    """
    base = body_in(RESONATE, "await ctx.run(remind, sku)") + textwrap.dedent(
        child.format(name="remind")
    )
    # The nested child renamed: its parent runs another function at that place (V001); the
    # child itself is no registered name (no V002 on it).
    new = body_in(RESONATE, "await ctx.run(nudge, sku)  # expect: ADK-V001") + textwrap.dedent(
        child.format(name="nudge")
    )
    check_change(
        tmp_path,
        "quote.py",
        base,
        new,
        ["quote (version 1): was: function remind, now: function nudge"],
    )


PREFECT = """
from prefect import flow, suspend_flow_run, task
from prefect.flow_runs import pause_flow_run


@task(persist_result=True)
def build_report() -> dict:
    return {{}}


@task(persist_result=True)
def send_report(report: dict) -> None:
    return None


@flow(name="monthly", persist_result=True)
def monthly(run_id: str) -> dict:
{body}
    return {{}}
"""

PREFECT_CASES = {
    # The default key is the count of this execution's pauses: a resumed run answers the new
    # suspend with the old one's input, then stops again at the old one.
    "suspend added before another": (
        "report = build_report()\nsuspend_flow_run(timeout=3600)",
        "pause_flow_run(timeout=60)  # expect: ADK-V001\n"
        "report = build_report()\n"
        "suspend_flow_run(timeout=3600)",
        ["monthly: was: suspend, now: pause"],
    ),
    "suspend key renamed": (
        "suspend_flow_run(key='approval', timeout=3600)",
        "suspend_flow_run(key='approved', timeout=3600)  # expect: ADK-V001",
        ["monthly: was: suspend approval, now: suspend approved"],
    ),
    # Silent: tasks are found by their cache key (inputs, source, run), not their place; a
    # suspend of another flow run is not this run's; a suspend after the last is fresh.
    "tasks reordered and added": (
        "report = build_report()\nsend_report(report)\nsuspend_flow_run(timeout=3600)",
        "send_report({})\nreport = build_report()\nsend_report(report)\nsuspend_flow_run(timeout=3600)",
        [],
    ),
    "another run suspended": (
        "suspend_flow_run(timeout=3600)",
        "suspend_flow_run(flow_run_id=run_id)\nsuspend_flow_run(timeout=3600)",
        [],
    ),
    "suspend added after the last": (
        "suspend_flow_run(timeout=3600)\nreport = build_report()",
        "suspend_flow_run(timeout=3600)\nreport = build_report()\nsuspend_flow_run(key='sign-off')",
        [],
    ),
}


def test_a_prefect_flow_that_never_suspends(tmp_path: Path) -> None:
    # A flow that never suspends runs once: it is no workflow, whatever it calls.
    never = body_in(PREFECT, "report = build_report()")
    changed = body_in(PREFECT, "send_report({})\nreport = build_report()")
    check_change(tmp_path, "reports.py", never, changed, [])


AGENTS = """
import azure.durable_functions as df
from agent_framework import Agent, WorkflowBuilder
from agent_framework.openai import OpenAIChatClient
from agent_framework_azurefunctions import AgentFunctionApp

drafter = Agent(client=OpenAIChatClient(), name="Drafter", instructions="Draft a reply.")
checker = Agent(client=OpenAIChatClient(), name="Checker", instructions="Check it.")


def {condition}(message) -> bool:
    return len(str(message)) > 100


replies = WorkflowBuilder(name="replies", start_executor=drafter).add_edge(
    drafter, checker, condition={condition}
).build()
app = AgentFunctionApp(agents=[drafter, checker], workflow=replies)


@app.activity_trigger(input_name="trip")
def book(trip: dict) -> str:
    return "booked"


@app.orchestration_trigger(context_name="context")
def {name}(context: df.DurableOrchestrationContext):
{body}
    return 1
"""


def agents(body: str, name: str = "brief", condition: str = "long_reply") -> str:
    return body_in(AGENTS.replace("{name}", name).replace("{condition}", condition), body)


RUN = "answer = yield app.get_agent(context, 'Drafter').run('Summarise the day.')"
BOOK = "yield context.call_activity('book', {'to': 'Lisbon'})"

AGENT_CASES = {
    "activity added before the agent's run": (
        RUN,
        f"{BOOK}  # expect: ADK-V001\n{RUN}",
        ["brief: was: agent Drafter, now: activity book"],
    ),
    "agent run removed": (
        f"{RUN}\n{BOOK}",
        f"{BOOK}  # expect: ADK-V001",
        ["brief: was: agent Drafter, now: activity book"],
    ),
    # The agent a run goes to is its target: another agent's entity answers another history.
    "another agent run": (
        f"{RUN}\n{BOOK}",
        f"{RUN.replace('Drafter', 'Checker')}  # expect: ADK-V001\n{BOOK}",
        ["brief: was: agent Drafter, now: agent Checker"],
    ),
    "activity added after the last call": (RUN, f"{RUN}\n{BOOK}", []),
    "agent's message changed": (RUN, RUN.replace("the day", "the week"), []),
}


def test_agent_framework_edge_condition_renamed(tmp_path: Path) -> None:
    base = agents(RUN)
    # A hosted workflow's edge condition is called from the framework's own orchestrator: no
    # run looks it up by its name.
    condition = agents(RUN, condition="is_long")
    check_change(tmp_path, "app.py", base, condition, [])


WORKER = """
from agent_framework_durabletask import DurableAIAgentOrchestrationContext
from durabletask import task
from durabletask.worker import TaskHubGrpcWorker


def fetch(ctx: task.ActivityContext, draft: str) -> str:
    return draft


def review(ctx: task.OrchestrationContext, draft: str):
    critic = DurableAIAgentOrchestrationContext(ctx).get_agent("critic")
{body}
    return 1


worker = TaskHubGrpcWorker(host_address="localhost:4001")
worker.add_orchestrator(review)
worker.add_activity(fetch)
"""


def test_agent_runs_in_a_durabletask_orchestrator(tmp_path: Path) -> None:
    """The durabletask orchestrator that wraps its context records each agent run as an entity
    call of its history (the durabletask record knows the agent's run too)."""
    run = "verdict = yield critic.run(f'review {draft}')"
    fetched = "draft = yield ctx.call_activity(fetch, input=draft)"
    check_change(
        tmp_path / "added",
        "review.py",
        body_in(WORKER, run),
        body_in(WORKER, f"{fetched}  # expect: ADK-V001\n{run}"),
        ["review: was: agent critic, now: activity fetch"],
    )
    # The agent's prompt changed: arguments are not in the history's order of actions.
    prompt = run.replace("f'review {draft}'", "f'critique {draft} strictly'")
    check_change(
        tmp_path / "prompt", "review.py", body_in(WORKER, run), body_in(WORKER, prompt), []
    )


TABLES: Tables = {
    "resonate": ("quote.py", partial(body_in, RESONATE), RESONATE_CASES),
    "prefect": ("reports.py", partial(body_in, PREFECT), PREFECT_CASES),
    "agent_framework": ("app.py", agents, AGENT_CASES),
}


@pytest.mark.parametrize(("framework", "case"), cases_of(TABLES))
def test_a_change(framework: str, case: str, tmp_path: Path) -> None:
    check_case(TABLES, framework, case, tmp_path)
