"""The workflow graph: executors do the work (as activities and entities)."""
import random

import httpx
from agent_framework import Agent, Case, Default, WorkflowBuilder, executor
from agent_framework.openai import OpenAIChatClient

from rules import after_hours, slow_check, wants_audit


@executor(id="load")
async def load(claim: dict, ctx) -> None:
    await ctx.send_message({**claim, "policy": httpx.get("https://policy.example.com").json()})


desk = Agent(client=OpenAIChatClient(), name="Desk", instructions="Handle it.")
night = Agent(client=OpenAIChatClient(), name="Night", instructions="Call back tomorrow.")
audit = Agent(client=OpenAIChatClient(), name="Audit", instructions="Audit it.")

claims = (
    WorkflowBuilder(name="claims", start_executor=load)
    .add_switch_case_edge_group(load, [Case(condition=after_hours, target=night), Default(target=desk)])
    .add_edge(load, audit, condition=wants_audit)
    .add_edge(desk, audit, condition=slow_check)
    .add_edge(night, audit, condition=lambda message: random.random() < 0.1)  # expect: ADK-W002
    .build()
)
