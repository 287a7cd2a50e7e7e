"""Sets known to hold at most one element where an element is taken from them: `s.pop()` after
`if len(s) != 1: raise ...`, or inside `if len(s) == 1:`. Whatever the hash order, such a set
gives its one element (or raises on none), so taking one decides nothing."""

from __future__ import annotations

import libcst as cst

from replaylint.graph.bodies import Body, statements_in
from replaylint.parse.children import children, target_names
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


# Methods that add to a set in place: after one, a set checked to hold one may hold more.
_GROWING = frozenset({"add", "update", "symmetric_difference_update", "__ior__", "__ixor__"})


def at_most_one(body: Body, statement: cst.CSTNode | None, name: str) -> bool:
    """Does the set bound to `name` hold at most one element where `statement` runs: inside an
    `if` whose test says so, or after an `if` saying otherwise whose block always leaves (or an
    `assert` saying so), in the same block or one around it, with nothing after that check
    binding the name again or adding to the set (in a loop, a later turn would see it)?"""
    node = statement
    while node is not None:
        parent = body.parents.get(id(node))
        if isinstance(parent, cst.IndentedBlock):
            for before in _before(parent, node):
                if _leaves_unless_one(before, name):
                    return not _changed_after(body, before, statement, name)
            holder = body.parents.get(id(parent))
            if isinstance(holder, cst.If) and holder.body is parent:
                if _bounds(holder.test, name, _AT_MOST_ONE_WHEN_TRUE):
                    return not _changed_after(body, holder, statement, name)
        node = parent
    return False


def _changed_after(body: Body, check: cst.CSTNode, use: cst.CSTNode | None, name: str) -> bool:
    """Is `name` bound again, or its set added to, after `check` and before `use` runs: in a
    statement between them, or anywhere in a loop after the check that holds `use` (whose next
    turn comes back to it)?"""
    start = body.order.get(id(check), -1)
    end = body.order.get(id(use), start) if use is not None else start
    around = body.loops_around(use) if use is not None else []
    loops = [loop for loop in around if body.order.get(id(loop), -1) > start]
    for statement in statements_in(body.function.node):
        index = body.order.get(id(statement), -1)
        between = start < index <= end
        if (between or any(body.inside(statement, loop) for loop in loops)) and _changes(
            statement, name
        ):
            return True
    return False


def _changes(statement: cst.CSTNode, name: str) -> bool:
    """Does this statement itself (not the blocks it holds) bind `name` or add to its set?"""
    stack: list[cst.CSTNode] = [statement]
    while stack:
        node = stack.pop()
        if node is not statement and isinstance(
            node, (cst.IndentedBlock, cst.FunctionDef, cst.ClassDef, cst.Lambda)
        ):
            continue
        target: cst.CSTNode | None = None
        if isinstance(node, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.NamedExpr)):
            target = node.target
        elif isinstance(node, (cst.For, cst.CompFor)):
            target = node.target
        elif isinstance(node, cst.AsName):
            target = node.name
        elif isinstance(node, cst.Del):
            target = node.target
        elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
            grows = node.func.attr.value in _GROWING
            if grows and isinstance(node.func.value, cst.Name) and node.func.value.value == name:
                return True
        if target is not None and any(
            isinstance(n, cst.Name) and n.value == name for n in target_names(target)
        ):
            return True
        stack.extend(children(node))
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
        and target.comparator.evaluated_value in allowed
    )
