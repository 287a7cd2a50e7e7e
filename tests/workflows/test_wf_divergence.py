"""NonDeterminismError: one test per reason, with exact index, sides and message."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from replaylint.workflows import (
    Command,
    NonDeterminismError,
    RecordedHistory,
    RunContext,
    activity,
    assert_replays,
    model_call_activity,
    record,
)
from replaylint.workflows.history import CommandRequest
from replaylint.workflows.replay_engine import REASONS

START = datetime(2024, 3, 1, 12, 0, tzinfo=timezone.utc)


@activity(name="quote")
def quote(sku: str, qty: int) -> int:
    return 250 * qty


@activity(name="reserve")
def reserve(sku: str, qty: int) -> str:
    return f"res-{sku}"


def complete(prompt: str) -> str:
    return prompt[::-1]


def original(ctx: RunContext, order: dict) -> dict:
    price = quote(order["sku"], order["qty"])
    reservation = reserve(order["sku"], order["qty"])
    return {"price": price, "reservation": reservation}


@pytest.fixture(scope="module")
def history() -> RecordedHistory:
    return record(original, {"sku": "S-1", "qty": 2}, run_id="run-1", started_at=START)


def divergence(workflow, history: RecordedHistory) -> NonDeterminismError:
    with pytest.raises(NonDeterminismError) as caught:
        assert_replays(workflow, history)
    message = str(caught.value)
    assert "\n" not in message
    return caught.value


def test_the_unchanged_code_replays(history: RecordedHistory) -> None:
    assert assert_replays(original, history) is None


def test_key_mismatch_same_kind_and_name_other_request(history: RecordedHistory) -> None:
    def changed(ctx: RunContext, order: dict) -> dict:
        price = quote(order["sku"], order["qty"] + 1)
        return {"price": price, "reservation": reserve(order["sku"], order["qty"])}

    error = divergence(changed, history)
    assert (error.reason, error.index) == ("key-mismatch", 0)
    assert error.recorded == history.commands[0]
    assert isinstance(error.requested, CommandRequest)
    assert (error.requested.kind, error.requested.name, error.requested.request) == (
        "activity",
        "quote",
        {"args": ["S-1", 3], "kwargs": {}},
    )
    assert (
        str(error)
        == 'command 0 (key-mismatch): recorded activity quote("S-1", 2), code requested activity quote("S-1", 3)'
    )


def test_name_mismatch_same_kind_other_name(history: RecordedHistory) -> None:
    def changed(ctx: RunContext, order: dict) -> dict:
        price = quote(order["sku"], order["qty"])
        return {"price": price, "reservation": quote(order["sku"], order["qty"])}

    error = divergence(changed, history)
    assert (error.reason, error.index) == ("name-mismatch", 1)
    assert error.recorded.name == "reserve" and error.requested.name == "quote"
    assert (
        str(error)
        == 'command 1 (name-mismatch): recorded activity reserve("S-1", 2), code requested activity quote("S-1", 2)'
    )


def test_kind_mismatch_other_kind_of_command(history: RecordedHistory) -> None:
    def changed(ctx: RunContext, order: dict) -> dict:
        model_call_activity(complete, "which sku?")
        return {}

    error = divergence(changed, history)
    assert (error.reason, error.index) == ("kind-mismatch", 0)
    assert (error.recorded.kind, error.requested.kind) == ("activity", "model_call")
    assert str(error) == (
        'command 0 (kind-mismatch): recorded activity quote("S-1", 2), code requested model_call complete("which sku?")'
    )


def test_extra_command_the_code_asks_for_more_than_was_recorded(history: RecordedHistory) -> None:
    def changed(ctx: RunContext, order: dict) -> dict:
        result = original(ctx, order)
        reserve("S-2", 1)
        return result

    error = divergence(changed, history)
    assert (error.reason, error.index, error.recorded) == ("extra-command", 2, None)
    assert error.requested.name == "reserve"
    assert (
        str(error)
        == 'command 2 (extra-command): the code requested activity reserve("S-2", 1) but the history ends after 2 commands'
    )


def test_missing_command_the_code_finishes_early(history: RecordedHistory) -> None:
    def changed(ctx: RunContext, order: dict) -> dict:
        return {"price": 500, "reservation": "res-S-1"}

    error = divergence(changed, history)
    assert (error.reason, error.index, error.requested) == ("missing-command", 0, None)
    assert error.recorded == history.commands[0]
    assert (
        str(error)
        == 'command 0 (missing-command): the code finished but the history still has activity quote("S-1", 2) and 1 more'
    )


def test_result_mismatch_every_command_matched_but_the_result_differs(
    history: RecordedHistory,
) -> None:
    def changed(ctx: RunContext, order: dict) -> dict:
        result = original(ctx, order)
        return {**result, "price": result["price"] * 2}

    error = divergence(changed, history)
    # Not a command: the index is None, as NonDeterminismError documents.
    assert (error.reason, error.index) == ("result-mismatch", None)
    assert error.recorded == {"price": 500, "reservation": "res-S-1"}
    assert error.requested == {"price": 1000, "reservation": "res-S-1"}
    assert str(error) == (
        'result (result-mismatch): recorded {"price":500,"reservation":"res-S-1"}, '
        'code returned {"price":1000,"reservation":"res-S-1"}'
    )


def test_result_mismatch_when_the_result_can_no_longer_be_recorded(
    history: RecordedHistory,
) -> None:
    def changed(ctx: RunContext, order: dict) -> object:
        original(ctx, order)
        return {1, 2}

    error = divergence(changed, history)
    assert error.reason == "result-mismatch"
    assert "code returned a value that cannot be recorded" in str(error)


def test_workflow_error_the_code_raises_where_the_run_completed(history: RecordedHistory) -> None:
    def changed(ctx: RunContext, order: dict) -> dict:
        quote(order["sku"], order["qty"])
        raise KeyError("reservation")

    with pytest.raises(NonDeterminismError) as caught:
        assert_replays(changed, history)
    error = caught.value
    assert (error.reason, error.index) == ("workflow-error", 1)
    assert error.requested == "KeyError: 'reservation'"
    assert isinstance(error.__cause__, KeyError)
    assert (
        str(error)
        == "command 1 (workflow-error): the code raised KeyError: 'reservation' where the recorded run completed"
    )


def test_an_unrecordable_argument_on_replay_is_a_workflow_error(history: RecordedHistory) -> None:
    def changed(ctx: RunContext, order: dict) -> dict:
        quote(order["sku"], {"qty": {2}})
        return {}

    error = divergence(changed, history)
    assert (error.reason, error.index) == ("workflow-error", 0)
    assert "activity 'quote': args[1]['qty'] is not JSON-serialisable" in str(error)


def test_every_reason_is_listed() -> None:
    assert REASONS == (
        "kind-mismatch",
        "name-mismatch",
        "key-mismatch",
        "extra-command",
        "missing-command",
        "result-mismatch",
        "workflow-error",
        "diverged",
        "workflow-mismatch",
        "outcome-mismatch",
    )


def test_long_requests_are_shortened_in_the_message() -> None:
    def chatty(ctx: RunContext, text: str) -> str:
        return model_call_activity(complete, text)

    recorded = record(chatty, "x" * 500, run_id="r", started_at=START)

    def changed(ctx: RunContext, text: str) -> str:
        return model_call_activity(complete, text + "!")

    error = divergence(changed, recorded)
    assert error.reason == "key-mismatch"
    assert len(str(error)) < 400
    assert '"xxxxxxxx' in str(error) and "..." in str(error)


def test_the_replay_uses_the_history_identity_for_ids_and_clock() -> None:
    def identity(ctx: RunContext, input: None) -> list:
        return [
            ctx.run_id,
            ctx.started_at.isoformat(),
            ctx.new_id("a"),
            ctx.clock.advanced(60).now().isoformat(),
        ]

    recorded = record(identity, None, run_id="run-42", started_at=START)
    assert recorded.result[:2] == ["run-42", "2024-03-01T12:00:00+00:00"]
    assert recorded.result[3] == "2024-03-01T12:01:00+00:00"
    assert_replays(identity, recorded)


def test_assert_replays_accepts_a_path(history: RecordedHistory, tmp_path) -> None:
    history.save(tmp_path / "h.json")
    assert_replays(original, tmp_path / "h.json")
    assert_replays(original, str(tmp_path / "h.json"))


def test_commands_describe_themselves() -> None:
    command = Command(
        seq=0,
        kind="activity",
        name="quote",
        request={"args": ["S"], "kwargs": {"qty": 1}},
        key="0" * 64,
    )
    assert command.describe() == 'activity quote("S", qty=1)'
