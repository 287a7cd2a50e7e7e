"""order_key(): one deterministic total order over the hashable values a registry holds.

`sorted()` orders only values that compare with each other: a set of ints and strs, or of
None and tuples, raises TypeError, and a set of frozensets or floats with a NaN comes back in
an order `<` does not define. Every key here is a tuple whose first item is a rank, so values
of different kinds never meet a `<` they lack, and within a rank the comparison is total:

====  ======================================  ==========================================
rank  values                                  ordered by
====  ======================================  ==========================================
0     None
1     bool, int, float                        numeric value, every NaN last
2     str, and objects with a str name        the name (a `name` attribute, else
                                              `__name__`: classes, functions, enum members)
3     bytes                                   their bytes
4     tuple                                   element by element, with these keys
5     frozenset                               its elements' keys, sorted
6     anything else                           its type's qualified name, then its repr
====  ======================================  ==========================================

Nothing depends on hash seeds, insertion order or memory addresses, so the order is the same in
every process. An object whose repr is object's own (it shows only an address) has no key:
TypeError, rather than an order that changes from run to run.
"""

from __future__ import annotations

import math
from typing import Any

Key = tuple[Any, ...]


def name_of(value: Any) -> str | None:
    """A value's name, when it has one: the str itself, a str `name`, else a str `__name__`."""
    # A class whose instances have a `name` property yields the property object itself,
    # so a non-str `name` falls through to `__name__` rather than being compared.
    for candidate in (value, getattr(value, "name", None), getattr(value, "__name__", None)):
        if isinstance(candidate, str):
            return candidate
    return None


def order_key(value: Any) -> Key:
    """The key of `value` in the module's total order (the table above)."""
    if value is None:
        return (0,)
    if isinstance(value, (int, float)) and not _named_number(value):
        number = float(value) if isinstance(value, float) else value
        return (1, math.isnan(number), 0 if math.isnan(number) else number)
    if isinstance(value, str):
        return (2, value)
    # Containers before names: a named tuple with a `name` field is still ordered as a tuple.
    if isinstance(value, tuple):
        return (4, tuple(order_key(item) for item in value))
    if isinstance(value, frozenset):
        return (5, tuple(sorted(order_key(item) for item in value)))
    if isinstance(value, bytes):
        return (3, value)
    name = name_of(value)
    if name is not None:
        return (2, name)
    kind = type(value)
    if kind.__repr__ is object.__repr__:
        raise TypeError(
            f"stable() cannot order {value!r}: it has no name and no repr of its own (only its "
            "address, which changes from run to run); give it a str `name` or a `__repr__`"
        )
    return (6, f"{kind.__module__}.{kind.__qualname__}", repr(value))


def _named_number(value: int | float) -> bool:
    # An IntEnum member is an int with a name: it is ordered by that name, as other enums are.
    return type(value) not in (bool, int, float) and name_of(value) is not None


def same(left: Any, right: Any) -> bool:
    """Two values with one key that may come in either order: equal, or both NaN."""
    if left is right or left == right:
        return True
    return _is_nan(left) and _is_nan(right)


def _is_nan(value: Any) -> bool:
    return isinstance(value, float) and math.isnan(value)
