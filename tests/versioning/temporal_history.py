"""Temporal histories written from a base skeleton, as a run of the base code records them:
one workflow task per command (a patch marker shares the task of the command after it)."""

from __future__ import annotations

import base64
import json
from typing import Any

from replaylint.versioning.model import Block, DurableCommand, Gate, Loop

_STAMP = "2024-01-01T00:00:00Z"


def _payloads(value: object) -> dict[str, Any]:
    encoding = base64.b64encode(b"json/plain").decode()
    data = base64.b64encode(json.dumps(value).encode()).decode()
    return {"payloads": [{"metadata": {"encoding": encoding}, "data": data}]}


def commands(block: Block, branch: str) -> list[tuple[str, str]]:
    """The commands a run of `block` records; a gate's `branch` ("new": the run recorded the
    patch marker, "old": it started before the patch)."""
    found: list[tuple[str, str]] = []
    for item in block:
        if isinstance(item, DurableCommand):
            found.append((item.kind, item.target))
        elif isinstance(item, Gate):
            if branch == "new":
                found.append(("marker", item.patch))
                found += commands(item.new, branch)
            else:
                found += commands(item.old, branch)
        elif isinstance(item, Loop):
            raise ValueError("a loop's count is data: keep loops out of replayed fixtures")
        elif type(item).__name__ == "Deprecation":
            found.append(("deprecated marker", item.patch))  # type: ignore[attr-defined]
    return found


class _Events:
    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []

    def add(self, kind: str, attributes: dict[str, Any]) -> int:
        event_id = len(self.events) + 1
        name = kind[0].lower() + kind[1:] + "EventAttributes"
        self.events.append(
            {"eventId": str(event_id), "eventTime": _STAMP, "eventType": kind, name: attributes}
        )
        return event_id

    def task(self) -> int:
        scheduled = self.add(
            "WorkflowTaskScheduled",
            {"taskQueue": {"name": "q"}, "startToCloseTimeout": "10s", "attempt": 1},
        )
        started = self.add("WorkflowTaskStarted", {"scheduledEventId": str(scheduled)})
        # Flag 1 (id and type checks) is what every current SDK records: without it core
        # compares no activity type on replay.
        completed = {
            "scheduledEventId": str(scheduled),
            "startedEventId": str(started),
            "sdkMetadata": {"coreUsedFlags": [1]},
        }
        return self.add("WorkflowTaskCompleted", completed)


def history(workflow_type: str, recorded: list[tuple[str, str]]) -> dict[str, Any]:
    """A completed run's history (the JSON `temporal workflow show --output json` writes)."""
    events = _Events()
    started = {
        "workflowType": {"name": workflow_type},
        "taskQueue": {"name": "q"},
        "input": _payloads("order-1"),
        "workflowTaskTimeout": "10s",
        "attempt": 1,
        "firstExecutionRunId": "run-1",
        "originalExecutionRunId": "run-1",
    }
    events.add("WorkflowExecutionStarted", started)
    done = events.task()
    seq: dict[str, int] = {}
    for kind, target in recorded:
        seq[kind] = seq.get(kind, 0) + 1
        if kind in ("marker", "deprecated marker"):
            # Core's first encoding of a patch marker, which it still reads: the id's bytes and
            # one byte for "deprecated", each a payload without metadata.
            flag = base64.b64encode(bytes([kind != "marker"])).decode()
            details = {
                "patch_id": {"payloads": [{"data": base64.b64encode(target.encode()).decode()}]},
                "deprecated": {"payloads": [{"data": flag}]},
            }
            attributes = {
                "markerName": "core_patch",
                "details": details,
                "workflowTaskCompletedEventId": str(done),
            }
            events.add("MarkerRecorded", attributes)
            continue  # recorded in the same task as the command after it
        if kind == "activity":
            scheduled = events.add(
                "ActivityTaskScheduled",
                {
                    "activityId": str(seq[kind]),
                    "activityType": {"name": target},
                    "taskQueue": {"name": "q"},
                    "input": _payloads("order-1"),
                    "startToCloseTimeout": "30s",
                    "workflowTaskCompletedEventId": str(done),
                },
            )
            began = events.add(
                "ActivityTaskStarted", {"scheduledEventId": str(scheduled), "attempt": 1}
            )
            events.add(
                "ActivityTaskCompleted",
                {
                    "result": _payloads(target),
                    "scheduledEventId": str(scheduled),
                    "startedEventId": str(began),
                },
            )
        elif kind == "timer":
            timer = {
                "timerId": str(seq[kind]),
                "startToFireTimeout": "10s",
                "workflowTaskCompletedEventId": str(done),
            }
            fired = events.add("TimerStarted", timer)
            events.add("TimerFired", {"timerId": str(seq[kind]), "startedEventId": str(fired)})
        else:
            raise ValueError(f"no history event for a {kind} command in this builder")
        done = events.task()
    events.add(
        "WorkflowExecutionCompleted",
        {"result": _payloads("order-1"), "workflowTaskCompletedEventId": str(done)},
    )
    return {"events": events.events}
