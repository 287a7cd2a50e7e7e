"""DeterministicIds: same run and calls give the same keys; other runs, other keys; immutable."""

from __future__ import annotations

import uuid

import pytest

from replaylint.workflows import DeterministicIds


def draw(ids: DeterministicIds, namespaces: list[str]) -> list[str]:
    keys = []
    for namespace in namespaces:
        key, ids = ids.next(namespace)
        keys.append(key)
    return keys


def test_the_same_run_making_the_same_calls_gets_the_same_keys() -> None:
    calls = ["order", "order", "payment", "order"]
    assert draw(DeterministicIds(run_id="run-1"), calls) == draw(
        DeterministicIds(run_id="run-1"), calls
    )


def test_a_known_key_is_stable_across_versions() -> None:
    # Pinned: changing the derivation would make every recorded id differ on replay.
    key, _ = DeterministicIds(run_id="run-1").next("order")
    assert key == "c4e1e629-a5e9-8ce8-a8fe-738b2e85ccb0"


def test_different_runs_get_different_keys() -> None:
    first, _ = DeterministicIds(run_id="run-1").next("order")
    second, _ = DeterministicIds(run_id="run-2").next("order")
    assert first != second


def test_next_leaves_the_original_unchanged_and_returns_the_successor() -> None:
    ids = DeterministicIds(run_id="run-1")
    key, successor = ids.next("order")
    again, _ = ids.next("order")
    assert again == key
    assert ids.count("order") == 0
    assert successor.count("order") == 1
    following, _ = successor.next("order")
    assert following != key


def test_counters_are_per_namespace() -> None:
    ids = DeterministicIds(run_id="run-1")
    order_first = ids.next("order")[0]
    _, ids_after_payment = ids.next("payment")
    # Drawing a payment id does not shift the order ids.
    assert ids_after_payment.next("order")[0] == order_first
    assert ids.next("payment")[0] != order_first


def test_namespace_and_counter_framing_cannot_collide() -> None:
    a, _ = DeterministicIds(run_id="run:1").next("order")
    b, _ = DeterministicIds(run_id="run").next("1:order")
    assert a != b


def test_keys_are_uuid_shaped() -> None:
    key, _ = DeterministicIds(run_id="run-1").next("order")
    parsed = uuid.UUID(key)
    assert str(parsed) == key
    assert parsed.variant == uuid.RFC_4122
    assert key[14] == "8"  # version 8: derived, not random


def test_ids_are_hashable_values() -> None:
    a = DeterministicIds(run_id="run-1").next("x")[1]
    b = DeterministicIds(run_id="run-1").next("x")[1]
    assert a == b and hash(a) == hash(b)


@pytest.mark.parametrize("run_id", ["", None, 7])
def test_a_run_id_is_a_non_empty_string(run_id: object) -> None:
    with pytest.raises(ValueError, match="non-empty str run_id"):
        DeterministicIds(run_id=run_id)  # type: ignore[arg-type]


@pytest.mark.parametrize("namespace", ["", None])
def test_a_namespace_is_a_non_empty_string(namespace: object) -> None:
    with pytest.raises(ValueError, match="namespace must be a non-empty str"):
        DeterministicIds(run_id="run-1").next(namespace)  # type: ignore[arg-type]


def test_counters_resume_where_a_source_left_off_in_any_spelling() -> None:
    ids = DeterministicIds(run_id="run-1")
    _, ids = ids.next("order")
    _, ids = ids.next("payment")
    resumed = [
        DeterministicIds(run_id="run-1", counters=(("payment", 1), ("order", 1))),
        DeterministicIds(run_id="run-1", counters=[["order", 1], ["payment", 1]]),
        DeterministicIds(run_id="run-1", counters={"payment": 1, "order": 1}),
    ]
    for other in resumed:
        assert other == ids
        assert other.counters == (("order", 1), ("payment", 1))
        assert other.next("order")[0] == ids.next("order")[0]


@pytest.mark.parametrize(
    ("counters", "error", "message"),
    [
        (
            (("order", -1),),
            ValueError,
            "the count of namespace 'order' must not be negative, got -1",
        ),
        ((("order", True),), TypeError, "the count of namespace 'order' must be an int, got bool"),
        ((("order", 1.0),), TypeError, "the count of namespace 'order' must be an int, got float"),
        (
            (("order", 1), ("order", 2)),
            ValueError,
            "DeterministicIds counters name namespace 'order' twice",
        ),
        ((("", 1),), ValueError, "a counter namespace must be a non-empty str, got ''"),
        (((7, 1),), ValueError, "a counter namespace must be a non-empty str, got 7"),
        ((("order",),), TypeError, "must hold (namespace, count) pairs, got ('order',)"),
        ("order", TypeError, "must be (namespace, count) pairs or a mapping, got str"),
        (True, TypeError, "must be (namespace, count) pairs or a mapping, got bool"),
    ],
)
def test_counters_are_validated(counters: object, error: type, message: str) -> None:
    with pytest.raises(error) as caught:
        DeterministicIds(run_id="run-1", counters=counters)  # type: ignore[arg-type]
    assert message in str(caught.value)
    assert isinstance(caught.value, ValueError)  # every invalid entry, of any kind


@pytest.mark.parametrize(
    "make",
    [
        lambda: DeterministicIds(run_id="run-1", counters=((1, 2),)),
        lambda: DeterministicIds(run_id="run-1", counters={None: 2}),
        lambda: DeterministicIds(run_id=7),
        lambda: DeterministicIds(run_id="run-1").next(b"order"),
    ],
    ids=["int-namespace", "none-namespace", "int-run-id", "bytes-namespace-in-next"],
)
def test_a_value_of_the_wrong_type_is_both_a_value_error_and_a_type_error(make) -> None:
    # The docstring's promise: either `except` clause catches it.
    with pytest.raises(TypeError) as caught:
        make()
    assert isinstance(caught.value, ValueError)
