"""Reached from a DBOS workflow: replayed code too, so its own line is reported here."""
import random


def spread(price: float) -> float:
    return price * (1 - random.uniform(0.001, 0.002))  # expect: ADK-W002


def unused(price: float) -> float:
    return price * random.random()
