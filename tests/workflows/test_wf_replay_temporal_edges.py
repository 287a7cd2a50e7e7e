"""Temporal exports at the edges: invalid histories, workflows that exit, public histories, timers."""

from __future__ import annotations

import io
import itertools
import json
import shutil
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from tests.workflows.test_wf_replay_temporal import greeting_history, payloads

from replaylint.harness.replay import replay_paths

pytest.importorskip("temporalio.worker")

ROOT = Path(__file__).resolve().parents[2]
PUBLIC = ROOT / "tests" / "histories" / "temporal"
_names = itertools.count()

WORKFLOWS = '''
"""Temporal workflows for the edge tests: one exits, one waits first, two nap."""
import sys
from datetime import timedelta

from temporalio import workflow


@workflow.defn(name="Greeting")
class ExitsMidReplay:
    @workflow.run
    async def run(self, name: str) -> str:
        sys.exit(3)


@workflow.defn(name="Greeting")
class Greeting:
    @workflow.run
    async def run(self, name: str) -> str:
        return await workflow.execute_activity(
            "greet", name, start_to_close_timeout=timedelta(seconds=5)
        )


@workflow.defn(name="SayHelloWorkflow")
class WaitsBeforeGreeting:
    @workflow.run
    async def run(self, request: dict) -> str:
        await workflow.sleep(5)
        return await workflow.execute_activity(
            "say_hello", request["name"], schedule_to_close_timeout=timedelta(seconds=60)
        )


@workflow.defn(name="Napper")
class NapsAMinute:
    @workflow.run
    async def run(self, name: str) -> str:
        await workflow.sleep(60)
        return "rested"


@workflow.defn(name="Napper")
class NapsHalfAMinute:
    @workflow.run
    async def run(self, name: str) -> str:
        await workflow.sleep(30)
        return "rested"
'''


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A project root with a uniquely named module of the workflows above; cwd is the root."""
    module = f"temporal_edges_{next(_names)}"
    (tmp_path / f"{module}.py").write_text(textwrap.dedent(WORKFLOWS), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    yield tmp_path, module
    sys.modules.pop(module, None)


def run(paths: list[str], workflows: list[str]) -> tuple[int, list[str]]:
    out = io.StringIO()
    status = replay_paths(paths, out, workflows=workflows, timeout=60)
    return status, out.getvalue().splitlines()


def write(root: Path, name: str, data: Any) -> str:
    (root / name).write_text(json.dumps(data), encoding="utf-8")
    return name


def test_an_invalid_history_is_an_error_with_temporals_reason(project) -> None:
    root, module = project
    data = greeting_history()
    data["events"][4]["eventType"] = "EVENT_TYPE_NOT_A_REAL_ONE"
    write(root, "invalid.json", data)
    assert run(["invalid.json"], [f"{module}:Greeting"]) == (
        2,
        [
            "error invalid.json: Temporal replay (invalid history): Event type is unspecified! "
            "This history is invalid. (event 5)"
        ],
    )


def test_a_workflow_that_exits_during_a_temporal_replay_gets_its_line(project) -> None:
    root, module = project
    write(root, "a.json", greeting_history())
    write(root, "b.json", {"version": 99})
    began = time.monotonic()
    status, lines = run(["a.json", "b.json"], [f"{module}:ExitsMidReplay"])
    assert time.monotonic() - began < 30  # temporalio's own Replayer never returns here
    assert status == 2
    assert lines[0] == (
        "diverged a.json: Temporal replay (workflow task failed): the code raised SystemExit: 3"
    )
    assert lines[1].startswith("error b.json: history version 99 is newer")


def test_the_public_histories_replay_and_a_changed_workflow_diverges(project) -> None:
    root, module = project
    for source in sorted(PUBLIC.glob("*.json")):
        shutil.copy(source, root / source.name)
    names = sorted(p.name for p in PUBLIC.glob("*.json"))
    assert len(names) == 2
    status, lines = run(names, ["tests.histories.temporal.greeter:Greeter"])
    assert (status, lines) == (0, [f"ok {name} (11 events, Temporal)" for name in names])
    status, lines = run(names, [f"{module}:WaitsBeforeGreeting"])
    assert status == 1
    assert lines == [
        f"diverged {name}: Temporal replay (nondeterminism): [TMPRL1100] Nondeterminism error: "
        "Timer machine does not handle this event: HistoryEvent(id: 5, ActivityTaskScheduled)"
        for name in names
    ]


def nap_history(seconds: int) -> dict[str, Any]:
    """One durable timer of `seconds`, fired, then the run completes."""
    queue = {"name": "naps"}
    task = {"taskQueue": queue, "startToCloseTimeout": "10s", "attempt": 1}
    started = {
        "workflowType": {"name": "Napper"},
        "taskQueue": queue,
        "input": payloads("Ana"),
        "workflowTaskTimeout": "10s",
        "originalExecutionRunId": "run-1",
        "firstExecutionRunId": "run-1",
        "attempt": 1,
    }
    events = [
        ("WORKFLOW_EXECUTION_STARTED", "workflowExecutionStartedEventAttributes", started),
        ("WORKFLOW_TASK_SCHEDULED", "workflowTaskScheduledEventAttributes", task),
        ("WORKFLOW_TASK_STARTED", "workflowTaskStartedEventAttributes", {"scheduledEventId": "2"}),
        (
            "WORKFLOW_TASK_COMPLETED",
            "workflowTaskCompletedEventAttributes",
            {"scheduledEventId": "2", "startedEventId": "3"},
        ),
        (
            "TIMER_STARTED",
            "timerStartedEventAttributes",
            {
                "timerId": "1",
                "startToFireTimeout": f"{seconds}s",
                "workflowTaskCompletedEventId": "4",
            },
        ),
        ("TIMER_FIRED", "timerFiredEventAttributes", {"timerId": "1", "startedEventId": "5"}),
        ("WORKFLOW_TASK_SCHEDULED", "workflowTaskScheduledEventAttributes", task),
        ("WORKFLOW_TASK_STARTED", "workflowTaskStartedEventAttributes", {"scheduledEventId": "7"}),
        (
            "WORKFLOW_TASK_COMPLETED",
            "workflowTaskCompletedEventAttributes",
            {"scheduledEventId": "7", "startedEventId": "8"},
        ),
        (
            "WORKFLOW_EXECUTION_COMPLETED",
            "workflowExecutionCompletedEventAttributes",
            {"result": payloads("rested"), "workflowTaskCompletedEventId": "9"},
        ),
    ]
    return {
        "events": [
            {
                "eventId": str(i),
                "eventTime": "2024-06-01T09:30:00Z",
                "eventType": f"EVENT_TYPE_{k}",
                key: a,
            }
            for i, (k, key, a) in enumerate(events, start=1)
        ]
    }


def test_temporals_replayer_does_not_compare_a_timers_duration(project) -> None:
    # What the README says: a changed wait length replays in Temporal; replaylint's own
    # runtime is stricter and reports it as a key-mismatch (tests/workflows/test_wf_timers.py).
    root, module = project
    write(root, "nap.json", nap_history(60))
    for cls in ("NapsAMinute", "NapsHalfAMinute"):
        assert run(["nap.json"], [f"{module}:{cls}"]) == (0, ["ok nap.json (10 events, Temporal)"])
