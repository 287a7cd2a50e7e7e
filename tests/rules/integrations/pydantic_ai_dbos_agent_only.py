"""A module that wraps its agent in DBOSAgent need not import dbos itself: the wrapper makes
every run a DBOS workflow, and its tools run in it."""
from datetime import datetime

from pydantic_ai import Agent
from pydantic_ai.durable_exec.dbos import DBOSAgent


def stamp() -> str:
    return datetime.now().isoformat()  # expect: ADK-W003


def undated() -> str:
    return "no clock read here"


support = Agent("openai:gpt-5", tools=[stamp, undated])
durable_support = DBOSAgent(wrapped=support, name="support")
