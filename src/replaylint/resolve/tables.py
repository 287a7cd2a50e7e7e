"""Dispatch tables: a dict of the checked code's functions, one of which a key the guard cannot
fold picks at run time (`HANDLERS[action](args)`, LangGraph's `tools_by_name[call["name"]]`).
What the key picks is one of the table's functions; calling it is a call of each."""

from __future__ import annotations

from collections.abc import Iterable

import libcst as cst

from replaylint.resolve.model import Func
from replaylint.resolve.values import UNKNOWN, Const, Mapping, OneOf, Seq, Table, Value


def entry(table: Value, key: Value) -> Value:
    """`table[key]` (or `table.get(key)`): what a constant key names in a dict literal; one of
    the table's functions when the key is not known here."""
    if isinstance(table, Mapping):
        if isinstance(key, Const):
            return table.items.get(key.value, UNKNOWN)
        return _one_of(table.items.values())
    if isinstance(table, Table):
        return _one_of(table.items)  # keys computed from each value: any key may name any
    return UNKNOWN


def _one_of(values: Iterable[Value]) -> Value:
    functions = tuple(value for value in values if isinstance(value, Func))
    return OneOf(functions) if functions else UNKNOWN


def comprehension_table(node: cst.DictComp, iterable: Value) -> Value:
    """`{t.name: t for t in TOOLS}` over a literal sequence: a table of its elements. Only the
    plain form: one `for`, and each value the element itself."""
    clause = node.for_in
    if (
        clause.inner_for_in is None
        and isinstance(iterable, Seq)
        and isinstance(clause.target, cst.Name)
        and isinstance(node.value, cst.Name)
        and node.value.value == clause.target.value
    ):
        return Table(iterable.items)
    return UNKNOWN


def attribute_of_each(found: Iterable[Value]) -> Value:
    """An attribute of one of several functions (`tool.invoke` of a picked LangChain tool):
    one of what each gives, when each gives a function."""
    return _one_of(found)
