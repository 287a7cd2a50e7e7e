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
        return one_of(table.items.values())
    if isinstance(table, Table):
        return one_of(table.items)  # keys computed from each value: any key may name any
    return UNKNOWN


def one_of(values: Iterable[Value]) -> Value:
    """One of the functions among `values` (an attribute of each of several too: `tool.invoke`
    of a picked LangChain tool), UNKNOWN when there is none."""
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
