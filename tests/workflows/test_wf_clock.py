"""WorkflowClock: aware instants only, immutable advancing, no wall clock."""

from __future__ import annotations

import dataclasses
import json
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from replaylint.workflows import (
    HistoryError,
    RecordedHistory,
    RunContext,
    WorkflowClock,
    assert_replays,
    record,
)

START = datetime(2024, 3, 1, 12, 0, tzinfo=timezone.utc)


def test_now_is_the_start_instant() -> None:
    assert WorkflowClock(started_at=START).now() == START


def test_advanced_returns_a_later_clock_and_leaves_the_original_alone() -> None:
    clock = WorkflowClock(started_at=START)
    later = clock.advanced(90)
    assert later.now() == datetime(2024, 3, 1, 12, 1, 30, tzinfo=timezone.utc)
    assert clock.now() == START
    assert later.started_at == START
    assert later.advanced(0.5).now() == datetime(2024, 3, 1, 12, 1, 30, 500000, tzinfo=timezone.utc)


def test_the_clock_is_frozen() -> None:
    clock = WorkflowClock(started_at=START)
    with pytest.raises(dataclasses.FrozenInstanceError):
        clock.started_at = START + timedelta(days=1)  # type: ignore[misc]


def test_the_offset_of_the_start_is_kept() -> None:
    cet = timezone(timedelta(hours=1))
    now = WorkflowClock(started_at=datetime(2024, 3, 1, 13, 0, tzinfo=cet)).now()
    assert now.utcoffset() == timedelta(hours=1)
    assert now == START


def test_a_naive_start_is_refused_with_a_clear_error() -> None:
    with pytest.raises(ValueError) as caught:
        WorkflowClock(started_at=datetime(2024, 3, 1, 12, 0))
    assert str(caught.value) == (
        "WorkflowClock started_at must be time-zone-aware, got naive 2024-03-01T12:00:00; "
        "pass tzinfo (e.g. datetime(..., tzinfo=timezone.utc))"
    )


def test_a_start_that_is_not_a_datetime_is_refused() -> None:
    with pytest.raises(TypeError, match="must be a datetime, got str"):
        WorkflowClock(started_at="2024-03-01T12:00:00+00:00")  # type: ignore[arg-type]


@pytest.mark.parametrize("seconds", [-1, float("nan"), float("inf")])
def test_time_never_runs_backwards_or_to_infinity(seconds: float) -> None:
    with pytest.raises(ValueError, match="finite, non-negative"):
        WorkflowClock(started_at=START).advanced(seconds)


@pytest.mark.parametrize("seconds", [True, "5", timedelta(seconds=5)])
def test_advanced_takes_numbers_only(seconds: object) -> None:
    with pytest.raises(TypeError, match="seconds as int or float"):
        WorkflowClock(started_at=START).advanced(seconds)  # type: ignore[arg-type]


