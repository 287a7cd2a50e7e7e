"""What follows a node's last interrupt runs once, except where a replay comes back to it: a
`finally` the interrupt unwinds through, a `while` whose test interrupts, and a helper's tail
when the node interrupts again after calling it."""
import random
import time
from typing import TypedDict

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import interrupt


class Ask(TypedDict, total=False):
    answer: str
    rounds: int


def confirm(question: str) -> str:
    answer = interrupt(question)
    # After this helper's interrupt, but `twice` interrupts again: on its next replay too.
    return f"{answer}-{random.random()}"  # expect: ADK-W002


def twice(state: Ask) -> dict:
    first = confirm("first?")  # expect: ADK-W005
    second = interrupt("second?")
    return {"answer": f"{first}/{second}", "rounds": 2}


def polled(state: Ask) -> dict:
    rounds = 0
    while not interrupt("done yet?"):
        rounds += random.randint(1, 2)  # expect: ADK-W002
    return {"rounds": rounds}


def guarded(state: Ask) -> dict:
    try:
        answer = interrupt("go?")
    finally:
        print("left at", time.time())  # expect: ADK-W003
    print("answered at", time.time())  # after the last interrupt: once
    return {"answer": answer}


def pick(question: str) -> str:
    choice = interrupt(question)
    return f"{choice}-{random.random()}"  # expect: ADK-W002


def each(state: Ask) -> dict:
    # Called in a loop, the helper's tail runs again at every later turn's replay.
    return {"answer": ",".join(pick(q) for q in ("a?", "b?"))}  # expect: ADK-W005


def smoke_test() -> None:
    # Called directly here, outside any graph: the node is replayed as the graph runs it.
    guarded({})


builder = StateGraph(Ask)
builder.add_node("each", each)
builder.add_node("twice", twice)
builder.add_node("polled", polled)
builder.add_node("guarded", guarded)
builder.add_edge(START, "twice")
builder.add_edge("twice", "polled")
builder.add_edge("polled", "guarded")
builder.add_edge("guarded", END)
graph = builder.compile(checkpointer=InMemorySaver())
