"""Prefect 3: only a flow that suspends itself runs again (from the top, up to the suspend it
stopped at); ordinary flows, pause_flow_run and suspending another run are not replayed."""
import random
import time
import uuid

import httpx
import prefect
from prefect import flow, pause_flow_run, task
from prefect.flow_runs import asuspend_flow_run
from prefect.flow_runs import suspend_flow_run as wait_for_sign_off


@task(persist_result=True)
def build_report(started: float) -> dict:
    return httpx.get("https://reports.example.com", params={"at": time.time(), "s": started}).json()


def announce(report: dict) -> None:
    httpx.post("https://chat.example.com", json=report)  # expect: ADK-W004


@flow(persist_result=True)
def monthly_report() -> dict:
    report = build_report(time.time())  # expect: ADK-W003
    announce(report)  # expect: ADK-W005
    wait_for_sign_off(timeout=3600, key=f"sign-off-{uuid.uuid4()}")  # expect: ADK-W002
    announce(report)  # after the last suspend: once
    return {"report": report, "done": time.time()}


@flow
async def nightly() -> None:
    batch = random.sample(range(100), 5)  # expect: ADK-W002
    await asuspend_flow_run(timeout=600)
    await prefect.suspend_flow_run(timeout=600)
    print(batch, time.time())


@flow
def ordinary() -> float:
    # Runs once: never suspends.
    announce({"at": time.time()})
    return random.random()


@flow
def paused() -> None:
    # pause_flow_run blocks in the process: nothing runs again.
    started = time.time()
    pause_flow_run(timeout=60)
    announce({"started": started})


@flow
def approver(other_run: str) -> None:
    # Suspends another run, not this one.
    stamp = time.time()
    prefect.suspend_flow_run(flow_run_id=other_run, timeout=60)
    announce({"at": stamp})


if __name__ == "__main__":
    monthly_report.serve(name="monthly", cron="0 0 1 * *")
