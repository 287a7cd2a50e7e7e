"""Patches: the decision is recorded; old histories take the old path; patched ones the new path."""

from __future__ import annotations

import dataclasses
from datetime import datetime, timezone

import pytest

from replaylint.workflows import (
    NonDeterminismError,
    Patches,
    RunContext,
    activity,
    assert_replays,
    record,
)

START = datetime(2024, 3, 1, 12, 0, tzinfo=timezone.utc)
PATHS: list[str] = []


@pytest.fixture(autouse=True)
def clear_log() -> None:
    PATHS.clear()


@activity(name="ship")
def ship(order_id: str) -> str:
    return f"shipped {order_id}"


@activity(name="insure")
def insure(order_id: str) -> str:
    return f"insured {order_id}"


def old_code(ctx: RunContext, order_id: str) -> str:
    return ship(order_id)


def new_code(ctx: RunContext, order_id: str) -> str:
    if ctx.patched("insure-before-ship"):
        PATHS.append("new")
        insure(order_id)
    else:
        PATHS.append("old")
    return ship(order_id)


def test_a_new_run_takes_the_new_path_and_records_the_decision() -> None:
    history = record(new_code, "o-1", run_id="r-1", started_at=START)
    assert PATHS == ["new"]
    assert [(c.seq, c.kind, c.name, c.result) for c in history.commands] == [
        (0, "patch", "insure-before-ship", True),
        (1, "activity", "insure", "insured o-1"),
        (2, "activity", "ship", "shipped o-1"),
    ]
    assert history.commands[0].request == {"args": [], "kwargs": {}}


def test_a_run_recorded_before_the_patch_replays_on_the_old_path_without_divergence() -> None:
    before = record(old_code, "o-1", run_id="r-1", started_at=START)
    assert [c.name for c in before.commands] == ["ship"]
    assert_replays(new_code, before)
    assert PATHS == ["old"]


def test_a_run_recorded_with_the_patch_replays_on_the_new_path() -> None:
    after = record(new_code, "o-1", run_id="r-1", started_at=START)
    PATHS.clear()
    assert_replays(new_code, after)
    assert PATHS == ["new"]


def test_without_patches_records_what_the_old_code_did() -> None:
    history = record(
        new_code, "o-1", run_id="r-1", started_at=START, without_patches=["insure-before-ship"]
    )
    assert PATHS == ["old"]
    # Apart from naming another function, it is exactly the history the old code records.
    old = record(old_code, "o-1", run_id="r-1", started_at=START)
    assert dataclasses.replace(history, workflow=old.workflow) == old
    PATHS.clear()
    assert_replays(new_code, history)
    assert PATHS == ["old"]


def test_asking_twice_records_one_command() -> None:
    def twice(ctx: RunContext, order_id: str) -> list:
        return [ctx.patched("p"), ctx.patches.applied("p"), ctx.patched("p")]

    history = record(twice, "o-1", run_id="r-1", started_at=START)
    assert history.result == [True, True, True]
    assert [c.name for c in history.commands] == ["p"]
    assert_replays(twice, history)


def test_dropping_a_patch_check_from_code_that_recorded_it_diverges() -> None:
    after = record(new_code, "o-1", run_id="r-1", started_at=START)

    def without_check(ctx: RunContext, order_id: str) -> str:
        insure(order_id)
        return ship(order_id)

    with pytest.raises(NonDeterminismError) as caught:
        assert_replays(without_check, after)
    assert (caught.value.reason, caught.value.index) == ("kind-mismatch", 0)
    assert caught.value.recorded.kind == "patch"


def test_a_patch_check_moved_to_another_position_diverges() -> None:
    after = record(new_code, "o-1", run_id="r-1", started_at=START)

    def moved(ctx: RunContext, order_id: str) -> str:
        insure(order_id)
        if ctx.patched("insure-before-ship"):
            pass
        return ship(order_id)

    with pytest.raises(NonDeterminismError) as caught:
        assert_replays(moved, after)
    assert (caught.value.reason, caught.value.index) == ("kind-mismatch", 0)
    assert caught.value.requested.kind == "activity"


