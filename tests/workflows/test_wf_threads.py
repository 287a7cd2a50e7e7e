"""Threads: an activity never runs unrecorded; ids and ordinals are allocated safely across threads."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone

import pytest

from replaylint.workflows import (
    ActivityContextError,
    NonDeterminismError,
    RunContext,
    activity,
    assert_replays,
    record,
)

START = datetime(2024, 3, 1, 12, 0, tzinfo=timezone.utc)
EXECUTED: list[str] = []


@pytest.fixture(autouse=True)
def clear_log() -> None:
    EXECUTED.clear()


@activity(name="lookup")
def lookup(key: str) -> str:
    EXECUTED.append(key)
    return key.upper()


def in_pool(ctx: RunContext, key: str) -> str:
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(lookup, key).result()


def swallowing_pool(ctx: RunContext, key: str) -> str:
    with ThreadPoolExecutor(max_workers=1) as pool, contextlib.suppress(ActivityContextError):
        pool.submit(lookup, key).result()
    return lookup(key)


def direct(ctx: RunContext, key: str) -> str:
    return lookup(key)


def test_an_activity_called_from_an_executor_thread_is_refused_naming_it() -> None:
    with pytest.raises(ActivityContextError) as caught:
        record(in_pool, "k", run_id="r-1", started_at=START)
    message = str(caught.value)
    assert message.startswith("activity 'lookup' was called from thread 'ThreadPoolExecutor-")
    assert "outside the context of the run being recorded" in message
    assert "asyncio.to_thread" in message
    assert EXECUTED == []  # it never ran unrecorded


def test_the_refusal_fails_the_recording_even_when_the_workflow_swallows_it() -> None:
    with pytest.raises(ActivityContextError):
        record(swallowing_pool, "k", run_id="r-1", started_at=START)


def test_on_replay_the_body_does_not_run_and_the_replay_fails() -> None:
    history = record(direct, "k", run_id="r-1", started_at=START)
    EXECUTED.clear()
    with pytest.raises(NonDeterminismError) as caught:
        assert_replays(in_pool, history)
    assert EXECUTED == []
    assert caught.value.reason == "workflow-error"
    assert "ActivityContextError: activity 'lookup' was called from thread" in str(caught.value)
    assert isinstance(caught.value.__cause__, ActivityContextError)
    assert "outside the context of the run being replayed" in str(caught.value.__cause__)


def test_a_thread_that_carries_the_run_is_recorded_and_replayed() -> None:
    async def to_thread(ctx: RunContext, key: str) -> str:
        return await asyncio.to_thread(lookup, key)

    def copied(ctx: RunContext, key: str) -> str:
        run = contextvars.copy_context().run
        with ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(run, lookup, key).result()

    for workflow in (to_thread, copied):
        EXECUTED.clear()
        history = record(workflow, "k", run_id="r-1", started_at=START)
        assert [(c.name, c.result) for c in history.commands] == [("lookup", "K")]
        assert EXECUTED == ["k"]
        EXECUTED.clear()
        assert_replays(workflow, history)
        assert EXECUTED == []


def test_outside_any_run_an_activity_runs_in_any_thread() -> None:
    with ThreadPoolExecutor(max_workers=1) as pool:
        assert pool.submit(lookup, "free").result() == "FREE"
    assert EXECUTED == ["free"]


def test_an_activity_body_may_call_another_activity_in_a_thread_that_carries_it() -> None:
    @activity(name="outer")
    def outer(key: str) -> str:
        run = contextvars.copy_context().run  # inside the body: the nested call just runs
        with ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(run, lookup, key).result() + "!"

    def flow(ctx: RunContext, key: str) -> str:
        return outer(key)

    history = record(flow, "k", run_id="r-1", started_at=START)
    assert [c.name for c in history.commands] == ["outer"]
    assert history.result == "K!"


def test_new_id_hands_out_distinct_ids_to_concurrent_threads() -> None:
    ctx = RunContext(run_id="r-1", started_at=START)
    barrier = threading.Barrier(8)

    def draw() -> list[str]:
        barrier.wait()
        return [ctx.new_id("order") for _ in range(200)]

    with ThreadPoolExecutor(max_workers=8) as pool:
        drawn = [key for keys in pool.map(lambda _: draw(), range(8)) for key in keys]
    assert len(set(drawn)) == len(drawn) == 1600
    assert ctx.ids.count("order") == 1600
    single = RunContext(run_id="r-1", started_at=START)
    assert set(drawn) == {single.new_id("order") for _ in range(1600)}


def test_threads_that_carry_the_run_get_distinct_ordinals() -> None:
    def fan_out(ctx: RunContext, keys: list) -> list:
        barrier = threading.Barrier(len(keys))

        def call(key: str) -> str:
            barrier.wait()
            return lookup(key)

        with ThreadPoolExecutor(max_workers=len(keys)) as pool:
            futures = [pool.submit(contextvars.copy_context().run, call, key) for key in keys]
            return sorted(future.result() for future in futures)

    keys = [f"k{i}" for i in range(8)]
    history = record(fan_out, keys, run_id="r-1", started_at=START)
    assert [c.seq for c in history.commands] == list(range(8))
    assert sorted(c.request["args"][0] for c in history.commands) == keys
    assert history.result == sorted(key.upper() for key in keys)


def test_after_a_recording_failed_no_further_activity_runs() -> None:
    refused: list[str] = []

    def carrying_on(ctx: RunContext, key: str) -> str:
        with contextlib.suppress(ActivityContextError):
            in_pool(ctx, key)
        try:
            return lookup("second")
        except Exception as error:  # swallowed on purpose: the run must still fail
            refused.append(str(error))
            return "carried on"

    with pytest.raises(ActivityContextError):
        record(carrying_on, "k", run_id="r-1", started_at=START)
    assert EXECUTED == []
    assert refused[0].startswith(
        'activity lookup("second") was not run: the recording had already failed '
        "(ActivityContextError: activity 'lookup' was called from thread"
    )
