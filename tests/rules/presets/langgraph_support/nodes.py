"""Nodes of a support graph defined apart from the graph that registers them."""
import datetime

import requests

from people import ask_human


def triage(state: dict) -> dict:
    # Never interrupts.
    return {"queue": requests.get("https://queues.example.com/pick").json()["queue"]}


def approve_refund(state: dict) -> dict:
    policy = requests.get("https://policy.example.com/refunds").json()  # expect: ADK-W004
    decision = ask_human("refund?", {"amount": state["amount"], "limit": policy["limit"]})
    return {"decision": decision, "at": datetime.datetime.now().isoformat()}
