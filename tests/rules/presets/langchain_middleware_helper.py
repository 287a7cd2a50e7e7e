"""Middleware handed to create_agent from a helper's list is the agent's as when written in
place: a hook that interrupts replays up to its interrupt on every resume."""
import time

from langchain.agents import create_agent
from langchain.agents.middleware import AgentMiddleware
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import interrupt


class ApprovalMiddleware(AgentMiddleware):
    def after_model(self, state, runtime):
        asked_at = time.time()  # expect: ADK-W003
        decision = interrupt({"asked_at": asked_at})
        return {"decision": decision}


def build_middleware() -> list:
    return [ApprovalMiddleware()]


agent = create_agent(
    "openai:gpt-4o", tools=[], middleware=build_middleware(), checkpointer=InMemorySaver()
)
