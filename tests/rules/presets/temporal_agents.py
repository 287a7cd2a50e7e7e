"""Temporal's agent integrations turn model calls and tools into activities inside a workflow."""
import random
from datetime import timedelta

from agents import Agent, Runner
from temporalio import activity, workflow
from temporalio.contrib import openai_agents as temporal_agents


@activity.defn
async def how_many() -> int:
    return random.randint(1, 10)


@workflow.defn
class JokeAgent:
    @workflow.run
    async def run(self, prompt: str) -> str:
        agent = Agent(
            name="Assistant",
            tools=[temporal_agents.workflow.activity_as_tool(how_many, start_to_close_timeout=timedelta(seconds=5))],
        )
        result = await Runner.run(agent, input=prompt)
        return result.final_output
