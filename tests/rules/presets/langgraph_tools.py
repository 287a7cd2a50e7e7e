"""LangGraph tools run by a tool node: one that interrupts re-runs with the node, up to its
interrupt; the others run once."""
import random
import time
import uuid

import httpx
from langchain_core.tools import tool
from langgraph.graph import StateGraph
from langgraph.prebuilt import ToolNode, create_react_agent
from langgraph.types import interrupt


@tool
def transfer(amount: float, to: str) -> str:
    """Transfer money after a human approves."""
    reference = f"tx-{uuid.uuid4().hex[:8]}"  # expect: ADK-W002
    approved = interrupt({"amount": amount, "to": to, "reference": reference})
    if not approved:
        return "cancelled"
    return httpx.post("https://bank.example.com", json={"ref": reference}).text  # after: once


@tool
def weather(city: str) -> str:
    """Never interrupts: runs once, unless a replayed node runs it (review, below)."""
    return httpx.get(f"https://weather.example.com/{city}", params={"t": time.time()}).text  # expect: ADK-W004, ADK-W003


@tool
def dice() -> int:
    """Never interrupts: runs once."""
    return random.randint(1, 6)


banker = create_react_agent("openai:gpt-4o-mini", tools=[transfer, weather])
tools = ToolNode([dice, weather])


def review(state: dict) -> dict:
    # A tool invoked by hand in a node that interrupts in a loop: on each resume the node runs
    # again from the top, and with it every earlier iteration's tool.
    sent = []
    for call in state["calls"]:
        if interrupt(call):
            sent.append(weather.invoke(call["args"]))  # expect: ADK-W005
    return {"sent": sent}


def counted(state: dict) -> dict:
    # No interrupt: the node runs once, and so does its tool.
    return {"roll": dice.invoke({})}


builder = StateGraph(dict)
builder.add_node("review", review)
builder.add_node("counted", counted)
