"""Sets known to hold at most one element where an element is taken from them: `s.pop()` after
`if len(s) != 1: raise ...`, or inside `if len(s) == 1:`. Whatever the hash order, such a set
gives its one element (or raises on none), so taking one decides nothing."""

from __future__ import annotations

import libcst as cst

from replaylint.graph.bodies import Body
from replaylint.resolve.statements import always_leaves

# How `len(s) <op> n` bounds the set when the test holds, and when it fails.
_Bounds = dict[type, set[int]]
_AT_MOST_ONE_WHEN_TRUE: _Bounds = {
    cst.Equal: {0, 1},
    cst.LessThanEqual: {0, 1},
    cst.LessThan: {1, 2},
}
_AT_MOST_ONE_WHEN_FALSE: _Bounds = {
    cst.NotEqual: {0, 1},
    cst.GreaterThan: {0, 1},
    cst.GreaterThanEqual: {1, 2},
}


def at_most_one(body: Body, statement: cst.CSTNode | None, name: str) -> bool:
    """Does the set bound to `name` hold at most one element where `statement` runs: inside an
    `if` whose test says so, or after an `if` saying otherwise whose block always leaves (or an
    `assert` saying so), in the same block or one around it?"""
    node = statement
    while node is not None:
        parent = body.parents.get(id(node))
        if isinstance(parent, cst.IndentedBlock):
            if any(_leaves_unless_one(before, name) for before in _before(parent, node)):
                return True
            holder = body.parents.get(id(parent))
            if isinstance(holder, cst.If) and holder.body is parent:
                if _bounds(holder.test, name, _AT_MOST_ONE_WHEN_TRUE):
                    return True
        node = parent
    return False


def _before(block: cst.IndentedBlock, node: cst.CSTNode) -> list[cst.BaseStatement]:
    found: list[cst.BaseStatement] = []
    for statement in block.body:
        if statement is node:
            return found
        found.append(statement)
    return []


def _leaves_unless_one(statement: cst.BaseStatement, name: str) -> bool:
    if isinstance(statement, cst.If):
        return (
            statement.orelse is None
            and always_leaves(statement.body)
            and _bounds(statement.test, name, _AT_MOST_ONE_WHEN_FALSE)
        )
    if isinstance(statement, cst.SimpleStatementLine):
        return any(
            isinstance(small, cst.Assert) and _bounds(small.test, name, _AT_MOST_ONE_WHEN_TRUE)
            for small in statement.body
        )
    return False


def _bounds(test: cst.BaseExpression, name: str, table: _Bounds) -> bool:
    """Is `test` `len(name) <op> n`, with `op` and `n` from `table`?"""
    if isinstance(test, cst.BooleanOperation):
        # `len(s) == 1 and ...` holding, or `len(s) > 1 or ...` failing, bounds it too.
        joined = cst.And if table is _AT_MOST_ONE_WHEN_TRUE else cst.Or
        if isinstance(test.operator, joined):
            return _bounds(test.left, name, table) or _bounds(test.right, name, table)
        return False
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return False
    target = test.comparisons[0]
    allowed = table.get(type(target.operator))
    if allowed is None or not isinstance(target.comparator, cst.Integer):
        return False
    left = test.left
    return (
        isinstance(left, cst.Call)
        and isinstance(left.func, cst.Name)
        and left.func.value == "len"
        and len(left.args) == 1
        and isinstance(left.args[0].value, cst.Name)
        and left.args[0].value.value == name
        and int(target.comparator.value) in allowed
    )
