"""A run's outcome and its workflow's identity are part of the history, and a replay checks both."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from replaylint.workflows import (
    ActivityError,
    NonDeterminismError,
    RecordedHistory,
    RunContext,
    activity,
    assert_replays,
    record,
    workflow,
)
from replaylint.workflows.history import RecordedError

START = datetime(2024, 3, 1, 12, 0, tzinfo=timezone.utc)


@activity(name="reserve")
def reserve(sku: str) -> dict:
    if sku.startswith("gone"):
        raise LookupError(f"{sku} is out of stock")
    return {"sku": sku}


def strict(ctx: RunContext, sku: str) -> dict:
    reserved = reserve(sku)
    if sku.endswith("-bad"):
        raise ValueError(f"{sku} cannot ship")
    return reserved


# --- outcome ---


def test_by_default_a_workflow_that_raises_records_nothing() -> None:
    with pytest.raises(ValueError, match="S-bad cannot ship"):
        record(strict, "S-bad", run_id="r-1", started_at=START)


def test_a_failed_run_is_recorded_with_its_failure_and_replays_as_the_same_failure() -> None:
    history = record(strict, "S-bad", run_id="r-1", started_at=START, record_failure=True)
    assert history.failure == RecordedError(type="ValueError", message="S-bad cannot ship")
    assert history.result is None
    assert [c.name for c in history.commands] == ["reserve"]
    assert history.version == 2
    assert RecordedHistory.from_json(history.to_json()) == history
    assert_replays(strict, history)


def test_a_failure_from_an_activity_error_replays_too() -> None:
    history = record(strict, "gone-1", run_id="r-1", started_at=START, record_failure=True)
    assert history.failure.type == "replaylint.workflows.errors.ActivityError"
    assert (
        history.failure.message == "activity 'reserve' failed: LookupError: gone-1 is out of stock"
    )
    assert_replays(strict, history)


def test_a_failed_run_replayed_as_if_it_had_succeeded_diverges() -> None:
    history = record(strict, "S-bad", run_id="r-1", started_at=START, record_failure=True)

    def lenient(ctx: RunContext, sku: str) -> dict:
        return reserve(sku)

    with pytest.raises(NonDeterminismError) as caught:
        assert_replays(lenient, history)
    error = caught.value
    assert (error.reason, error.index) == ("outcome-mismatch", None)
    assert error.recorded == history.failure
    assert str(error) == (
        "outcome (outcome-mismatch): the recorded run failed with ValueError: S-bad cannot ship, "
        'the code returned {"sku":"S-bad"}'
    )


def test_a_failed_run_replayed_with_another_failure_diverges() -> None:
    history = record(strict, "S-bad", run_id="r-1", started_at=START, record_failure=True)

    def other_failure(ctx: RunContext, sku: str) -> dict:
        reserve(sku)
        raise KeyError(sku)

    with pytest.raises(NonDeterminismError) as caught:
        assert_replays(other_failure, history)
    assert caught.value.reason == "outcome-mismatch"
    assert isinstance(caught.value.__cause__, KeyError)
    assert str(caught.value) == (
        "outcome (outcome-mismatch): the recorded run failed with ValueError: S-bad cannot ship, "
        "the code raised KeyError: 'S-bad'"
    )


def test_a_failed_run_that_now_fails_earlier_is_missing_commands() -> None:
    history = record(strict, "S-bad", run_id="r-1", started_at=START, record_failure=True)

    def early(ctx: RunContext, sku: str) -> dict:
        raise ValueError(f"{sku} cannot ship")

    with pytest.raises(NonDeterminismError) as caught:
        assert_replays(early, history)
    assert (caught.value.reason, caught.value.index) == ("missing-command", 0)


def test_a_run_that_completed_and_now_raises_is_still_a_workflow_error() -> None:
    history = record(strict, "S-1", run_id="r-1", started_at=START, record_failure=True)
    assert history.failure is None and history.version == 1

    def broken(ctx: RunContext, sku: str) -> dict:
        reserve(sku)
        raise ActivityError(kind="activity", name="x", type_name="T", message="m")

    with pytest.raises(NonDeterminismError) as caught:
        assert_replays(broken, history)
    assert caught.value.reason == "workflow-error"


def test_a_recording_problem_is_never_recorded_as_a_failure() -> None:
    def unrecordable(ctx: RunContext, sku: str) -> dict:
        return reserve({sku})  # type: ignore[arg-type]

    with pytest.raises(TypeError, match="not JSON-serialisable"):
        record(unrecordable, "S-1", run_id="r-1", started_at=START, record_failure=True)


def test_system_exit_in_a_replayed_workflow_is_a_workflow_error() -> None:
    history = record(strict, "S-1", run_id="r-1", started_at=START)

    def exiting(ctx: RunContext, sku: str) -> dict:
        reserve(sku)
        raise SystemExit(0)

    with pytest.raises(NonDeterminismError) as caught:
        assert_replays(exiting, history)
    assert str(caught.value) == (
        "command 1 (workflow-error): the code raised SystemExit: 0 where the recorded run completed"
    )


# --- identity ---


@workflow(name="payment")
def payment(ctx: RunContext, sku: str) -> dict:
    return reserve(sku)


@workflow(name="refund")
def refund(ctx: RunContext, sku: str) -> dict:
    return reserve(sku)


@workflow
def declared_by_qualname(ctx: RunContext, sku: str) -> dict:
    return reserve(sku)


def test_a_declared_name_is_recorded() -> None:
    history = record(payment, "S-1", run_id="r-1", started_at=START)
    assert history.workflow_name == "payment"
    assert history.to_dict()["workflow_name"] == "payment"
    assert history.version == 2
    assert record(declared_by_qualname, "S-1", run_id="r", started_at=START).workflow_name == (
        "declared_by_qualname"
    )
    assert payment.__name__ == "payment" and callable(payment)  # the function is unchanged


def test_a_history_replayed_against_another_workflow_is_refused_with_both_names() -> None:
    history = record(payment, "S-1", run_id="r-1", started_at=START)
    with pytest.raises(NonDeterminismError) as caught:
        assert_replays(refund, history)
    error = caught.value
    assert (error.reason, error.index, error.recorded, error.requested) == (
        "workflow-mismatch",
        None,
        "payment",
        "refund",
    )
    assert str(error) == (
        f"workflow (workflow-mismatch): the history was recorded by workflow 'payment' "
        f"({__name__}:payment) and is replayed against workflow 'refund' ({__name__}:refund)"
    )
    with pytest.raises(NonDeterminismError, match="which declares no workflow name"):
        assert_replays(strict, history)


def test_histories_without_a_name_replay_against_any_code() -> None:
    history = record(strict, "S-1", run_id="r-1", started_at=START)
    assert history.workflow_name is None and history.version == 1
    assert_replays(payment, history)


def test_the_decorator_refuses_a_bad_name() -> None:
    with pytest.raises(ValueError, match="non-empty str"):
        workflow(name="")
    with pytest.raises(TypeError, match=r"use @workflow\(name=...\)"):
        workflow("payment")  # type: ignore[call-overload]
