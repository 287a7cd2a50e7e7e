"""Code changed after a run was recorded: each kind of edit and the divergence it produces."""

from __future__ import annotations

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


@activity(name="validate_address")
def validate_address(address: str) -> dict:
    return {"valid": True, "normalised": address.upper()}


@activity(name="quote_shipping")
def quote_shipping(address: str, weight_g: int) -> int:
    return 499 if weight_g < 1000 else 899


@activity(name="charge")
def charge(amount_cents: int) -> str:
    return f"ch-{amount_cents}"


@activity(name="notify")
def notify(message: str) -> bool:
    return True


def v1(ctx: RunContext, order: dict) -> dict:
    address = validate_address(order["address"])
    shipping = quote_shipping(address["normalised"], order["weight_g"])
    charge_id = charge(order["amount_cents"] + shipping)
    if ctx.patched("notify-on-charge"):
        notify(f"charged {charge_id}")
    return {"charge_id": charge_id, "shipping": shipping}


ORDER = {"address": "1 main st", "weight_g": 800, "amount_cents": 2000}


@pytest.fixture(scope="module")
def history() -> RecordedHistory:
    return record(v1, ORDER, run_id="run-1", started_at=START)


def diverges(workflow, history: RecordedHistory) -> tuple[str, int | None, str | None, str | None]:
    with pytest.raises(NonDeterminismError) as caught:
        assert_replays(workflow, history)
    error = caught.value
    recorded = getattr(error.recorded, "name", None)
    requested = getattr(error.requested, "name", None)
    return error.reason, error.index, recorded, requested


def test_the_recorded_shape(history: RecordedHistory) -> None:
    assert [c.name for c in history.commands] == [
        "validate_address",
        "quote_shipping",
        "charge",
        "notify-on-charge",
        "notify",
    ]
    assert_replays(v1, history)


def test_reordering_two_activities(history: RecordedHistory) -> None:
    def reordered(ctx: RunContext, order: dict) -> dict:
        shipping = quote_shipping(order["address"].upper(), order["weight_g"])
        validate_address(order["address"])
        charge_id = charge(order["amount_cents"] + shipping)
        if ctx.patched("notify-on-charge"):
            notify(f"charged {charge_id}")
        return {"charge_id": charge_id, "shipping": shipping}

    assert diverges(reordered, history) == (
        "name-mismatch",
        0,
        "validate_address",
        "quote_shipping",
    )


def test_changing_an_argument(history: RecordedHistory) -> None:
    def heavier(ctx: RunContext, order: dict) -> dict:
        address = validate_address(order["address"])
        shipping = quote_shipping(
            address["normalised"], order["weight_g"] + 200
        )  # packaging now counted
        charge_id = charge(order["amount_cents"] + shipping)
        if ctx.patched("notify-on-charge"):
            notify(f"charged {charge_id}")
        return {"charge_id": charge_id, "shipping": shipping}

    assert diverges(heavier, history) == ("key-mismatch", 1, "quote_shipping", "quote_shipping")


def test_adding_a_call(history: RecordedHistory) -> None:
    def with_fraud_check(ctx: RunContext, order: dict) -> dict:
        address = validate_address(order["address"])
        shipping = quote_shipping(address["normalised"], order["weight_g"])
        notify("about to charge")
        charge_id = charge(order["amount_cents"] + shipping)
        if ctx.patched("notify-on-charge"):
            notify(f"charged {charge_id}")
        return {"charge_id": charge_id, "shipping": shipping}

    assert diverges(with_fraud_check, history) == ("name-mismatch", 2, "charge", "notify")


def test_adding_a_call_at_the_end(history: RecordedHistory) -> None:
    def with_receipt(ctx: RunContext, order: dict) -> dict:
        result = v1(ctx, order)
        notify("receipt")
        return result

    assert diverges(with_receipt, history) == ("extra-command", 5, None, "notify")


