"""The old temporalio.contrib paths still work: an activity tool is recorded (clean)."""
from datetime import timedelta

from temporalio import activity, workflow
from temporalio.contrib.openai_agents.workflow import activity_as_tool
from temporalio.google_adk.workflow import activity_as_tool as adk_activity_tool

with workflow.unsafe.imports_passed_through():
    from agents import Agent, Runner
    from google.adk.agents import Agent as AdkAgent
    from google.adk.runners import InMemoryRunner


@activity.defn
async def lookup(order_id: str) -> dict:
    import random

    return {"order": order_id, "eta": random.randint(1, 5)}


@workflow.defn
class Support:
    @workflow.run
    async def run(self, question: str) -> str:
        agent = Agent(name="Support", tools=[activity_as_tool(lookup, start_to_close_timeout=timedelta(seconds=5))])
        adk = AdkAgent(name="adk", tools=[adk_activity_tool(lookup, start_to_close_timeout=timedelta(seconds=5))])
        runner = InMemoryRunner(agent=adk, app_name="support")
        async for _ in runner.run_async(user_id="u", session_id="s", new_message=None):
            pass
        return (await Runner.run(agent, input=question)).final_output
