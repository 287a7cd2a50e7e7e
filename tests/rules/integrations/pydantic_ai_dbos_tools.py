"""pydantic-ai's DBOS durability makes each model request a step but runs the agent's function
tools in the workflow: a durable agent's tools are DBOS workflow code, unless a tool is a step."""
import requests
from dbos import DBOS
from pydantic_ai import Agent
from pydantic_ai.durable_exec.dbos import DBOSDurability


def lookup(city: str) -> str:
    return requests.get(f"https://weather.example.com/{city}").text  # expect: ADK-W004


@DBOS.step()
def lookup_step(city: str) -> str:
    return requests.get(f"https://weather.example.com/{city}").text


agent = Agent(
    "openai:gpt-5", name="weather", tools=[lookup, lookup_step], capabilities=[DBOSDurability()]
)
plain = Agent("openai:gpt-5", name="plain")


@agent.tool_plain
def fetch(url: str) -> str:
    return requests.get(url).text  # expect: ADK-W004


@agent.tool_plain
@DBOS.step()
def fetch_step(url: str) -> str:
    return requests.get(url).text


@plain.tool_plain
def fetch_unused(url: str) -> str:
    return requests.get(url).text  # an agent no workflow runs: nothing replays it


@DBOS.workflow()
async def forecast(question: str) -> str:
    return (await agent.run(question)).output
