"""stable(): order from keys or names only; mixed, unorderable or duplicate names are errors."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from replaylint.workflows import activity, stable


@dataclass
class Tool:
    name: str


def test_mapping_items_come_back_sorted_by_key_whatever_the_insertion_order() -> None:
    assert stable({"search": 1, "lookup": 2, "answer": 3}) == (
        ("answer", 3),
        ("lookup", 2),
        ("search", 1),
    )
    assert stable({"lookup": 2, "answer": 3, "search": 1}) == (
        ("answer", 3),
        ("lookup", 2),
        ("search", 1),
    )


def test_integer_keys_sort_numerically() -> None:
    assert stable({10: "b", 2: "a"}) == ((2, "a"), (10, "b"))


def test_objects_sort_by_their_name_attribute() -> None:
    b, a, c = Tool("b"), Tool("a"), Tool("c")
    assert stable([b, a, c]) == (a, b, c)


def test_functions_sort_by_their___name__() -> None:
    def zeta() -> None: ...

    def alpha() -> None: ...

    assert stable({zeta, alpha}) == (alpha, zeta)


def test_activities_sort_by_their_function_name() -> None:
    @activity(name="recorded_as_something_else")
    def beta() -> None: ...

    @activity
    def alpha() -> None: ...

    assert stable([beta, alpha]) == (alpha, beta)


def test_strings_sort_by_themselves_and_a_set_comes_back_in_one_order() -> None:
    assert stable({"payments", "audit", "ledger"}) == ("audit", "ledger", "payments")


def test_a_class_whose_name_is_a_property_falls_back_to___name__() -> None:
    class Lookup:
        @property
        def name(self) -> str:
            return "instance-name"

    class Answer:
        name = "Answer"

    assert stable([Lookup, Answer]) == (Answer, Lookup)


def test_the_result_is_an_immutable_tuple() -> None:
    assert isinstance(stable({"a": 1}), tuple)


def test_mixed_key_types_are_a_type_error() -> None:
    with pytest.raises(TypeError) as caught:
        stable({1: "a", "b": 2})
    assert str(caught.value) == "stable() cannot order keys of mixed types (int, str)"


def test_keys_without_an_order_are_a_type_error() -> None:
    with pytest.raises(TypeError, match=r"cannot order keys of type complex"):
        stable({1j: "a", 2j: "b"})


def test_keys_without_a_total_order_are_a_type_error_not_a_silent_order() -> None:
    with pytest.raises(TypeError, match="no total order"):
        stable({frozenset({1}): "a", frozenset({2}): "b"})
    with pytest.raises(TypeError, match="no total order"):
        stable({float("nan"): "a", 1.0: "b"})


def test_objects_without_a_name_are_a_type_error() -> None:
    with pytest.raises(TypeError, match=r"cannot name 3"):
        stable([3, 4])


def test_duplicate_names_are_an_error() -> None:
    with pytest.raises(ValueError) as caught:
        stable([Tool("lookup"), Tool("answer"), Tool("lookup")])
    assert str(caught.value) == "stable() found the duplicate name 'lookup'"


def test_a_string_is_not_a_registry() -> None:
    with pytest.raises(TypeError, match="not str"):
        stable("abc")


def test_an_empty_registry_is_empty() -> None:
    assert stable({}) == ()
    assert stable([]) == ()
