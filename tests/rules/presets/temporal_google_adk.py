"""Temporal's Google ADK plugin: the agent and its runner run in the workflow, so plain tools
and the agent's callbacks are workflow code; model calls go through TemporalModel (activities)."""
import os
import uuid
from datetime import datetime

import httpx
from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from google.adk.agents import LlmAgent
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from temporalio.google_adk import TemporalModel


def read_clock_helper() -> str:
    return datetime.now().isoformat()  # expect: ADK-W003


def flight_status(flight: str) -> dict:
    return httpx.get(f"https://flights.example.com/{flight}").json()  # expect: ADK-W004


def stamp_request(callback_context, llm_request):
    callback_context.state["asked"] = read_clock_helper()  # expect: ADK-W005
    return None


def tag_result(tool, args, tool_context, tool_response):
    tool_context.state["id"] = str(uuid.uuid4())  # expect: ADK-W002


def gate(callback_context):
    if os.environ.get("MAINTENANCE"):  # expect: ADK-W007
        return "down"
    return None


def add(a: int, b: int) -> int:
    return a + b


@workflow.defn
class Travel:
    @workflow.run
    async def run(self, prompt: str) -> str:
        agent = LlmAgent(
            name="travel",
            model=TemporalModel("gemini-2.5-flash"),
            tools=[flight_status, add],
            before_model_callback=stamp_request,
            after_tool_callback=tag_result,
            before_agent_callback=gate,
        )
        runner = Runner(agent=agent, app_name="travel", session_service=InMemorySessionService())
        answer = ""
        async for event in runner.run_async(user_id="u", session_id="s", new_message=prompt):
            answer = str(event)
        return answer
