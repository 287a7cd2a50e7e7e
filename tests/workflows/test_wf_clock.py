"""WorkflowClock: aware instants only, immutable advancing, no wall clock."""

from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta, timezone

import pytest

from replaylint.workflows import WorkflowClock

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
    assert found == []
