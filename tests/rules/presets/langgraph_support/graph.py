"""The graph registers the nodes of nodes.py."""
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph

from nodes import approve_refund, triage

builder = StateGraph(dict)
builder.add_node("triage", triage)
builder.add_node("approve_refund", approve_refund)
builder.add_edge(START, "triage")
builder.add_edge("triage", "approve_refund")
builder.add_edge("approve_refund", END)
support = builder.compile(checkpointer=InMemorySaver())