def test_removing_a_call(history: RecordedHistory) -> None:
    def without_validation(ctx: RunContext, order: dict) -> dict:
        shipping = quote_shipping(order["address"].upper(), order["weight_g"])
        charge_id = charge(order["amount_cents"] + shipping)
        if ctx.patched("notify-on-charge"):
            notify(f"charged {charge_id}")
        return {"charge_id": charge_id, "shipping": shipping}

    assert diverges(without_validation, history) == (
        "name-mismatch",
        0,
        "validate_address",
        "quote_shipping",
    )


def test_removing_the_last_call(history: RecordedHistory) -> None:
    def quiet(ctx: RunContext, order: dict) -> dict:
        address = validate_address(order["address"])
        shipping = quote_shipping(address["normalised"], order["weight_g"])
        charge_id = charge(order["amount_cents"] + shipping)
        ctx.patched("notify-on-charge")
        return {"charge_id": charge_id, "shipping": shipping}

    assert diverges(quiet, history) == ("missing-command", 4, "notify", None)


def test_changing_the_branch_under_a_patch(history: RecordedHistory) -> None:
    def other_message(ctx: RunContext, order: dict) -> dict:
        address = validate_address(order["address"])
        shipping = quote_shipping(address["normalised"], order["weight_g"])
        charge_id = charge(order["amount_cents"] + shipping)
        if ctx.patched("notify-on-charge"):
            notify(f"payment {charge_id} received")
        return {"charge_id": charge_id, "shipping": shipping}

    assert diverges(other_message, history) == ("key-mismatch", 4, "notify", "notify")


def test_renaming_a_patch(history: RecordedHistory) -> None:
    def renamed(ctx: RunContext, order: dict) -> dict:
        address = validate_address(order["address"])
        shipping = quote_shipping(address["normalised"], order["weight_g"])
        charge_id = charge(order["amount_cents"] + shipping)
        if ctx.patched("notify-after-charge"):
            notify(f"charged {charge_id}")
        return {"charge_id": charge_id, "shipping": shipping}

    # The renamed patch is unknown to the history: the old path is taken, and the
    # recorded patch command is then left over.
    assert diverges(renamed, history) == ("missing-command", 3, "notify-on-charge", None)


def test_a_new_patch_guarding_a_new_call_keeps_old_histories_valid(
    history: RecordedHistory,
) -> None:
    def v2(ctx: RunContext, order: dict) -> dict:
        address = validate_address(order["address"])
        if ctx.patched("insure-parcel"):
            charge(150)
        shipping = quote_shipping(address["normalised"], order["weight_g"])
        charge_id = charge(order["amount_cents"] + shipping)
        if ctx.patched("notify-on-charge"):
            notify(f"charged {charge_id}")
        return {"charge_id": charge_id, "shipping": shipping}

    assert_replays(v2, history)
    fresh = record(v2, ORDER, run_id="run-2", started_at=START)
    assert [c.name for c in fresh.commands][:3] == ["validate_address", "insure-parcel", "charge"]
    assert_replays(v2, fresh)


def test_the_same_edit_without_a_patch_breaks_old_histories(history: RecordedHistory) -> None:
    def v2_unguarded(ctx: RunContext, order: dict) -> dict:
        address = validate_address(order["address"])
        charge(150)
        shipping = quote_shipping(address["normalised"], order["weight_g"])
        charge_id = charge(order["amount_cents"] + shipping)
        if ctx.patched("notify-on-charge"):
            notify(f"charged {charge_id}")
        return {"charge_id": charge_id, "shipping": shipping}

    assert diverges(v2_unguarded, history) == ("name-mismatch", 1, "quote_shipping", "charge")


def test_changing_how_the_result_is_computed(history: RecordedHistory) -> None:
    def rounded(ctx: RunContext, order: dict) -> dict:
        result = v1(ctx, order)
        return {**result, "shipping": result["shipping"] // 100 * 100}

    # The difference is in the final result, not at a command: the index is None.
    assert diverges(rounded, history)[:2] == ("result-mismatch", None)
