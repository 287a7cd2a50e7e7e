"""Nodes of the graph; where each runs is the graph module's choice."""
import random
import time

import httpx


def plan(state: dict) -> dict:
    order = random.sample(state["topics"], k=2)  # expect: ADK-W002
    return {"queries": order}


def search(state: dict) -> dict:
    return {"results": [httpx.get("https://s.example.com", params={"q": q}).json() for q in state["queries"]]}


def pick_next(state: dict) -> str:
    return "search" if time.time() % 2 else "write"  # expect: ADK-W003


def summary(args, kwargs) -> str:
    return f"search at {time.time()}"  # expect: ADK-W003
