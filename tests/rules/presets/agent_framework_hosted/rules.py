"""Conditions of the hosted workflow: the generated orchestrator calls them on every replay."""
import os
import time


def after_hours(message) -> bool:
    return time.localtime().tm_hour >= 18  # expect: ADK-W003


def wants_audit(message) -> bool:
    return os.environ.get("AUDIT") == "1"  # expect: ADK-W007


async def slow_check(message) -> bool:
    # The durable host never calls an async condition.
    return time.time() > 0
