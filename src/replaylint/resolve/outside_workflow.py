"""Code that is never replayed, though a workflow reaches it: the branch of
`if workflow.in_workflow():` for other callers, the branch of `if not context.is_replaying:`
that runs only the first time, and the `except` of a `try` whose body fails only outside a
workflow (`try: now = workflow.now()` / `except Exception: now = datetime.now()`).
The statements' walk (statements.py) walks such code as never replayed."""

from __future__ import annotations

import libcst as cst

from replaylint.parse.children import children
from replaylint.resolve import folds
from replaylint.resolve.facts import MUTATORS
from replaylint.resolve.model import Func
from replaylint.resolve.values import Ext
from replaylint.resolve.walker import Walker

_IN_WORKFLOW = "temporalio.workflow.in_workflow()"
# A framework context's question whether this execution replays recorded history (Azure's,
# durabletask's, Dapr's and AWS's `is_replaying`). Not Temporal's `workflow.unsafe.is_replaying()`:
# its sandbox refuses a clock or a random draw on the first run too, guard or not.
_REPLAYING = frozenset({"is_replaying"})
_SANDBOXED = "temporalio."
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
    def _guard_test(self, test: cst.BaseExpression) -> tuple[bool | None, bool | None]:
        """The `if` test walked (once), and what it guards: (in a workflow, replaying), each
        True for the bare test, False for its negation, None when it is no such test.
        In a workflow: `workflow.in_workflow()` or a helper returning it; the branch taken when
        it fails runs outside a workflow. Replaying: a framework context's own question
        (`context.is_replaying`); the branch taken when it fails runs the first time the run
        gets there, never on a replay (a side effect made once, as Azure's and Dapr's guides
        advise). `a and b` is no in-workflow test (the branch runs in a workflow whenever `b`
        decides), but one whose conjunct is `not context.is_replaying` is false on every replay:
        its branch runs the first time only, as the bare guard's does."""
        negated = False
        while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            negated = not negated
            test = test.expression
        if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
            # What follows the guard in the test is evaluated only when it holds: the first time.
            first_run = False
            for conjunct in _conjuncts(test):
                saved = self.governed, self.dead
                if first_run:
                    self.governed, self.dead = False, True
                self.eval(conjunct)
                self.governed, self.dead = saved
                first_run = first_run or self._asks_replaying(conjunct) is False
            return None, (negated if first_run else None)
        value = self.eval(test)
        if not isinstance(test, (cst.Name, cst.Attribute, cst.Call)) or not isinstance(value, Ext):
            return None, None
        if value.path == _IN_WORKFLOW:
            return not negated, None
        return None, self._replaying(value, negated)

    def _replaying(self, value: Ext, negated: bool) -> bool | None:
        """For a framework context's `is_replaying` (negated or not): does the test hold when
        the run replays? None for any other value."""
        path = value.path.removesuffix("()")
        asks = path.rsplit(".", 1)[-1] in _REPLAYING and not path.startswith(_SANDBOXED)
        if asks and self.frameworks.is_framework_path(path):
            return not negated
        return None

    def _asks_replaying(self, expr: cst.BaseExpression) -> bool | None:
        """One conjunct of a test, once walked: looked up again without recording anything (a
        name, an attribute, or a call of one with no argument)."""
        negated = False
        while isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Not):
            negated = not negated
            expr = expr.expression
        if isinstance(expr, cst.Call) and not expr.args:
            expr = expr.func
        value = self._peek(expr) if isinstance(expr, (cst.Name, cst.Attribute)) else None
        return self._replaying(value, negated) if isinstance(value, Ext) else None

    def _made_once(self, block: cst.CSTNode) -> bool:
        """Is this guarded block a side effect made once, nothing of which the code after it
        reads? A name it binds that the function reads elsewhere, an attribute, a subscript or
        module state it writes, a container made before it that it changes in place
        (`SEEN.append(x)`), would differ on a replay that skips it: then it is walked as
        replayed code."""
        bound: set[str] = set()
        # What a method changes in place, and what an assignment writes an item or attribute
        # of (`self.x = ...`, `state[k] = ...`: kept for later, unless the block made it).
        changed: list[cst.BaseExpression] = []
        stack: list[cst.CSTNode] = [block]
        while stack:
            node = stack.pop()
            if isinstance(node, (cst.Global, cst.Nonlocal)):
                return False
            if isinstance(node, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign)):
                target = node.target
                if isinstance(target, cst.Name):
                    bound.add(target.value)
                elif isinstance(target, (cst.Attribute, cst.Subscript)):
                    changed.append(target)
                else:
                    return False  # a tuple or starred target: not followed
            elif isinstance(node, (cst.NamedExpr, cst.For, cst.CompFor)):
                if isinstance(node.target, cst.Name):
                    bound.add(node.target.value)
            elif isinstance(node, cst.AsName) and isinstance(node.name, cst.Name):
                bound.add(node.name.value)
            elif isinstance(node, cst.Call):
                if self._writes_globals(node.func):
                    return False  # a helper that keeps something in module state for later
                if isinstance(node.func, cst.Attribute) and node.func.attr.value in MUTATORS:
                    changed.append(node.func.value)
            stack.extend(children(node))
        if any(not _rooted_in(receiver, bound) for receiver in changed):
            return False
        return not bound or not self._read_elsewhere(bound, block)

    def _writes_globals(self, func: cst.BaseExpression) -> bool:
        """Is the called function one of the checked code that declares a `global` or a
        `nonlocal` (its body writes state that outlives the call)?"""
        callee = self._peek(func)
        if not isinstance(callee, Func):
            return False
        stack: list[cst.CSTNode] = [callee.info.node]
        while stack:
            node = stack.pop()
            if isinstance(node, (cst.Global, cst.Nonlocal)):
                return True
            stack.extend(children(node))
        return False

    def _read_elsewhere(self, names: set[str], block: cst.CSTNode) -> bool:
        stack: list[cst.CSTNode] = [self.func.node]
        while stack:
            node = stack.pop()
            if node is block:
                continue
            if isinstance(node, cst.Name) and node.value in names:
                return True
            stack.extend(children(node))
        return False

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


def _rooted_in(expression: cst.BaseExpression, names: set[str]) -> bool:
    """Is `expression` (`seen`, `self.items`, `rows[0]`) a name of `names`, or reached from one?"""
    while isinstance(expression, (cst.Attribute, cst.Subscript)):
        expression = expression.value
    return isinstance(expression, cst.Name) and expression.value in names


def _conjuncts(test: cst.BooleanOperation) -> list[cst.BaseExpression]:
    """The operands of `a and b and c` (parenthesised or not), in order."""
    found: list[cst.BaseExpression] = []
    for side in (test.left, test.right):
        if isinstance(side, cst.BooleanOperation) and isinstance(side.operator, cst.And):
            found += _conjuncts(side)
        else:
            found.append(side)
    return found
