"""History format version 2: its fields, its validation, and version 1 written when it suffices."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from replaylint.workflows import (
    HistoryError,
    RecordedHistory,
    RunContext,
    activity,
    assert_replays,
    record,
    workflow,
)

START = datetime(2024, 3, 1, 12, 0, tzinfo=timezone.utc)
HISTORIES = Path(__file__).resolve().parents[1] / "histories"


@activity(name="step")
async def step(name: str, ticks: int) -> str:
    for _ in range(ticks):
        await asyncio.sleep(0)
    return name


@workflow(name="everything")
async def everything(ctx: RunContext, fail: bool) -> list:
    ctx.deprecate_patch("old-path")
    await ctx.sleep(60)
    done = list(await asyncio.gather(step("slow", 3), step("fast", 0)))
    if fail:
        raise RuntimeError("stopped on purpose")
    return done


def plain(ctx: RunContext, name: str) -> str:
    return f"hello {name}"


def history_of(fail: bool = False) -> RecordedHistory:
    berlin = datetime(2024, 3, 1, 13, 0, tzinfo=ZoneInfo("Europe/Berlin"))
    return record(everything, fail, run_id="r-1", started_at=berlin, record_failure=True)


def test_a_run_without_new_features_is_still_written_as_version_1() -> None:
    data = record(plain, "ana", run_id="r-1", started_at=START).to_dict()
    assert data["version"] == 1
    assert sorted(data) == [
        "commands",
        "input",
        "result",
        "run_id",
        "started_at",
        "version",
        "workflow",
    ]


def test_a_version_2_document_has_every_documented_field() -> None:
    data = json.loads(history_of(fail=True).to_json())
    assert data["version"] == 2
    assert sorted(data) == [
        "commands",
        "deliveries",
        "failure",
        "input",
        "result",
        "run_id",
        "started_at",
        "version",
        "workflow",
        "workflow_name",
    ]
    assert [c["kind"] for c in data["commands"]] == [
        "deprecated_patch",
        "timer",
        "activity",
        "activity",
    ]
    assert data["deliveries"] == [1, 3, 2]
    assert data["failure"] == {"type": "RuntimeError", "message": "stopped on purpose"}
    assert data["result"] is None
    assert data["workflow_name"] == "everything"
    assert data["started_at"] == "2024-03-01T13:00:00+01:00[Europe/Berlin]"


@pytest.mark.parametrize("fail", [False, True])
def test_a_version_2_file_round_trips_and_replays(fail: bool, tmp_path: Path) -> None:
    history = history_of(fail)
    history.save(tmp_path / "h.json")
    loaded = RecordedHistory.load(tmp_path / "h.json")
    assert loaded == history
    assert loaded.to_json() == (tmp_path / "h.json").read_text(encoding="utf-8")
    assert_replays(everything, tmp_path / "h.json")


def test_committed_files_of_both_versions_read() -> None:
    versions = {}
    for path in sorted(HISTORIES.glob("*.json")):
        history = RecordedHistory.load(path)
        versions[path.name] = history.version
        if history.version == 1:
            assert history.deliveries is history.failure is history.workflow_name is None
    assert versions.pop("freight.json") == 2
    assert set(versions.values()) == {1} and len(versions) == 6


def test_version_1_cannot_hold_what_version_2_added() -> None:
    history = history_of()
    with pytest.raises(HistoryError) as caught:
        dataclasses.replace(history, version=1).to_dict()
    assert (
        str(caught.value)
        == "a version 1 history cannot hold deprecated_patch commands; version 2 can"
    )
    data = history.to_dict()
    data["version"] = 1
    for key in ("deliveries", "failure", "workflow_name"):
        del data[key]
    with pytest.raises(
        HistoryError,
        match=r"commands\[0\]: field 'kind' must be one of activity, model_call, patch, got 'deprecated_patch'",
    ):
        RecordedHistory.from_dict(data)


def invalid(change) -> str:
    data: dict[str, Any] = history_of(fail=True).to_dict()
    change(data)
    with pytest.raises(HistoryError) as caught:
        RecordedHistory.from_dict(data, source="h.json")
    assert "\n" not in str(caught.value)
    return caught.value.detail


def test_version_2_fields_are_required() -> None:
    assert invalid(lambda d: d.pop("deliveries")) == "missing field 'deliveries'"
    assert invalid(lambda d: d.update(extra=1)).startswith("unknown field 'extra' (known fields:")


@pytest.mark.parametrize(
    ("deliveries", "detail"),
    [
        ("1,3,2", "field 'deliveries' must be a list of command seqs"),
        ([1, True], "field 'deliveries' must be a list of command seqs"),
        ([0], "deliveries[0]: 0 is not the seq of an activity, model_call or timer command"),
        ([9], "deliveries[0]: 9 is not the seq of an activity, model_call or timer command"),
        ([1, 1], "deliveries[1]: seq 1 is delivered twice"),
    ],
)
def test_deliveries_name_deliverable_commands_once(deliveries: Any, detail: str) -> None:
    assert invalid(lambda d: d.update(deliveries=deliveries)) == detail


def test_a_failure_is_validated() -> None:
    assert (
        invalid(lambda d: d.update(result=1)) == "a history with a failure must have a null result"
    )
    assert invalid(lambda d: d.update(failure="boom")) == (
        "field 'failure' must be null or an object, got a string"
    )
    assert invalid(lambda d: d.update(failure={"type": ""})) == "failure: missing field 'message'"


def test_a_workflow_name_is_null_or_a_non_empty_string() -> None:
    assert invalid(lambda d: d.update(workflow_name="")) == (
        "field 'workflow_name' must be null or a non-empty string, got ''"
    )


def test_a_deprecated_patch_command_is_validated_like_a_patch() -> None:
    assert invalid(lambda d: d["commands"][0].update(result=False)) == (
        "commands[0]: a deprecated_patch command must have an empty request, result true and no error"
    )
