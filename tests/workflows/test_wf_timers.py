"""Durable timers: ctx.sleep is a recorded command; adding, removing or changing a wait diverges."""

from __future__ import annotations

import asyncio
import time
from datetime import datetime, timezone

import pytest

from replaylint.workflows import (
    HistoryError,
    NonDeterminismError,
    RecordedHistory,
    RunContext,
    activity,
    assert_replays,
    record,
)
from replaylint.workflows.canonical import request_key

START = datetime(2024, 3, 1, 12, 0, tzinfo=timezone.utc)


@activity(name="remind")
def remind(text: str) -> str:
    return f"sent {text}"


@activity(name="poll")
async def poll(ticks: int) -> str:
    for _ in range(ticks):
        await asyncio.sleep(0)
    return "polled"


def reminder(ctx: RunContext, text: str) -> dict:
    ctx.sleep(3600)
    return {"sent": remind(text), "at": ctx.clock.now().isoformat()}


async def two_waits(ctx: RunContext, _: None) -> list:
    async def after(seconds: int, tag: str) -> list:
        await ctx.sleep(seconds)
        return [tag, ctx.clock.now().isoformat(), ctx.new_id("woke")]

    return await asyncio.gather(after(600, "long"), after(60, "short"))


def test_a_timer_is_a_command_and_moves_the_run_clock_without_waiting() -> None:
    began = time.monotonic()
    history = record(reminder, "pay rent", run_id="r-1", started_at=START)
    assert time.monotonic() - began < 1.0  # the host never waits an hour
    timer = history.commands[0]
    assert (timer.seq, timer.kind, timer.name, timer.request, timer.result, timer.error) == (
        0,
        "timer",
        "sleep",
        {"args": [3600], "kwargs": {}},
        None,
        None,
    )
    assert timer.describe() == "timer sleep(3600)"
    assert history.result == {"sent": "sent pay rent", "at": "2024-03-01T13:00:00+00:00"}
    assert history.version == 2
    assert_replays(reminder, history)


def test_concurrent_timers_fire_earliest_due_first_and_replay_so() -> None:
    history = record(two_waits, None, run_id="r-1", started_at=START)
    (long_tag, long_at, long_id), (short_tag, short_at, short_id) = history.result
    assert (long_at, short_at) == ("2024-03-01T12:10:00+00:00", "2024-03-01T12:01:00+00:00")
    ctx = RunContext(run_id="r-1", started_at=START)
    assert [short_id, long_id] == [ctx.new_id("woke"), ctx.new_id("woke")]
    assert history.deliveries == (1, 0)
    assert_replays(two_waits, history)


def test_a_timer_fires_only_once_no_activity_is_still_running() -> None:
    async def flow(ctx: RunContext, _: None) -> list:
        order: list[str] = []

        async def wait() -> None:
            await ctx.sleep(5)
            order.append("timer")

        async def work() -> None:
            order.append(await poll(3))

        await asyncio.gather(wait(), work())
        return order

    history = record(flow, None, run_id="r-1", started_at=START)
    assert history.result == ["polled", "timer"]
    assert_replays(flow, history)


def test_adding_a_wait_diverges() -> None:
    def before(ctx: RunContext, text: str) -> str:
        return remind(text)

    history = record(before, "x", run_id="r-1", started_at=START)
    with pytest.raises(NonDeterminismError) as caught:
        assert_replays(reminder, history)
    assert (caught.value.reason, caught.value.index) == ("kind-mismatch", 0)
    assert str(caught.value) == (
        'command 0 (kind-mismatch): recorded activity remind("x"), code requested timer sleep(3600)'
    )


def test_removing_a_wait_diverges() -> None:
    history = record(reminder, "x", run_id="r-1", started_at=START)

    def without(ctx: RunContext, text: str) -> dict:
        return {"sent": remind(text), "at": ctx.clock.advanced(3600).now().isoformat()}

    with pytest.raises(NonDeterminismError) as caught:
        assert_replays(without, history)
    assert (caught.value.reason, caught.value.index) == ("kind-mismatch", 0)
    assert caught.value.recorded.kind == "timer"


