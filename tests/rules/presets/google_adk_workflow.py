import random
import time

from google.adk.agents.context import Context
from google.adk.workflow import node
from google.genai import Client


@node
async def fetch_weather(ctx: Context, city: str) -> str:
    # A plain node runs once; its output is an event the workflow replays from.
    return f"{city}: {random.choice(['sun', 'rain'])}"


@node(rerun_on_resume=True)
async def plan_trip(ctx, cities: list[str]) -> str:
    reports = [await ctx.run_node(fetch_weather, city) for city in cities]
    order = sorted(cities, key=lambda _: random.random())  # expect: ADK-W002
    started = time.time()  # expect: ADK-W003
    summary = Client().models.generate_content(model="gemini-2.5-flash", contents=reports)  # expect: ADK-W001
    return f"{order}{started}{summary}"


@node(require_confirmation=True)
async def book(ctx: Context, plan: str) -> str:
    return f"{plan}-{random.randint(0, 9)}"  # expect: ADK-W002


def tool(city: str, tool_context) -> str:
    # An ADK tool, not a workflow node: it runs once per call.
    return f"{city}{time.time()}"
