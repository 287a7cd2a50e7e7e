"""Concurrent async activities: the order results reached the workflow is recorded and replayed."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import inspect
import time
from datetime import datetime, timezone

import pytest

from replaylint.workflows import (
    NonDeterminismError,
    RecordedHistory,
    RunContext,
    activity,
    assert_replays,
    record,
)

START = datetime(2024, 3, 1, 12, 0, tzinfo=timezone.utc)
EXECUTED: list[str] = []
# (item, ticks): an item finishes after `ticks` turns of the loop, so "b" and "d" beat "a".
ITEMS = [["a", 6], ["b", 1], ["c", 3], ["d", 0]]


@pytest.fixture(autouse=True)
def clear_log() -> None:
    EXECUTED.clear()


@activity(name="fetch")
async def fetch(item: str, ticks: int) -> str:
    for _ in range(ticks):
        await asyncio.sleep(0)
    EXECUTED.append(item)
    return item.upper()


@activity(name="note")
async def note(text: str) -> str:
    return f"noted {text}"


async def as_they_come(ctx: RunContext, items: list) -> list:
    seen = []
    for next_done in asyncio.as_completed([fetch(item, ticks) for item, ticks in items]):
        value = await next_done
        seen.append([value, ctx.new_id("seen"), await note(value)])
    return seen


async def first_one(ctx: RunContext, items: list) -> dict:
    tasks = [asyncio.ensure_future(fetch(item, ticks)) for item, ticks in items]
    done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    return {"winner": done.pop().result(), "id": ctx.new_id("winner")}


async def ids_after(ctx: RunContext, items: list) -> list:
    async def one(item: str, ticks: int) -> list:
        value = await fetch(item, ticks)
        return [value, ctx.new_id("item"), ctx.patched(f"after-{item}")]

    return await asyncio.gather(*(one(item, ticks) for item, ticks in items))


@pytest.mark.parametrize("workflow", [as_they_come, first_one, ids_after])
def test_unchanged_code_replays_the_history_it_just_recorded(workflow) -> None:
    # Several recordings: asyncio.as_completed starts its tasks in set (memory) order.
    for attempt in range(8):
        history = record(workflow, ITEMS, run_id=f"run-{attempt}", started_at=START)
        EXECUTED.clear()
        assert_replays(workflow, history)
        assert EXECUTED == []


def test_results_are_handled_in_completion_order_and_that_order_is_recorded() -> None:
    history = record(as_they_come, ITEMS, run_id="r-1", started_at=START)
    assert EXECUTED == ["d", "b", "c", "a"]
    assert [entry[0] for entry in history.result] == ["D", "B", "C", "A"]
    # Ordinals follow the calls (a, b, c, d), not the order the loop started the tasks in.
    assert [c.request["args"][0] for c in history.commands[:4]] == ["a", "b", "c", "d"]
    assert history.deliveries[:4] == (3, 1, 2, 0)
    assert history.version == 2
    saved = RecordedHistory.from_json(history.to_json())
    assert saved == history
    assert_replays(as_they_come, saved)


def test_a_replay_delivers_in_the_recorded_order_not_the_order_requested() -> None:
    # Same commands and results; only the recorded delivery order differs between the two.
    history = record(ids_after, [["a", 0], ["b", 0]], run_id="r-1", started_at=START)
    swapped = dataclasses.replace(history, deliveries=(1, 0))
    observed: list[str] = []

    async def watching(ctx: RunContext, items: list) -> list:
        async def one(item: str, ticks: int) -> list:
            value = await fetch(item, ticks)
            observed.append(value)
            return [value, ctx.new_id("item"), ctx.patched(f"after-{item}")]

        return await asyncio.gather(*(one(item, ticks) for item, ticks in items))

    assert_replays(watching, history)
    assert observed == ["A", "B"]
    observed.clear()
    with pytest.raises(NonDeterminismError) as caught:
        assert_replays(watching, swapped)
    # B arrived first, so it asked its patch first, unlike the recorded run; nothing after
    # that miss is served, so A never arrives.
    assert observed == ["B"]
    assert (caught.value.reason, caught.value.index) == ("name-mismatch", 2)
    assert str(caught.value) == (
        "command 2 (name-mismatch): recorded patch 'after-a', code requested patch 'after-b'"
    )


def test_ids_drawn_after_concurrent_activities_follow_the_delivery_order() -> None:
    history = record(ids_after, ITEMS, run_id="r-1", started_at=START)
    by_item = {value: key for value, key, _ in history.result}
    ctx = RunContext(run_id="r-1", started_at=START)
    in_delivery_order = [ctx.new_id("item") for _ in ITEMS]
    assert [by_item[v] for v in ("D", "B", "C", "A")] == in_delivery_order


def test_results_never_delivered_are_recorded_but_left_out_of_the_order() -> None:
    history = record(first_one, ITEMS, run_id="r-1", started_at=START)
    assert history.result["winner"] == "D"
    # Every body finished (they only yield), but only the winner reached the workflow.
    assert [c.result for c in history.commands] == ["A", "B", "C", "D"]
    assert history.deliveries == (3,)
    assert_replays(first_one, history)


@activity(name="wait_forever")
async def wait_forever() -> None:
    EXECUTED.append("waiting")
    await asyncio.Event().wait()


async def race(ctx: RunContext, item: str) -> str:
    slow = asyncio.ensure_future(wait_forever())
    fast = asyncio.ensure_future(fetch(item, 0))
    done, _ = await asyncio.wait([slow, fast], return_when=asyncio.FIRST_COMPLETED)
    slow.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await slow
    return done.pop().result()


def test_an_activity_cancelled_while_running_is_recorded_as_cancelled_and_replays() -> None:
    history = record(race, "x", run_id="r-1", started_at=START)
    assert history.result == "X"
    slow = history.commands[0]
    assert (slow.name, slow.result, slow.error.type) == (
        "wait_forever",
        None,
        "asyncio.exceptions.CancelledError",
    )
    assert history.deliveries == (1,)
    EXECUTED.clear()
    assert_replays(race, history)
    assert EXECUTED == []


def test_code_that_waits_where_the_run_went_on_diverges_at_once() -> None:
    history = record(ids_after, [["a", 4], ["b", 0]], run_id="r-1", started_at=START)

    async def one_at_a_time(ctx: RunContext, items: list) -> list:
        out = []
        for item, ticks in items:
            value = await fetch(item, ticks)  # b is not even requested until a arrives
            out.append([value, ctx.new_id("item"), ctx.patched(f"after-{item}")])
        return out

    began = time.monotonic()
    with pytest.raises(NonDeterminismError) as caught:
        assert_replays(one_at_a_time, history)
    assert time.monotonic() - began < 1.0
    assert (caught.value.reason, caught.value.index) == ("missing-command", 1)
    assert str(caught.value) == (
        'command 1 (missing-command): the code is waiting for activity fetch("a", 4), but the '
        'recorded run delivered activity fetch("b", 0) first, which the code has not requested'
    )


def test_histories_without_a_delivery_order_are_delivered_in_issue_order() -> None:
    # What a version 1 file holds: no order, so results arrive as the commands were issued.
    history = record(ids_after, [["a", 0], ["b", 0]], run_id="r-1", started_at=START)
    assert history.deliveries is None and history.version == 1
    assert "deliveries" not in history.to_dict()
    assert_replays(ids_after, history)


def test_async_activities_still_look_like_coroutine_functions() -> None:
    class Shop:
        @activity(name="shop_price")
        async def price(self, sku: str) -> str:
            return sku

    assert inspect.iscoroutinefunction(fetch)
    assert asyncio.iscoroutinefunction(fetch)
    assert list(inspect.signature(fetch).parameters) == ["item", "ticks"]
    assert (fetch.__name__, fetch.__doc__, fetch.activity_name) == ("fetch", None, "fetch")
    # It binds like the function it decorates does.
    assert inspect.iscoroutinefunction(Shop().price)
    assert asyncio.run(Shop().price("S-2")) == "S-2"  # outside a run it simply runs


def test_a_workflow_that_polls_instead_of_awaiting_still_finishes() -> None:
    async def polling(ctx: RunContext, items: list) -> list:
        tasks = [asyncio.ensure_future(fetch(item, ticks)) for item, ticks in items]
        while not all(task.done() for task in tasks):
            await asyncio.sleep(0)
        return [task.result() for task in tasks]

    history = record(polling, ITEMS[:2], run_id="r-1", started_at=START)
    assert history.result == ["A", "B"]
    assert_replays(polling, history)
