"""Temporal's OpenAI Agents plugin on its new path: the agent loop runs in the workflow, so its
function tools, instructions callables, guardrails and handoff callbacks are workflow code;
model calls and activity tools are activities."""
import random
import time
import uuid
from datetime import timedelta

import httpx
from temporalio import activity, workflow
from temporalio.openai_agents import workflow as agent_workflow

with workflow.unsafe.imports_passed_through():
    from agents import Agent, GuardrailFunctionOutput, Runner, function_tool, handoff, input_guardrail


@activity.defn
async def weather(city: str) -> str:
    return httpx.get(f"https://weather.example.com/{city}").text


@function_tool
def local_time(city: str) -> str:
    return time.strftime("%H:%M")  # expect: ADK-W003


@function_tool
def convert(amount: float, rate: float) -> float:
    return round(amount * rate, 2)


def today(ctx, agent) -> str:
    return f"Today is {time.ctime()}."  # expect: ADK-W003


@input_guardrail
async def screen(ctx, agent, text) -> GuardrailFunctionOutput:
    flagged = httpx.post("https://screen.example.com", json={"t": str(text)}).json()  # expect: ADK-W004
    return GuardrailFunctionOutput(output_info=flagged, tripwire_triggered=flagged["bad"])


async def on_refund(ctx, request) -> None:
    ctx.context["ticket"] = uuid.uuid4().hex  # expect: ADK-W002


refunds = Agent(name="Refunds", instructions="Refund.")
concierge = Agent(
    name="Concierge",
    instructions=today,
    tools=[
        local_time,
        convert,
        agent_workflow.activity_as_tool(weather, start_to_close_timeout=timedelta(seconds=10)),
    ],
    input_guardrails=[screen],
    handoffs=[handoff(refunds, on_handoff=on_refund)],
)


@workflow.defn
class Concierge:
    @workflow.run
    async def run(self, question: str) -> str:
        result = await Runner.run(concierge, input=question)
        return result.final_output


def offline(question: str) -> str:
    # The same kind of agent run outside a workflow: its tools are not replayed.
    agent = Agent(name="Offline", tools=[function_tool(lambda: random.random())])
    return Runner.run_sync(agent, question).final_output
