"""RecordedHistory: the versioned JSON document, its deterministic text and its strict reader."""

from __future__ import annotations

import contextlib
import json
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from replaylint.workflows import (
    ActivityError,
    HistoryError,
    RecordedHistory,
    RunContext,
    activity,
    record,
)
from replaylint.workflows.canonical import request_key

START = datetime(2024, 3, 1, 12, 0, tzinfo=timezone.utc)


@activity(name="reserve")
def reserve(sku: str, qty: int) -> dict:
    return {"sku": sku, "qty": qty, "ok": qty < 5}


@activity(name="explode")
def explode() -> None:
    raise RuntimeError("warehouse offline")


def flow(ctx: RunContext, order: dict) -> dict:
    if ctx.patched("v2"):
        reserve(order["sku"], qty=order["qty"])
    with contextlib.suppress(ActivityError):
        explode()
    return {"id": ctx.new_id("order"), "at": ctx.clock.now().isoformat()}


@pytest.fixture
def history() -> RecordedHistory:
    return record(flow, {"sku": "S-1", "qty": 2}, run_id="run-7", started_at=START)


def write(tmp_path: Path, data: Any) -> Path:
    path = tmp_path / "h.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def load_error(tmp_path: Path, data: Any) -> str:
    path = write(tmp_path, data)
    with pytest.raises(HistoryError) as caught:
        RecordedHistory.load(path)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: ")
    assert caught.value.source == str(path)
    return caught.value.detail


def test_the_document_has_every_documented_field(history: RecordedHistory) -> None:
    data = json.loads(history.to_json())
    assert sorted(data) == [
        "commands",
        "input",
        "result",
        "run_id",
        "started_at",
        "version",
        "workflow",
    ]
    assert data["version"] == 1
    assert data["workflow"] == f"{__name__}:flow"
    assert data["run_id"] == "run-7"
    assert data["started_at"] == "2024-03-01T12:00:00+00:00"
    assert data["input"] == {"sku": "S-1", "qty": 2}
    assert data["commands"][1] == {
        "seq": 1,
        "kind": "activity",
        "name": "reserve",
        "request": {"args": ["S-1"], "kwargs": {"qty": 2}},
        "key": request_key({"args": ["S-1"], "kwargs": {"qty": 2}}),
        "result": {"sku": "S-1", "qty": 2, "ok": True},
        "error": None,
    }
    assert data["commands"][2]["error"] == {"type": "RuntimeError", "message": "warehouse offline"}
    assert data["commands"][2]["result"] is None
    assert data["result"]["at"] == "2024-03-01T12:00:00+00:00"


def test_the_key_is_the_sha256_of_the_canonical_request() -> None:
    import hashlib

    canonical = '{"args":["S-1"],"kwargs":{"qty":2}}'
    assert (
        request_key({"kwargs": {"qty": 2}, "args": ["S-1"]})
        == hashlib.sha256(canonical.encode()).hexdigest()
    )


def test_the_text_is_deterministic_sorted_indented_and_newline_terminated(
    history: RecordedHistory,
) -> None:
    text = history.to_json()
    assert text.endswith("}\n") and not text.endswith("\n\n")
    assert text.startswith('{\n  "commands": [\n    {\n      "error": null,\n      "key": ')
    again = record(flow, {"sku": "S-1", "qty": 2}, run_id="run-7", started_at=START)
    assert again.to_json() == text
    # An input whose keys came in another order is another run: the file keeps its order.
    reordered = record(flow, {"qty": 2, "sku": "S-1"}, run_id="run-7", started_at=START)
    assert list(json.loads(reordered.to_json())["input"]) == ["qty", "sku"]


def test_save_then_load_gives_an_equal_history(history: RecordedHistory, tmp_path: Path) -> None:
    path = tmp_path / "flow.json"
    history.save(path)
    loaded = RecordedHistory.load(path)
    assert loaded == history
    assert loaded.to_json() == path.read_text(encoding="utf-8")


def test_a_non_utc_offset_survives_the_round_trip(tmp_path: Path) -> None:
    cet = timezone(timedelta(hours=2))
    original = record(
        flow, {"sku": "S-1", "qty": 1}, run_id="r", started_at=datetime(2024, 6, 1, 9, tzinfo=cet)
    )
    original.save(tmp_path / "h.json")
    loaded = RecordedHistory.load(tmp_path / "h.json")
    assert loaded.started_at.utcoffset() == timedelta(hours=2)
    assert loaded == original


