"""Code that runs only outside a workflow, though a workflow reaches it: the branch of
`if workflow.in_workflow():` for other callers, and the `except` of a `try` whose body fails only
outside a workflow (`try: now = workflow.now()` / `except Exception: now = datetime.now()`).
The statements' walk (statements.py) walks such code as never replayed."""

from __future__ import annotations

import libcst as cst

from replaylint.resolve import folds
from replaylint.resolve.values import Ext
from replaylint.resolve.walker import Walker

_IN_WORKFLOW = "temporalio.workflow.in_workflow()"
# Framework calls that raise outside a workflow and never inside one, given no argument.
_WORKFLOW_ONLY = frozenset(
    f"temporalio.workflow.{name}" for name in ("now", "time", "time_ns", "uuid4", "random", "info")
)
# What may be done with such a call's result and still fail only where the call does: a
# conversion to text (`str(workflow.uuid4())`); reading a field or calling a method with
# literal arguments (`workflow.info().workflow_id`, `workflow.now().isoformat()`).
_TEXT = frozenset({"str", "repr"})
_LITERALS = (cst.SimpleString, cst.Integer, cst.Float)


class RunsOutsideWorkflow(Walker):
    def _in_workflow_test(self, test: cst.BaseExpression) -> bool | None:
        """True for `workflow.in_workflow()` (or a helper returning it), False for its negation."""
        negated = False
        while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            negated = not negated
            test = test.expression
        value = self.eval(test)
        if isinstance(value, Ext) and value.path == _IN_WORKFLOW:
            return not negated
        return None

    def _fails_outside_workflow_only(self, body: cst.BaseSuite) -> bool:
        """Does this `try` body fail only outside a workflow: nothing but imports of a framework,
        and at least one call that raises only there (`workflow.now()`), its result kept in a
        name, returned or dropped?"""
        smalls: list[cst.CSTNode] = []
        for statement in body.body:
            if isinstance(statement, cst.SimpleStatementLine):
                smalls += statement.body
            elif isinstance(statement, cst.BaseSmallStatement):
                smalls.append(statement)
            else:
                return False
        proof = False
        for small in smalls:
            if isinstance(small, (cst.Import, cst.ImportFrom)):
                if not all(map(self.frameworks.is_framework_path, _imported_modules(small))):
                    return False
            elif self._keeps_a_workflow_only_call(small):
                proof = True
            elif not isinstance(small, cst.Pass):
                return False
        return proof

    def _keeps_a_workflow_only_call(self, small: cst.CSTNode) -> bool:
        if isinstance(small, cst.Assign):
            if not all(isinstance(t.target, (cst.Name, cst.Attribute)) for t in small.targets):
                return False
        elif isinstance(small, cst.AnnAssign):
            if not isinstance(small.target, (cst.Name, cst.Attribute)):
                return False
        elif not isinstance(small, (cst.Expr, cst.Return)):
            return False
        value = small.value
        return value is not None and self._workflow_only(value)

    def _workflow_only(self, expr: cst.BaseExpression) -> bool:
        """Is `expr` a call that raises only outside a workflow, or what _TEXT and _LITERALS
        allow done with its result?"""
        if isinstance(expr, cst.Attribute):
            return self._workflow_only(expr.value)
        if not isinstance(expr, cst.Call):
            return False
        if isinstance(expr.func, cst.Attribute) and not isinstance(self._peek(expr.func), Ext):
            # A method of the result (`.isoformat()`), not a function of a module.
            literal = all(isinstance(arg.value, _LITERALS) and not arg.star for arg in expr.args)
            return literal and self._workflow_only(expr.func.value)
        if self._converts_to_text(expr.func) and len(expr.args) == 1 and not expr.args[0].star:
            return self._workflow_only(expr.args[0].value)
        callee = self._peek(expr.func)
        return isinstance(callee, Ext) and callee.path in _WORKFLOW_ONLY and not expr.args

    def _converts_to_text(self, func: cst.BaseExpression) -> bool:
        """`str` or `repr`, the builtins (not a name the module binds)."""
        return (
            isinstance(func, cst.Name)
            and func.value in _TEXT
            and self.scope.lookup(func.value) is None
        )


def _imported_modules(node: cst.Import | cst.ImportFrom) -> list[str]:
    """The absolute modules an import statement reads (a relative one: none, so nothing)."""
    if isinstance(node, cst.ImportFrom):
        if node.relative or node.module is None:
            return [""]
        return [folds.dotted(node.module) or ""]
    return [folds.dotted(alias.name) or "" for alias in node.names]
