"""`replaylint replay` on histories exported from Temporal: temporalio's own Replayer, or one line why not.

The histories are written by the tests in the shape `temporal workflow show --output json`
prints (the Temporal test server is not used: it is downloaded on first use, and these
tests stay offline).
"""

from __future__ import annotations

import base64
import io
import itertools
import json
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from replaylint.harness.replay import TEMPORAL_MISSING, is_temporal_history, replay_paths

_names = itertools.count()

WORKFLOWS = '''
"""Temporal workflows for the replay tests: one greets through an activity."""
from datetime import timedelta

from temporalio import activity, workflow


@activity.defn
async def greet(name: str) -> str:
    return f"Hello, {name}!"


@workflow.defn(name="Greeting")
class Greeting:
    @workflow.run
    async def run(self, name: str) -> str:
        return await workflow.execute_activity(
            greet, name, start_to_close_timeout=timedelta(seconds=5)
        )


@workflow.defn(name="Greeting")
class GreetingAfterAWait:
    @workflow.run
    async def run(self, name: str) -> str:
        await workflow.sleep(60)
        return await workflow.execute_activity(
            greet, name, start_to_close_timeout=timedelta(seconds=5)
        )


@workflow.defn(name="Farewell")
class Farewell:
    @workflow.run
    async def run(self, name: str) -> str:
        return f"Bye, {name}!"


class NotAWorkflow:
    pass
'''


def payloads(*values: Any) -> dict[str, Any]:
    encoding = base64.b64encode(b"json/plain").decode()
    return {
        "payloads": [
            {
                "metadata": {"encoding": encoding},
                "data": base64.b64encode(json.dumps(v).encode()).decode(),
            }
            for v in values
        ]
    }


def greeting_history(event_type: Any = lambda name: f"EVENT_TYPE_{name}") -> dict[str, Any]:
    """Started, one workflow task, the greet activity, a second task, completed."""
    queue = {"name": "greetings"}
    task = {"taskQueue": queue, "startToCloseTimeout": "10s", "attempt": 1}
    events = [
        (
            "WORKFLOW_EXECUTION_STARTED",
            "workflowExecutionStartedEventAttributes",
            {
                "workflowType": {"name": "Greeting"},
                "taskQueue": queue,
                "input": payloads("Ana"),
                "workflowTaskTimeout": "10s",
                "originalExecutionRunId": "run-1",
                "firstExecutionRunId": "run-1",
                "attempt": 1,
            },
        ),
        ("WORKFLOW_TASK_SCHEDULED", "workflowTaskScheduledEventAttributes", task),
        ("WORKFLOW_TASK_STARTED", "workflowTaskStartedEventAttributes", {"scheduledEventId": "2"}),
        (
            "WORKFLOW_TASK_COMPLETED",
            "workflowTaskCompletedEventAttributes",
            {"scheduledEventId": "2", "startedEventId": "3"},
        ),
        (
            "ACTIVITY_TASK_SCHEDULED",
            "activityTaskScheduledEventAttributes",
            {
                "activityId": "1",
                "activityType": {"name": "greet"},
                "taskQueue": queue,
                "input": payloads("Ana"),
                "startToCloseTimeout": "5s",
                "workflowTaskCompletedEventId": "4",
            },
        ),
        (
            "ACTIVITY_TASK_STARTED",
            "activityTaskStartedEventAttributes",
            {"scheduledEventId": "5", "attempt": 1},
        ),
        (
            "ACTIVITY_TASK_COMPLETED",
            "activityTaskCompletedEventAttributes",
            {"result": payloads("Hello, Ana!"), "scheduledEventId": "5", "startedEventId": "6"},
        ),
        ("WORKFLOW_TASK_SCHEDULED", "workflowTaskScheduledEventAttributes", task),
        ("WORKFLOW_TASK_STARTED", "workflowTaskStartedEventAttributes", {"scheduledEventId": "8"}),
        (
            "WORKFLOW_TASK_COMPLETED",
            "workflowTaskCompletedEventAttributes",
            {"scheduledEventId": "8", "startedEventId": "9"},
        ),
        (
            "WORKFLOW_EXECUTION_COMPLETED",
            "workflowExecutionCompletedEventAttributes",
            {"result": payloads("Hello, Ana!"), "workflowTaskCompletedEventId": "10"},
        ),
    ]
    return {
        "events": [
            {
                "eventId": str(i),
                "eventTime": "2024-06-01T09:30:00Z",
                "eventType": event_type(kind),
                key: attributes,
            }
            for i, (kind, key, attributes) in enumerate(events, start=1)
        ]
    }


