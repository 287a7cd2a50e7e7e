"""Code that is never replayed, though a workflow reaches it: the branch of
`if workflow.in_workflow():` for other callers, the branch of `if not context.is_replaying:`
that runs only the first time, and the `except` of a `try` whose body fails only outside a
workflow (`try: now = workflow.now()` / `except Exception: now = datetime.now()`).
The statements' walk (statements.py) walks such code as never replayed."""

from __future__ import annotations

import libcst as cst

from replaylint.resolve import folds
from replaylint.resolve.values import Ext
from replaylint.resolve.walker import Walker

_IN_WORKFLOW = "temporalio.workflow.in_workflow()"
# A framework context's question whether this execution replays recorded history (Azure's,
# durabletask's, Dapr's and AWS's `is_replaying`, Temporal's `workflow.unsafe.is_replaying()`).
_REPLAYING = frozenset({"is_replaying", "is_replaying_history_events"})
# Framework calls that raise outside a workflow and never inside one, given no argument.
_WORKFLOW_ONLY = frozenset(
    f"temporalio.workflow.{name}" for name in ("now", "time", "time_ns", "uuid4", "random", "info")
)
# The imports such a body may make: the module of those calls (any other can fail to import in
# a workflow too, an optional dependency missing).
_WORKFLOW_MODULES = frozenset({"temporalio", "temporalio.workflow"})
# What may be done with such a call's result and still fail only where the call does: turn it
# into text (`str(workflow.uuid4())`), read one attribute of it (`workflow.info().workflow_id`:
# a second could meet a None, `info().parent.workflow_id`), or call one of these methods of it
# with no argument (`workflow.now().isoformat()`), none of which can raise.
_TEXT = frozenset({"str", "repr"})
_SAFE_METHODS = frozenset({"isoformat", "timestamp", "date", "time", "random"})


class RunsOutsideWorkflow(Walker):
    def _in_workflow_test(self, test: cst.BaseExpression) -> bool | None:
        """True for `workflow.in_workflow()` (or a helper returning it), False for its negation."""
        value, negated = self._tested(test)
        if isinstance(value, Ext) and value.path == _IN_WORKFLOW:
            return not negated
        return None

    def _replaying_test(self, test: cst.BaseExpression) -> bool | None:
        """True for a framework's own question whether it is replaying (`context.is_replaying`,
        `workflow.unsafe.is_replaying()`), False for its negation: the branch taken when it
        fails runs the first time the run gets there, never on a replay (a side effect made
        once, as the frameworks advise)."""
        value, negated = self._tested(test)
        if isinstance(value, Ext):
            path = value.path.removesuffix("()")
            asks = path.rsplit(".", 1)[-1] in _REPLAYING
            if asks and self.frameworks.is_framework_path(path):
                return not negated
        return None

    def _tested(self, test: cst.BaseExpression) -> tuple[object, bool]:
        negated = False
        while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            negated = not negated
            test = test.expression
        return self.eval(test), negated

    def _fails_outside_workflow_only(self, body: cst.BaseSuite) -> bool:
        """Does this `try` body fail only outside a workflow: nothing but imports of Temporal's
        workflow module, and at least one call that raises only there (`workflow.now()`), its
        result kept in a name, returned or dropped?"""
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
                if not set(_imported_modules(small)) <= _WORKFLOW_MODULES:
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
        """Is `expr` a call that raises only outside a workflow, or what _TEXT and
        _SAFE_METHODS allow done with its result?"""
        if isinstance(expr, cst.Call) and self._converts_to_text(expr.func):
            if len(expr.args) == 1 and not expr.args[0].star:
                return self._workflow_only(expr.args[0].value)
            return False
        if isinstance(expr, cst.Attribute):
            return self._workflow_only_call(expr.value)
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and not expr.args:
            if expr.func.attr.value in _SAFE_METHODS and self._workflow_only_call(expr.func.value):
                return True
        return self._workflow_only_call(expr)

    def _workflow_only_call(self, expr: cst.BaseExpression) -> bool:
        if not isinstance(expr, cst.Call) or expr.args:
            return False
        callee = self._peek(expr.func)
        return isinstance(callee, Ext) and callee.path in _WORKFLOW_ONLY

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
