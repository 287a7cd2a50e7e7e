"""Flows declared through the project's own wrapper of @flow: replayed only when they suspend."""
import time

from prefect import suspend_flow_run

from flow_utils import audited_flow


@audited_flow
def intake(batch: str) -> float:
    started = time.time()  # expect: ADK-W003
    suspend_flow_run(timeout=600)
    return started


@audited_flow
def nightly(batch: str) -> float:
    return time.time()  # never suspends: runs once