def test_a_trailing_z_is_read_as_utc(history: RecordedHistory) -> None:
    data = history.to_dict()
    data["started_at"] = "2024-03-01T12:00:00Z"
    assert RecordedHistory.from_dict(data).started_at == START


def test_a_newer_version_is_refused_naming_both_versions(
    history: RecordedHistory, tmp_path: Path
) -> None:
    data = history.to_dict()
    data["version"] = 3
    data["something_new"] = True  # newer documents may add fields; the version speaks first
    detail = load_error(tmp_path, data)
    assert (
        detail
        == "history version 3 is newer than this runtime supports (version 2); upgrade replaylint"
    )


@pytest.mark.parametrize(
    ("version", "detail"),
    [
        (0, "history version 0 is not a valid version (this runtime reads versions 1 to 2)"),
        ("1", "field 'version' must be an integer, got a string"),
        (True, "field 'version' must be an integer, got a boolean"),
    ],
)
def test_invalid_versions_are_refused(
    history: RecordedHistory, tmp_path: Path, version: Any, detail: str
) -> None:
    data = history.to_dict()
    data["version"] = version
    assert load_error(tmp_path, data) == detail


def test_a_missing_version_is_refused(history: RecordedHistory, tmp_path: Path) -> None:
    data = history.to_dict()
    del data["version"]
    assert load_error(tmp_path, data) == "missing field 'version'"


def test_an_unknown_top_level_field_is_refused(history: RecordedHistory, tmp_path: Path) -> None:
    data = history.to_dict()
    data["worker"] = "w-1"
    assert load_error(tmp_path, data) == (
        "unknown field 'worker' (known fields: commands, input, result, run_id, started_at, version, workflow)"
    )


def test_an_unknown_command_field_is_refused_with_its_position(
    history: RecordedHistory, tmp_path: Path
) -> None:
    data = history.to_dict()
    data["commands"][1]["duration_ms"] = 12
    assert load_error(tmp_path, data).startswith(
        "commands[1]: unknown field 'duration_ms' (known fields: error,"
    )


def test_a_missing_field_is_refused(history: RecordedHistory, tmp_path: Path) -> None:
    data = history.to_dict()
    del data["commands"][0]["key"]
    assert load_error(tmp_path, data) == "commands[0]: missing field 'key'"


def test_bad_json_is_refused_naming_the_file_and_position(tmp_path: Path) -> None:
    assert load_error(tmp_path, '{"version": 1,\n  "workflow": }') == (
        "not valid JSON: Expecting value (line 2, column 15)"
    )


def test_nan_and_duplicate_keys_are_not_json(history: RecordedHistory, tmp_path: Path) -> None:
    assert load_error(tmp_path, '{"version": NaN}') == "not valid JSON: NaN is not JSON"
    assert (
        load_error(tmp_path, '{"version": 1, "version": 1}')
        == "not valid JSON: duplicate key 'version'"
    )


def test_a_document_that_is_not_an_object_is_refused(tmp_path: Path) -> None:
    assert load_error(tmp_path, "[1, 2]") == "a history must be a JSON object, got a list"


def test_a_missing_file_is_a_history_error(tmp_path: Path) -> None:
    with pytest.raises(HistoryError) as caught:
        RecordedHistory.load(tmp_path / "absent.json")
    assert str(caught.value) == f"{tmp_path / 'absent.json'}: no such file"


def test_a_duplicated_seq_is_refused(history: RecordedHistory, tmp_path: Path) -> None:
    data = history.to_dict()
    data["commands"][2]["seq"] = 1
    assert load_error(tmp_path, data) == "duplicated seq 1"


def test_a_missing_seq_is_refused(history: RecordedHistory, tmp_path: Path) -> None:
    data = history.to_dict()
    data["commands"][2]["seq"] = 7
    assert load_error(tmp_path, data) == "missing seq 2 (commands are numbered 0 to 2)"


def test_out_of_order_commands_are_refused(history: RecordedHistory, tmp_path: Path) -> None:
    data = history.to_dict()
    data["commands"][1], data["commands"][2] = data["commands"][2], data["commands"][1]
    assert load_error(tmp_path, data) == "commands are out of order: position 1 holds seq 2"


