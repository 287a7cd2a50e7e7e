"""pydantic-ai's older DBOSAgent wrapper runs the wrapped agent's function tools in the DBOS
workflow it makes of each run, as the DBOS durability capability does."""
import requests
from dbos import DBOS
from pydantic_ai import Agent, RunContext
from pydantic_ai.durable_exec.dbos import DBOSAgent


def lookup(city: str) -> str:
    return requests.get(f"https://weather.example.com/{city}").text  # expect: ADK-W004


@DBOS.step()
def lookup_step(city: str) -> str:
    return requests.get(f"https://weather.example.com/{city}").text


agent = Agent("openai:gpt-5", name="weather", tools=[lookup, lookup_step])
plain = Agent("openai:gpt-5", name="plain")


@agent.tool
async def fetch(ctx: RunContext[str], url: str) -> str:
    return requests.get(url).text  # expect: ADK-W004


@agent.tool_plain
@DBOS.step()
def fetch_step(url: str) -> str:
    return requests.get(url).text


@plain.tool_plain
def fetch_unused(url: str) -> str:
    return requests.get(url).text  # an agent no workflow runs: nothing replays it


dbos_agent = DBOSAgent(agent)


@agent.tool_plain
def declared_later(url: str) -> str:
    return requests.get(url).text  # expect: ADK-W004


@DBOS.step()
@agent.tool_plain
def fetch_wrapped_after(url: str) -> str:
    # tool_plain hands the agent the plain function; the step wraps only the module's name.
    return requests.get(url).text  # expect: ADK-W004


@DBOS.workflow()
def prefetch(url: str) -> str:
    return fetch_wrapped_after(url)  # the name is the step: recorded here


@DBOS.step()
@plain.tool_plain
def fetch_for_plain(url: str) -> str:
    # The plain agent runs in no workflow: only the step named here does, recorded.
    return requests.get(url).text


@DBOS.workflow()
def prefetch_plain(url: str) -> str:
    return fetch_for_plain(url)
