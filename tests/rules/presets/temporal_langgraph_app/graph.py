"""The graph: plan runs in the workflow, search as an activity; the router stays in the workflow."""
from datetime import timedelta

from langgraph.graph import END, START, StateGraph

from nodes import pick_next, plan, search, summary

ACTIVITY = {"execute_in": "activity", "start_to_close_timeout": timedelta(minutes=1), "summary_fn": summary}


def build() -> StateGraph:
    builder = StateGraph(dict)
    builder.add_node("plan", plan, metadata={"execute_in": "workflow"})
    builder.add_node("search", search, metadata=ACTIVITY)
    builder.add_edge(START, "plan")
    builder.add_conditional_edges("plan", pick_next)
    builder.add_edge("search", END)
    return builder
