"""Async workflows: run on a fresh loop, concurrent activities keep their ordinals, replay works."""

from __future__ import annotations

import asyncio
from datetime import datetime, timezone

import pytest

from replaylint.workflows import NonDeterminismError, RunContext, activity, assert_replays, record

START = datetime(2024, 3, 1, 12, 0, tzinfo=timezone.utc)
EXECUTED: list[str] = []


@pytest.fixture(autouse=True)
def clear_log() -> None:
    EXECUTED.clear()


@activity(name="fetch")
async def fetch(item: str, delay_ticks: int) -> str:
    # Finish in the reverse of the start order: ordinals must follow the start order.
    for _ in range(delay_ticks):
        await asyncio.sleep(0)
    EXECUTED.append(item)
    return item.upper()


@activity(name="total")
def total(parts: list) -> int:
    return sum(len(p) for p in parts)


async def fan_out(ctx: RunContext, items: list) -> dict:
    parts = await asyncio.gather(*(fetch(item, len(items) - i) for i, item in enumerate(items)))
    return {"parts": parts, "total": total(parts)}


def test_an_async_workflow_is_recorded_with_ordinals_in_start_order() -> None:
    history = record(fan_out, ["a", "bb", "ccc"], run_id="r-1", started_at=START)
    assert EXECUTED == ["ccc", "bb", "a"]  # completion order
    assert [
        (c.seq, c.name, c.request["args"][0] if c.request["args"] else None)
        for c in history.commands
    ] == [
        (0, "fetch", "a"),
        (1, "fetch", "bb"),
        (2, "fetch", "ccc"),
        (3, "total", ["A", "BB", "CCC"]),
    ]
    assert history.result == {"parts": ["A", "BB", "CCC"], "total": 6}


def test_an_async_workflow_replays_without_executing_anything() -> None:
    history = record(fan_out, ["a", "bb"], run_id="r-1", started_at=START)
    EXECUTED.clear()
    assert_replays(fan_out, history)
    assert EXECUTED == []


def test_an_async_divergence_is_reported_like_a_sync_one() -> None:
    history = record(fan_out, ["a", "bb"], run_id="r-1", started_at=START)

    async def sequential(ctx: RunContext, items: list) -> dict:
        parts = [await fetch(item, 0) for item in items]
        return {"parts": parts, "total": total(parts)}

    with pytest.raises(NonDeterminismError) as caught:
        assert_replays(sequential, history)
    assert (caught.value.reason, caught.value.index) == ("key-mismatch", 0)


def test_a_sync_workflow_returning_an_awaitable_is_awaited() -> None:
    def wrapper(ctx: RunContext, items: list):
        return fan_out(ctx, items)

    history = record(wrapper, ["a"], run_id="r-1", started_at=START)
    assert history.result == {"parts": ["A"], "total": 1}


def test_record_and_replay_work_from_inside_a_running_loop() -> None:
    async def inside() -> None:
        history = record(fan_out, ["a", "bb"], run_id="r-1", started_at=START)
        EXECUTED.clear()
        assert_replays(fan_out, history)

    asyncio.run(inside())
    assert EXECUTED == []


def test_an_activity_never_awaited_before_returning_is_refused() -> None:
    async def fire_and_forget(ctx: RunContext, items: list) -> str:
        asyncio.ensure_future(fetch("late", 5))
        await asyncio.sleep(0)
        return "done"

    with pytest.raises(
        Exception, match=r"activity fetch\(\"late\", 5\) was started but had not finished"
    ):
        record(fire_and_forget, [], run_id="r-1", started_at=START)
