"""The miss latch: after the first call that does not resolve from the record, nothing else does."""

from __future__ import annotations

import asyncio
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


@activity(name="charge")
def charge(amount: int) -> str:
    return f"ch-{amount}"


@activity(name="receipt")
def receipt(charge_id: str) -> str:
    return f"rc-{charge_id}"


def original(ctx: RunContext, amount: int) -> dict:
    charge_id = charge(amount)
    return {"charge": charge_id, "receipt": receipt(charge_id)}


@pytest.fixture(scope="module")
def history() -> RecordedHistory:
    return record(original, 100, run_id="run-1", started_at=START)


def test_a_retry_of_the_recorded_call_after_a_caught_miss_is_not_served(
    history: RecordedHistory,
) -> None:
    seen: list[NonDeterminismError] = []

    def retrying(ctx: RunContext, amount: int) -> dict:
        try:
            charge(amount + 1)  # the miss
        except NonDeterminismError:
            pass
        try:
            charge(amount)  # exactly what was recorded at command 0
        except NonDeterminismError as error:
            seen.append(error)
            raise
        return {}

    with pytest.raises(NonDeterminismError) as caught:
        assert_replays(retrying, history)
    # The replay reports the first miss, not the retry.
    assert (caught.value.reason, caught.value.index) == ("key-mismatch", 0)
    [retry] = seen
    assert (retry.reason, retry.index) == ("diverged", 0)
    assert retry.recorded == history.commands[0]
    assert retry.requested.request == {"args": [100], "kwargs": {}}
    assert retry.__cause__ is caught.value
    assert str(retry) == (
        "command 0 (diverged): activity charge(100) is not served from the history, because the "
        "replay already missed at command 0: command 0 (key-mismatch): recorded activity "
        "charge(100), code requested activity charge(101)"
    )


def test_every_later_kind_of_call_is_refused_too(history: RecordedHistory) -> None:
    reasons: list[tuple[str, str]] = []

    def carrying_on(ctx: RunContext, amount: int) -> dict:
        try:
            receipt("nope")
        except NonDeterminismError:
            pass
        for name, attempt in [
            ("activity", lambda: charge(amount)),
            ("patch", lambda: ctx.patched("later")),
            ("deprecated patch", lambda: ctx.deprecate_patch("old")),
            ("timer", lambda: ctx.sleep(5)),
        ]:
            try:
                attempt()
            except NonDeterminismError as error:
                reasons.append((name, error.reason))
        return {}

    with pytest.raises(NonDeterminismError) as caught:
        assert_replays(carrying_on, history)
    assert (caught.value.reason, caught.value.index) == ("name-mismatch", 0)
    assert reasons == [
        ("activity", "diverged"),
        ("patch", "diverged"),
        ("deprecated patch", "diverged"),
        ("timer", "diverged"),
    ]


def test_an_unrecordable_argument_is_a_miss_that_latches(history: RecordedHistory) -> None:
    retried: list[str] = []

    def sloppy(ctx: RunContext, amount: int) -> dict:
        try:
            charge({amount})  # type: ignore[arg-type]
        except TypeError:
            pass
        try:
            charge(amount)
        except NonDeterminismError as error:
            retried.append(error.reason)
        return history.result

    with pytest.raises(NonDeterminismError) as caught:
        assert_replays(sloppy, history)
    assert caught.value.reason == "workflow-error"
    assert retried == ["diverged"]


def test_async_calls_after_a_miss_are_refused_at_the_call() -> None:
    @activity(name="aquote")
    async def aquote(sku: str) -> int:
        return len(sku)

    async def quotes(ctx: RunContext, skus: list) -> list:
        return list(await asyncio.gather(*(aquote(sku) for sku in skus)))

    recorded = record(quotes, ["a", "bb"], run_id="run-1", started_at=START)
    outcomes: list[str] = []

    async def changed(ctx: RunContext, skus: list) -> list:
        try:
            await aquote("zzz")
        except NonDeterminismError:
            pass
        for sku in skus:
            try:
                aquote(sku)  # an async activity claims its command when called
            except NonDeterminismError as error:
                outcomes.append(error.reason)
        return [1, 2]

    with pytest.raises(NonDeterminismError) as caught:
        assert_replays(changed, recorded)
    assert caught.value.reason == "key-mismatch"
    assert outcomes == ["diverged", "diverged"]
