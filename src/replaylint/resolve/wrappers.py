"""The project's own decorators on a workflow function: `@DBOS.workflow()` over `@with_parent`
registers what `with_parent` returned, so its wrapper runs first on every replay, then calls
the function. The wrapper of each such decorator is reached from the entry by an implicit call:
its lines are replayed code, reported where they are written.

Which decorators wrap what runs: those written below the decorator that makes the function an
entry (nearer the `def`); one above wraps what the framework already holds, and runs only where
it is called directly. Except above a workflow class's run method: Temporal's `workflow.run`
only marks the function it is given, a wrapper made with `functools.wraps` carries the mark,
and the class runs the attribute that holds it (temporalio's _Definition reads the run method
from the class), while a signal, query or update handler keeps the function it marked.
A function registered by a call elsewhere is an entry only once the project is read, and a
decorator whose module is still being walked (an import cycle) has no known wrapper yet: their
wrappers are not followed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import libcst as cst

from replaylint.resolve import folds
from replaylint.resolve.model import Func, FunctionInfo, HelperCall
from replaylint.resolve.values import Ext, Value
from replaylint.resolve.walker import Walker


class Wrappers(Walker):
    # Implemented in definitions.py.
    _walk_nested_now: Callable[[FunctionInfo], None]

    def _wrapped_by(
        self, info: FunctionInfo, decorators: Sequence[cst.Decorator], values: list[Value]
    ) -> None:
        """Implicit calls from a workflow entry to the wrappers its own decorators made
        (`values`: what each decorator, or its callee, evaluated to)."""
        if info.entry is None and info.suspending is None:
            return  # not a workflow, nor one its framework replays once it suspends
        method = info.cls is not None and info.cls.workflow is not None
        for decorator, value in reversed(list(zip(decorators, values, strict=True))):
            if isinstance(value, Ext):
                path = value.path.removesuffix("()")
                if method and path.rsplit(".", 1)[-1] == "run":
                    continue  # the class attribute, wrapped or not, is what the class runs
                if self._registers(path) or (method and self.frameworks.is_framework_path(path)):
                    return  # what the framework holds: the decorators above are outside it
                continue  # another outside decorator: the ones it wraps still run
            expr = decorator.decorator
            wrapper = self._wrapper(value, factory=isinstance(expr, cst.Call))
            if wrapper is None:
                continue
            written = folds.dotted(expr.func if isinstance(expr, cst.Call) else expr)
            self.wrapped_by.setdefault(id(info), []).append(
                HelperCall(
                    wrapper,
                    decorator,
                    written or wrapper.name,
                    governed=not info.exempt,
                    reported=False,  # the wrapper's own lines are reported, not this edge
                    dead=self.dead,
                    statement=info.statement,
                )
            )

    def _registers(self, path: str) -> bool:
        """Does this decorator make the function a framework's replayed entry?"""
        frameworks = self.frameworks
        return (
            frameworks.workflow_function(path) is not None
            or frameworks.conditional_function(path) is not None
        )

    def _wrapper(self, value: Value, factory: bool) -> FunctionInfo | None:
        """The nested function (`def wrapper`, a closure made for each function decorated) a
        decorator of the checked code returns, itself or through a helper it returns from; for
        a factory (`@retry(3)`), the one the decorator it returns returns."""
        if not isinstance(value, Func):
            return None
        decorator = value.info
        if factory:
            self._walk_nested_now(decorator)
            made = decorator.returns
            if not isinstance(made, Func):
                return None
            decorator = made.info
        self._walk_nested_now(decorator)
        wrapper = decorator.returns
        if isinstance(wrapper, Func) and wrapper.info.parent is not None:
            return wrapper.info
        return None