def test_the_runtime_never_reads_the_host_clock_or_entropy() -> None:
    # A static proof over the runtime's own source: no clock, sleep or entropy API is
    # imported or called anywhere in replaylint.workflows.
    import ast
    from pathlib import Path

    import replaylint.workflows as runtime

    forbidden_modules = {"time", "random", "secrets"}
    forbidden_calls = {
        ("datetime", "now"),
        ("datetime", "today"),
        ("datetime", "utcnow"),
        ("date", "today"),
        ("uuid", "uuid1"),
        ("uuid", "uuid4"),
        ("os", "urandom"),
        ("asyncio", "sleep"),
        ("time", "sleep"),
    }
    found = []
    for path in sorted(Path(runtime.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found += [
                    f"{path.name}: import {a.name}"
                    for a in node.names
                    if a.name in forbidden_modules
                ]
            elif isinstance(node, ast.ImportFrom) and node.module in forbidden_modules:
                found.append(f"{path.name}: from {node.module} import")
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                owner = node.func.value
                if isinstance(owner, ast.Name) and (owner.id, node.func.attr) in forbidden_calls:
                    found.append(f"{path.name}:{node.lineno}: {owner.id}.{node.func.attr}()")
                # astimezone() without a zone converts to the host's local time zone.
                if node.func.attr == "astimezone" and not node.args and not node.keywords:
                    found.append(f"{path.name}:{node.lineno}: astimezone()")
    assert found == []


# --- named zones: arithmetic on the instant, rendering in the zone, the name kept in histories ---

BERLIN = ZoneInfo("Europe/Berlin")
# 01:30 CEST, half an hour before the clocks go back from 03:00 CEST to 02:00 CET.
BEFORE_AUTUMN_CHANGE = datetime(2024, 10, 27, 1, 30, tzinfo=BERLIN)


def test_an_hour_across_the_autumn_change_is_one_hour() -> None:
    clock = WorkflowClock(started_at=BEFORE_AUTUMN_CHANGE)
    later = clock.advanced(3600).now()
    assert later - clock.now() == timedelta(hours=1)
    assert later.astimezone(timezone.utc) - BEFORE_AUTUMN_CHANGE.astimezone(
        timezone.utc
    ) == timedelta(hours=1)
    assert later.isoformat() == "2024-10-27T02:30:00+02:00"
    assert clock.advanced(7200).now().isoformat() == "2024-10-27T02:30:00+01:00"
    assert later.tzinfo is BERLIN  # rendered in the zone it was given


def test_an_hour_across_the_spring_change_is_one_hour() -> None:
    clock = WorkflowClock(started_at=datetime(2024, 3, 31, 1, 30, tzinfo=BERLIN))
    assert clock.advanced(3600).now().isoformat() == "2024-03-31T03:30:00+02:00"


def zoned(ctx: RunContext, _: None) -> list:
    return [ctx.clock.advanced(1800 * i).now().isoformat() for i in range(4)]


def test_a_history_keeps_the_zone_name_and_unchanged_code_replays_its_own_file(
    tmp_path,
) -> None:
    history = record(zoned, None, run_id="r-1", started_at=BEFORE_AUTUMN_CHANGE)
    assert history.result == [
        "2024-10-27T01:30:00+02:00",
        "2024-10-27T02:00:00+02:00",
        "2024-10-27T02:30:00+02:00",
        "2024-10-27T02:00:00+01:00",
    ]
    path = tmp_path / "zoned.json"
    history.save(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["started_at"] == "2024-10-27T01:30:00+02:00[Europe/Berlin]"
    assert data["version"] == 2
    loaded = RecordedHistory.load(path)
    assert loaded.started_at.tzinfo == BERLIN
    assert_replays(zoned, path)


def test_a_fixed_offset_start_is_still_written_as_plain_iso_8601() -> None:
    cet = timezone(timedelta(hours=1))
    history = record(zoned, None, run_id="r-1", started_at=datetime(2024, 1, 5, 9, tzinfo=cet))
    assert history.to_dict()["started_at"] == "2024-01-05T09:00:00+01:00"
    assert history.version == 1


@pytest.mark.parametrize(
    ("started_at", "detail"),
    [
        (
            "2024-10-27T01:30:00+01:00[Europe/Berlin]",
            "field 'started_at' has the offset +01:00, which is not Europe/Berlin's offset at "
            "that instant (+02:00)",
        ),
        (
            "2024-10-27T01:30:00+02:00[Mars/Olympus]",
            "field 'started_at' names an unknown time zone 'Mars/Olympus'",
        ),
    ],
)
def test_a_zone_that_does_not_fit_is_refused(started_at: str, detail: str) -> None:
    data = record(zoned, None, run_id="r-1", started_at=BEFORE_AUTUMN_CHANGE).to_dict()
    data["started_at"] = started_at
    with pytest.raises(HistoryError) as caught:
        RecordedHistory.from_dict(data, source="h.json")
    assert caught.value.detail == detail


def test_a_version_1_history_cannot_name_a_zone() -> None:
    data = record(zoned, None, run_id="r-1", started_at=START).to_dict()
    assert data["version"] == 1
    data["started_at"] = "2024-03-01T13:00:00+01:00[Europe/Berlin]"
    with pytest.raises(HistoryError) as caught:
        RecordedHistory.from_dict(data, source="h.json")
    assert caught.value.detail == (
        "field 'started_at' holds a time zone name, which needs history version 2: "
        "'2024-03-01T13:00:00+01:00[Europe/Berlin]'"
    )
