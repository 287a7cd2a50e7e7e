"""stable(): iterate a registry in an order derived from its keys or names, never insertion order."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import pairwise
from typing import Any


def stable(registry: Mapping[Any, Any] | Iterable[Any]) -> tuple[Any, ...]:
    """Items of a mapping as sorted ``(key, value)`` pairs, or objects of an iterable sorted by name.

    An object's name is its ``name`` attribute, else its ``__name__``, else the object
    itself when it is a str. Dict and set order depend on how the registry was built (or on
    hash seeds), so a workflow that iterates one directly can issue its commands in a
    different order after an innocent refactor. Keys of mixed types, keys without a total
    order, and objects without a name raise TypeError; duplicate names raise ValueError.
    Nothing is ever ordered silently by a fallback.
    """
    if isinstance(registry, (str, bytes)):
        raise TypeError(
            f"stable() takes a mapping or an iterable of named objects, not {type(registry).__name__}"
        )
    if isinstance(registry, Mapping):
        pairs = [(key, key, value) for key, value in registry.items()]
        ordered = _sort(pairs, "key")
        return tuple((key, value) for _, key, value in ordered)
    if not isinstance(registry, Iterable):
        raise TypeError(f"stable() takes a mapping or an iterable, got {type(registry).__name__}")
    named = [(_name_of(obj), obj, None) for obj in registry]
    ordered = _sort(named, "name")
    return tuple(obj for _, obj, _ in ordered)


def _name_of(obj: Any) -> str:
    # A class whose instances have a `name` property yields the property object itself,
    # so a non-str `name` falls through to `__name__` rather than being compared.
    for candidate in (getattr(obj, "name", None), getattr(obj, "__name__", None), obj):
        if isinstance(candidate, str):
            return candidate
    raise TypeError(
        f"stable() cannot name {obj!r}: give it a str `name` or `__name__`, or pass a mapping"
    )


def _sort(entries: list[tuple[Any, Any, Any]], what: str) -> list[tuple[Any, Any, Any]]:
    types = sorted({type(sort_key).__qualname__ for sort_key, _, _ in entries})
    if len(types) > 1:
        raise TypeError(f"stable() cannot order {what}s of mixed types ({', '.join(types)})")
    try:
        ordered = sorted(entries, key=lambda entry: entry[0])
    except TypeError as exc:
        raise TypeError(f"stable() cannot order {what}s of type {types[0]}: {exc}") from None
    # sorted() does not check that `<` is a total order: sets or NaN come back in an
    # arbitrary order without complaint, so every neighbour pair is verified.
    for (left, _, _), (right, _, _) in pairwise(ordered):
        if left < right:
            continue
        if left == right:
            raise ValueError(f"stable() found the duplicate {what} {left!r}")
        raise TypeError(
            f"stable() cannot order {what}s {left!r} and {right!r}: they have no total order"
        )
    return ordered