def test_changing_how_long_to_wait_diverges() -> None:
    history = record(reminder, "x", run_id="r-1", started_at=START)

    def shorter(ctx: RunContext, text: str) -> dict:
        ctx.sleep(1800)
        return {"sent": remind(text), "at": ctx.clock.now().isoformat()}

    with pytest.raises(NonDeterminismError) as caught:
        assert_replays(shorter, history)
    assert str(caught.value) == (
        "command 0 (key-mismatch): recorded timer sleep(3600), code requested timer sleep(1800)"
    )


def test_the_same_duration_spelled_as_a_float_is_the_same_timer() -> None:
    history = record(reminder, "x", run_id="r-1", started_at=START)

    def as_float(ctx: RunContext, text: str) -> dict:
        ctx.sleep(3600.0)
        return {"sent": remind(text), "at": ctx.clock.now().isoformat()}

    assert_replays(as_float, history)


def test_outside_a_run_sleep_only_moves_the_context_clock() -> None:
    ctx = RunContext(run_id="r-1", started_at=START)
    ctx.sleep(90)
    assert ctx.clock.now() == datetime(2024, 3, 1, 12, 1, 30, tzinfo=timezone.utc)

    async def awaited() -> None:
        await ctx.sleep(30)

    asyncio.run(awaited())
    assert ctx.clock.now() == datetime(2024, 3, 1, 12, 2, tzinfo=timezone.utc)
    assert ctx.started_at == START


@pytest.mark.parametrize(
    ("seconds", "error"),
    [(-1, ValueError), (float("nan"), ValueError), (True, TypeError), ("60", TypeError)],
)
def test_a_duration_is_a_finite_non_negative_number(seconds: object, error: type) -> None:
    with pytest.raises(error, match=r"sleep\(\)"):
        RunContext(run_id="r-1", started_at=START).sleep(seconds)  # type: ignore[arg-type]


def test_a_timer_command_is_validated_when_read() -> None:
    data = record(reminder, "x", run_id="r-1", started_at=START).to_dict()
    data["commands"][0]["request"] = {"args": [-5], "kwargs": {}}
    data["commands"][0]["key"] = request_key(data["commands"][0]["request"])
    with pytest.raises(HistoryError) as caught:
        RecordedHistory.from_dict(data, source="h.json")
    assert str(caught.value) == (
        "h.json: commands[0]: a timer command must request one non-negative number of seconds, "
        "with a null result and no error"
    )


@activity(name="hang")
async def hang() -> str:
    await asyncio.Event().wait()  # never answers
    return "never"


@activity(name="answer_soon")
async def answer_soon() -> str:
    await asyncio.sleep(0.01)  # real I/O time: the loop is idle meanwhile
    return "answered"


async def with_timeout(ctx: RunContext, call: str) -> str:
    work = asyncio.ensure_future(hang() if call == "hang" else answer_soon())
    timeout = asyncio.ensure_future(ctx.sleep(0.2 if call == "hang" else 3600))
    done, _ = await asyncio.wait([work, timeout], return_when=asyncio.FIRST_COMPLETED)
    for task in (work, timeout):
        task.cancel()
    await asyncio.gather(work, timeout, return_exceptions=True)
    return "answered" if work in done else "timed out"


def test_a_timer_raced_against_a_running_activity_fires_after_its_duration() -> None:
    began = time.monotonic()
    history = record(with_timeout, "hang", run_id="r-1", started_at=START)
    assert 0.2 <= time.monotonic() - began < 2.0  # live, the race takes the timer's real time
    assert history.result == "timed out"
    assert history.commands[0].error.type == "asyncio.exceptions.CancelledError"
    began = time.monotonic()
    assert_replays(with_timeout, history)
    assert time.monotonic() - began < 0.2  # a replay never waits


def test_an_activity_that_answers_first_wins_the_race_against_a_long_timer() -> None:
    began = time.monotonic()
    history = record(with_timeout, "soon", run_id="r-1", started_at=START)
    assert time.monotonic() - began < 2.0  # nobody waited the hour
    assert history.result == "answered"
    assert history.deliveries == (0,)  # the timer never fired
    assert_replays(with_timeout, history)
