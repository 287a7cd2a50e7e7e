"""stable(): one deterministic order for any hashable values (ints, mixed types, tuples, None);
different values it cannot tell apart, and objects showing only an address, are errors."""

from __future__ import annotations

import enum
import os
import subprocess
import sys
from dataclasses import dataclass

import pytest

from replaylint.workflows import activity, stable


@dataclass
class Tool:
    name: str


@dataclass
class Versioned:
    name: str
    version: int


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


def test_a_set_of_ints_comes_back_in_numeric_order() -> None:
    assert stable({10, 3, -1, 2, 0}) == (-1, 0, 2, 3, 10)
    assert stable({2**70, 1, -(2**70)}) == (-(2**70), 1, 2**70)


def test_values_of_mixed_types_are_ordered_by_kind_then_value() -> None:
    values = {"b", 3, None, (1, "x"), 2.5, b"raw", frozenset({2, 1}), "a", True, 1j}
    assert stable(values) == (
        None,
        True,
        2.5,
        3,
        "a",
        "b",
        b"raw",
        (1, "x"),
        frozenset({1, 2}),
        1j,
    )


def test_tuples_are_ordered_element_by_element_whatever_their_elements() -> None:
    pairs = {(2, "a"), (1, "b"), (1, None), ("x",), (1, 2, 3), ()}
    assert stable(pairs) == ((), (1, None), (1, 2, 3), (1, "b"), (2, "a"), ("x",))


def test_none_alone_and_with_others() -> None:
    assert stable({None}) == (None,)
    assert stable([None, 0, ""]) == (None, 0, "")


def test_mixed_keys_of_a_mapping_are_ordered_too() -> None:
    assert stable({"b": 2, 1: "a", None: 0}) == ((None, 0), (1, "a"), ("b", 2))


def test_keys_without_an_order_of_their_own_are_ordered_by_kind_and_repr() -> None:
    assert stable({2j: "b", 1j: "a"}) == ((1j, "a"), (2j, "b"))
    assert stable({frozenset({2}): "b", frozenset({1}): "a"}) == (
        (frozenset({1}), "a"),
        (frozenset({2}), "b"),
    )


def test_nan_comes_after_every_other_number() -> None:
    nan = float("nan")
    [first, second, last] = stable({nan: "a", 1.0: "b", -5: "c"})
    assert (first, second, last[1]) == ((-5, "c"), (1.0, "b"), "a")


def test_an_int_enum_is_ordered_by_member_name_as_other_enums_are() -> None:
    class Level(enum.IntEnum):
        LOW = 2
        HIGH = 1

    assert stable({Level.LOW, Level.HIGH}) == (Level.HIGH, Level.LOW)


def test_the_order_is_the_same_under_every_hash_seed() -> None:
    # A frozenset's own repr follows hash order: it is printed sorted.
    program = (
        "from replaylint.workflows import stable\n"
        "values = {'b', 3, None, (1, 'x'), 2.5, frozenset({'q', 'p'}), 'a', 1j, ('p', 'q')}\n"
        "print([sorted(v) if isinstance(v, frozenset) else v for v in stable(values)])"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", program],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("0", "1", "2", "3", "4")
    }
    assert outputs == {"[None, 2.5, 3, 'a', 'b', (1, 'x'), ('p', 'q'), ['p', 'q'], 1j]\n"}


def test_an_object_that_shows_only_its_address_is_a_type_error() -> None:
    class Bare:
        pass

    with pytest.raises(TypeError, match=r"no name and no repr of its own"):
        stable({Bare(), Bare()})


def test_duplicate_names_are_an_error() -> None:
    with pytest.raises(ValueError) as caught:
        stable([Versioned("lookup", 1), Versioned("answer", 1), Versioned("lookup", 2)])
    assert str(caught.value) == "stable() found the duplicate name 'lookup'"
    # Equal tools are one tool named twice: either order is the same.
    assert stable([Tool("lookup"), Tool("lookup")]) == (Tool("lookup"), Tool("lookup"))


def test_different_values_with_one_repr_are_an_error() -> None:
    class Same:
        def __repr__(self) -> str:
            return "Same()"

    with pytest.raises(ValueError) as caught:
        stable({Same(), Same()})
    assert str(caught.value) == (
        "stable() cannot tell the elements Same() and Same() apart: they have the same repr"
    )


def test_equal_values_are_no_duplicates() -> None:
    assert stable([3, 3, "a", "a"]) == (3, 3, "a", "a")


def test_a_string_is_not_a_registry() -> None:
    with pytest.raises(TypeError, match="not str"):
        stable("abc")


def test_an_empty_registry_is_empty() -> None:
    assert stable({}) == ()
    assert stable([]) == ()
