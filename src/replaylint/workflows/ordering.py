"""stable(): iterate a registry in an order derived from its keys or elements, never insertion
or hash order."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import pairwise
from typing import Any

from replaylint.workflows.total_order import name_of, order_key, same


def stable(registry: Mapping[Any, Any] | Iterable[Any]) -> tuple[Any, ...]:
    """Items of a mapping as ``(key, value)`` pairs ordered by key, or the elements of an
    iterable (a set, a list of tools) in order.

    Any hashable values are ordered, of one type or mixed, in the total order of
    total_order.py: None, then numbers, then strings and named objects by name (a `name`
    attribute, else `__name__`: tools, classes, functions), then bytes, tuples, frozensets, and
    other objects by type and repr. Dict and set order depend on how the registry was built (or
    on hash seeds), so a workflow that iterates one directly can issue its commands in a
    different order after an innocent refactor; this order depends on the values alone.

    Two different elements with the same name raise ValueError (which comes first would be
    left to hash order), and so does any other pair the order cannot tell apart; an object
    that shows only its address raises TypeError. Nothing is ordered silently by a fallback.
    """
    if isinstance(registry, (str, bytes)):
        raise TypeError(f"stable() takes a mapping or an iterable, not {type(registry).__name__}")
    if isinstance(registry, Mapping):
        return tuple(_ordered(registry.items(), lambda item: item[0], "key"))
    if not isinstance(registry, Iterable):
        raise TypeError(f"stable() takes a mapping or an iterable, got {type(registry).__name__}")
    return tuple(_ordered(registry, lambda element: element, "element"))


def _ordered(entries: Iterable[Any], value_of: Any, what: str) -> list[Any]:
    keyed = sorted(((order_key(value_of(entry)), entry) for entry in entries), key=_first)
    for (left_key, left), (right_key, right) in pairwise(keyed):
        if left_key != right_key or same(value_of(left), value_of(right)):
            continue
        name = name_of(value_of(left))
        if name is not None:
            raise ValueError(f"stable() found the duplicate name {name!r}")
        raise ValueError(
            f"stable() cannot tell the {what}s {value_of(left)!r} and {value_of(right)!r} "
            "apart: they have the same repr"
        )
    return [entry for _, entry in keyed]


def _first(pair: tuple[Any, Any]) -> Any:
    return pair[0]