def test_a_hand_edited_request_no_longer_matches_its_key(
    history: RecordedHistory, tmp_path: Path
) -> None:
    data = history.to_dict()
    data["commands"][1]["request"]["kwargs"]["qty"] = 3
    assert (
        load_error(tmp_path, data)
        == "commands[1]: field 'key' does not match the SHA-256 of its request (edited by hand?)"
    )


@pytest.mark.parametrize(
    ("field", "value", "detail"),
    [
        (
            "kind",
            "timer",
            "commands[1]: field 'kind' must be one of activity, model_call, patch, got 'timer'",
        ),
        ("name", "", "commands[1]: field 'name' must be a non-empty string, got ''"),
        ("seq", -1, "commands[1]: field 'seq' must be a non-negative integer, got -1"),
        (
            "request",
            {"args": []},
            'commands[1]: field \'request\' must be an object {"args": [...], "kwargs": {...}}',
        ),
        (
            "key",
            "abc",
            "commands[1]: field 'key' must be a 64-digit lowercase hex SHA-256, got 'abc'",
        ),
        ("error", "boom", "commands[1]: field 'error' must be null or an object, got a string"),
    ],
)
def test_invalid_command_fields_are_refused(
    history: RecordedHistory, tmp_path: Path, field: str, value: Any, detail: str
) -> None:
    data = history.to_dict()
    data["commands"][1][field] = value
    assert load_error(tmp_path, data) == detail


def test_an_error_and_a_result_together_are_refused(
    history: RecordedHistory, tmp_path: Path
) -> None:
    data = history.to_dict()
    data["commands"][2]["result"] = 1
    assert (
        load_error(tmp_path, data) == "commands[2]: a command with an error must have a null result"
    )


def test_a_patch_command_must_say_true(history: RecordedHistory, tmp_path: Path) -> None:
    data = history.to_dict()
    data["commands"][0]["result"] = False
    assert (
        load_error(tmp_path, data)
        == "commands[0]: a patch command must have an empty request, result true and no error"
    )


@pytest.mark.parametrize(
    ("field", "value", "detail"),
    [
        (
            "workflow",
            "flow",
            "field 'workflow' must be an import path like 'package.module:function', got 'flow'",
        ),
        ("run_id", "", "field 'run_id' must be a non-empty string, got ''"),
        (
            "started_at",
            "2024-03-01T12:00:00",
            "field 'started_at' must carry a UTC offset, got naive '2024-03-01T12:00:00'",
        ),
        ("started_at", "yesterday", "field 'started_at' is not an ISO 8601 instant: 'yesterday'"),
        ("commands", {}, "field 'commands' must be a list, got an object"),
    ],
)
def test_invalid_top_level_fields_are_refused(
    history: RecordedHistory, tmp_path: Path, field: str, value: Any, detail: str
) -> None:
    data = history.to_dict()
    data[field] = value
    assert load_error(tmp_path, data) == detail


def test_record_refuses_a_naive_start() -> None:
    with pytest.raises(ValueError, match="must be time-zone-aware, got naive 2024-03-01T12:00:00"):
        record(flow, {"sku": "S-1", "qty": 2}, run_id="r", started_at=datetime(2024, 3, 1, 12, 0))


def test_record_refuses_an_input_that_is_not_json() -> None:
    with pytest.raises(
        HistoryError, match=r"^workflow input: value\['sku'\] is not JSON-serialisable \(set"
    ):
        record(flow, {"sku": {"S-1"}, "qty": 2}, run_id="r", started_at=START)


def test_record_refuses_a_result_that_is_not_json() -> None:
    def returns_datetime(ctx: RunContext, input: None) -> datetime:
        return ctx.clock.now()

    with pytest.raises(
        HistoryError, match=r"^workflow result: value is not JSON-serialisable \(datetime"
    ):
        record(returns_datetime, None, run_id="r", started_at=START)


def test_a_workflow_that_raises_records_nothing() -> None:
    def failing(ctx: RunContext, input: None) -> None:
        raise KeyError("missing")

    with pytest.raises(KeyError):
        record(failing, None, run_id="r", started_at=START)
