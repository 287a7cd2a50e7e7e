"""LangGraph graph nodes: only the ones that interrupt are replayed, from their first line up to
their last interrupt(); routers and the nodes that never interrupt run once."""
import random
import time
import uuid
from datetime import datetime
from typing import TypedDict

import httpx
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.errors import NodeInterrupt
from langgraph.graph import END, START, StateGraph
from langgraph.types import interrupt
from openai import OpenAI

llm = OpenAI()


class Ticket(TypedDict, total=False):
    body: str
    draft: str
    verdict: str
    reviewer: str
    closed: float


def classify(ticket: Ticket) -> dict:
    # Never interrupts: its writes are checkpointed once it returns.
    reply = llm.chat.completions.create(model="m", messages=[{"role": "user", "content": ticket["body"]}])
    return {"draft": reply.choices[0].message.content, "closed": time.time()}


def ask_reviewer(ticket: Ticket) -> dict:
    reviewer = random.choice(["ana", "bo"])  # expect: ADK-W002
    verdict = interrupt({"draft": ticket["draft"], "reviewer": reviewer})
    notes = httpx.get("https://crm.example.com/notes").json()  # after the last interrupt: once
    return {"verdict": verdict, "reviewer": reviewer, "closed": time.time(), "notes": notes}


def two_rounds(ticket: Ticket) -> dict:
    first = interrupt("first?")
    stamp = datetime.now().isoformat()  # expect: ADK-W003
    second = interrupt({"first": first, "at": stamp})
    return {"verdict": f"{second}-{uuid.uuid4()}"}


def until_valid(ticket: Ticket) -> dict:
    answer = ""
    while not answer.isdigit():
        answer = interrupt("a number, please")
        started = time.monotonic()  # expect: ADK-W003
    return {"verdict": answer, "closed": started}


def escalate(ticket: Ticket) -> dict:
    if len(ticket["body"]) > 1000:
        raise NodeInterrupt(f"too long at {time.time()}")  # expect: ADK-W003
    return {"verdict": "ok", "closed": time.time()}


def confirm(question: str, asked_at: float) -> str:
    answer = interrupt({"question": question, "asked_at": asked_at})
    time.sleep(0.5)  # after the helper's own interrupt: once
    return answer


def tag(ticket: Ticket, label: str) -> dict:
    asked_at = time.time()  # expect: ADK-W003
    return {"verdict": confirm(f"tag {label}?", asked_at)}


def route(ticket: Ticket) -> str:
    # A router runs after its node has finished: not replayed.
    return "ask_reviewer" if random.random() < 0.5 else "two_rounds"


builder = StateGraph(Ticket)
builder.add_node("classify", classify)
builder.add_node(ask_reviewer)
builder.add_node("two_rounds", two_rounds)
builder.add_node("until_valid", until_valid)
builder.add_node("escalate", escalate)
builder.add_node("tag", lambda ticket: tag(ticket, "vip"))  # expect: ADK-W005
builder.add_edge(START, "classify")
builder.add_conditional_edges("classify", route)
builder.add_edge("ask_reviewer", "until_valid")
builder.add_edge("two_rounds", "escalate")
builder.add_edge("until_valid", END)
builder.add_edge("escalate", END)
graph = builder.compile(checkpointer=InMemorySaver())