def camel(name: str) -> str:
    """The spelling the Temporal UI downloads: WorkflowExecutionStarted."""
    return "".join(part.capitalize() for part in name.split("_"))


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A project root with a uniquely named module of Temporal workflows; cwd is the root."""
    module = f"greetings_{next(_names)}"
    (tmp_path / f"{module}.py").write_text(textwrap.dedent(WORKFLOWS), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    yield tmp_path, module
    sys.modules.pop(module, None)


def write(root: Path, name: str, data: Any) -> str:
    (root / name).write_text(json.dumps(data), encoding="utf-8")
    return name


def run(paths: list[str], workflows: list[str]) -> tuple[int, list[str]]:
    out = io.StringIO()
    status = replay_paths(paths, out, workflows=workflows)
    return status, out.getvalue().splitlines()


def test_a_temporal_export_is_told_apart_from_our_histories() -> None:
    assert is_temporal_history(greeting_history())
    assert is_temporal_history(greeting_history(camel))
    committed = Path(__file__).resolve().parents[1] / "histories" / "payment.json"
    assert not is_temporal_history(json.loads(committed.read_text(encoding="utf-8")))
    assert not is_temporal_history({"events": []})
    assert not is_temporal_history({"events": [{"eventId": "1"}]})
    assert not is_temporal_history([{"eventType": "x"}])


def test_without_temporalio_each_temporal_history_gets_one_line_and_the_rest_still_run(
    project, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, module = project
    for name in [m for m in sys.modules if m == "temporalio" or m.startswith("temporalio.")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "temporalio", None)
    # A replay runs in a child process: forked, it inherits the modules above; started afresh
    # (when the process already runs temporalio's own threads), it finds this stub first.
    stub = root.parent / "no-temporalio" / "temporalio"
    stub.mkdir(parents=True)
    (stub / "__init__.py").write_text(
        "raise ModuleNotFoundError(\"No module named 'temporalio'\", name='temporalio')\n"
    )
    monkeypatch.syspath_prepend(str(stub.parent))  # a fresh child is given this sys.path
    write(root, "a.json", greeting_history())
    write(root, "b.json", {"version": 99})
    assert run(["a.json", "b.json"], [f"{module}:Greeting"]) == (
        2,
        [
            f"error a.json: {TEMPORAL_MISSING}",
            "error b.json: history version 99 is newer than this runtime supports (version 2); "
            "upgrade replaylint",
        ],
    )
    assert TEMPORAL_MISSING.startswith("temporalio is not installed")


def test_a_temporal_history_needs_its_workflow_classes(project) -> None:
    pytest.importorskip("temporalio.worker")
    root, _ = project
    write(root, "h.json", greeting_history())
    assert run(["h.json"], []) == (
        2,
        [
            "error h.json: a Temporal history is replayed against its workflow classes: "
            "pass --workflow package.module:Class"
        ],
    )


@pytest.mark.parametrize("spelling", [lambda name: f"EVENT_TYPE_{name}", camel])
def test_the_recorded_run_replays_through_temporals_replayer(project, spelling) -> None:
    pytest.importorskip("temporalio.worker")
    root, module = project
    write(root, "h.json", greeting_history(spelling))
    assert run(["h.json"], [f"{module}:Greeting"]) == (0, ["ok h.json (11 events, Temporal)"])


def test_a_module_names_all_of_its_workflow_classes(project) -> None:
    pytest.importorskip("temporalio.worker")
    root, module = project
    write(root, "h.json", greeting_history())
    only = f"{module}_only"
    source = WORKFLOWS.replace("class GreetingAfterAWait", "class _Unused").replace(
        '@workflow.defn(name="Greeting")\nclass _Unused', "class _Unused"
    )
    (root / f"{only}.py").write_text(textwrap.dedent(source), encoding="utf-8")
    try:
        assert run(["h.json"], [only]) == (0, ["ok h.json (11 events, Temporal)"])
    finally:
        sys.modules.pop(only, None)
    # Two classes of one workflow type: the Replayer's own refusal, in one line.
    status, lines = run(["h.json"], [module])
    assert status == 2
    assert lines[0].startswith("error h.json: temporalio cannot replay it: ")
    assert len(lines) == 1


def test_a_wait_added_in_front_of_the_activity_diverges(project) -> None:
    pytest.importorskip("temporalio.worker")
    root, module = project
    write(root, "h.json", greeting_history())
    status, lines = run(["h.json"], [f"{module}:GreetingAfterAWait"])
    assert status == 1
    assert lines == [
        "diverged h.json: Temporal replay (nondeterminism): [TMPRL1100] Nondeterminism error: "
        "Timer machine does not handle this event: HistoryEvent(id: 5, ActivityTaskScheduled)"
    ]


def test_a_history_of_another_workflow_type_is_refused_with_both_names(project) -> None:
    pytest.importorskip("temporalio.worker")
    root, module = project
    write(root, "h.json", greeting_history())
    assert run(["h.json"], [f"{module}:Farewell"]) == (
        2,
        [
            "error h.json: the history is of Temporal workflow type 'Greeting', "
            "the workflows given are 'Farewell'"
        ],
    )


@pytest.mark.parametrize(
    ("spec", "detail"),
    [
        (
            "{module}:NotAWorkflow",
            "'{module}:NotAWorkflow' is not a Temporal workflow class (@workflow.defn)",
        ),
        ("{module}:Missing", "cannot import workflow '{module}:Missing': no attribute 'Missing'"),
        ("json", "module 'json' defines no Temporal workflow class"),
    ],
)
def test_a_workflow_option_that_is_not_a_workflow_class_is_an_error(project, spec, detail) -> None:
    pytest.importorskip("temporalio.worker")
    root, module = project
    write(root, "h.json", greeting_history())
    assert run(["h.json"], [spec.format(module=module)]) == (
        2,
        [f"error h.json: {detail.format(module=module)}"],
    )


def test_the_configuration_names_the_workflow_classes_for_the_command(project) -> None:
    pytest.importorskip("temporalio.worker")
    from click.testing import CliRunner

    from replaylint.cli.main import cli

    root, module = project
    write(root, "h.json", greeting_history(camel))
    (root / "pyproject.toml").write_text(
        f'[tool.replaylint]\nreplay-workflows = ["{module}:Greeting"]\n', encoding="utf-8"
    )
    result = CliRunner().invoke(cli, ["replay", "h.json"])
    assert (result.exit_code, result.output) == (0, "ok h.json (11 events, Temporal)\n")
    (root / "pyproject.toml").write_text("[tool.replaylint]\nreplay-workflows = 3\n")
    broken = CliRunner().invoke(cli, ["replay", "h.json"])
    assert broken.exit_code == 2
    assert "replay-workflows" in broken.output
