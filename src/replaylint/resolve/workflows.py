"""What counts as workflow code: the module marker, exempt blocks and recorded-zone decorators."""

from __future__ import annotations

import libcst as cst

from replaylint.parse import pyast

MARKER = "__adk_workflow__"


def _is_true_literal(node: cst.BaseExpression | None) -> bool:
    if isinstance(node, cst.Name):
        return node.value == "True"
    if isinstance(node, cst.Integer):
        return pyast.evaluated(node) != 0
    return False


def is_marked(module: cst.Module, markers: frozenset[str] = frozenset({MARKER})) -> bool:
    """True when the module's top level assigns a true literal to a marker name.

    Only plain top-level statements count: an assignment inside a function, a class or an `if`
    does not mark the module, and neither does `= False` or a string mentioning the name.
    """
    for statement in module.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if isinstance(small, cst.Assign):
                names = {t.target.value for t in small.targets if isinstance(t.target, cst.Name)}
                if names & markers and _is_true_literal(small.value):
                    return True
            elif isinstance(small, cst.AnnAssign):
                target = small.target
                if (
                    isinstance(target, cst.Name)
                    and target.value in markers
                    and _is_true_literal(small.value)
                ):
                    return True
    return False


def is_main_guard(test: cst.BaseExpression) -> bool:
    """`if __name__ == "__main__":` (either operand order)."""
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return False
    target = test.comparisons[0]
    if not isinstance(target.operator, cst.Equal):
        return False
    sides = (test.left, target.comparator)
    names = [s for s in sides if isinstance(s, cst.Name) and s.value == "__name__"]
    strings = [
        s for s in sides if isinstance(s, cst.SimpleString) and pyast.evaluated(s) == "__main__"
    ]
    return bool(names) and bool(strings)


def type_checking_name(test: cst.BaseExpression) -> str | None:
    """The name an `if TYPE_CHECKING:` test reads (`TYPE_CHECKING` or `typing.TYPE_CHECKING`)."""
    if isinstance(test, cst.Name) and test.value == "TYPE_CHECKING":
        return test.value
    if isinstance(test, cst.Attribute) and test.attr.value == "TYPE_CHECKING":
        return "TYPE_CHECKING"
    return None