def test_a_patch_asked_where_another_patch_was_recorded_is_a_name_mismatch() -> None:
    def two(ctx: RunContext, order_id: str) -> list:
        return [ctx.patched("a"), ctx.patched("b")]

    def swapped(ctx: RunContext, order_id: str) -> list:
        return [ctx.patched("b"), ctx.patched("a")]

    history = record(two, "o-1", run_id="r-1", started_at=START)
    with pytest.raises(NonDeterminismError) as caught:
        assert_replays(swapped, history)
    assert (caught.value.reason, caught.value.index) == ("name-mismatch", 0)
    assert (
        str(caught.value)
        == "command 0 (name-mismatch): recorded patch 'a', code requested patch 'b'"
    )


def test_standalone_patches_apply_everything_not_withheld() -> None:
    patches = Patches(withheld=["later"])
    assert patches.applied("now") is True
    assert patches.applied("later") is False
    assert repr(patches) == "Patches(later=False, now=True)"


def test_a_patch_name_is_a_non_empty_string() -> None:
    with pytest.raises(ValueError, match="non-empty str"):
        Patches().applied("")


# --- retiring a patch: deprecated(name), as Temporal's deprecate_patch ---


def retired(ctx: RunContext, order_id: str) -> str:
    ctx.patches.deprecated("insure-before-ship")
    PATHS.append("new")
    insure(order_id)
    return ship(order_id)


def finally_removed(ctx: RunContext, order_id: str) -> str:
    PATHS.append("new")
    insure(order_id)
    return ship(order_id)


def test_a_new_run_with_a_deprecated_patch_records_a_deprecated_patch_command() -> None:
    history = record(retired, "o-1", run_id="r-1", started_at=START)
    assert [(c.kind, c.name, c.result) for c in history.commands] == [
        ("deprecated_patch", "insure-before-ship", True),
        ("activity", "insure", "insured o-1"),
        ("activity", "ship", "shipped o-1"),
    ]
    assert history.commands[0].describe() == "deprecated patch 'insure-before-ship'"
    assert history.version == 2


def test_the_deprecated_code_replays_runs_that_took_the_patch() -> None:
    patched_run = record(new_code, "o-1", run_id="r-1", started_at=START)
    assert_replays(retired, patched_run)
    assert_replays(retired, record(retired, "o-1", run_id="r-2", started_at=START))


def test_the_patched_code_replays_runs_recorded_after_the_deprecation() -> None:
    # Rolling back from the deprecation to the patch check is safe.
    PATHS.clear()
    assert_replays(new_code, record(retired, "o-1", run_id="r-1", started_at=START))
    assert PATHS == ["new", "new"]


def test_code_without_the_patch_replays_runs_recorded_with_the_deprecation() -> None:
    assert_replays(finally_removed, record(retired, "o-1", run_id="r-1", started_at=START))


def test_code_without_the_patch_still_diverges_on_runs_that_took_the_patch_check() -> None:
    with pytest.raises(NonDeterminismError) as caught:
        assert_replays(finally_removed, record(new_code, "o-1", run_id="r-1", started_at=START))
    assert (caught.value.reason, caught.value.index) == ("kind-mismatch", 0)


def test_a_run_from_before_the_patch_diverges_once_the_patch_is_deprecated() -> None:
    before = record(old_code, "o-1", run_id="r-1", started_at=START)
    with pytest.raises(NonDeterminismError) as caught:
        assert_replays(retired, before)
    assert str(caught.value) == (
        'command 0 (name-mismatch): recorded activity ship("o-1"), code requested activity insure("o-1")'
    )


def test_a_deprecated_patch_cannot_be_withheld_and_is_applied_afterwards() -> None:
    with pytest.raises(ValueError, match="'p' is deprecated, so it cannot be withheld"):
        Patches(withheld=["p"]).deprecated("p")

    def both(ctx: RunContext, order_id: str) -> bool:
        ctx.deprecate_patch("p")
        return ctx.patched("p")

    history = record(both, "o-1", run_id="r-1", started_at=START)
    assert history.result is True
    assert [c.kind for c in history.commands] == ["deprecated_patch"]
    assert_replays(both, history)
