"""The project's own decorators on a workflow function: `@DBOS.workflow()` over `@with_parent`
registers what `with_parent` returned, so its wrapper runs first on every replay, then calls
the function. Each wrapper of a decorator written below the framework's (nearer the `def`; all
of them, when the class or a context parameter makes the entry) is reached from the entry by an
implicit call: its lines are replayed code, reported where they are written. A decorator above
the framework's wraps what the framework already holds, and runs only where it is called
directly. A function registered by a call elsewhere is an entry only once the project is read:
its decorators' wrappers are not followed.
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

    def _wrapped_by(self, info: FunctionInfo, decorators: Sequence[cst.Decorator]) -> None:
        """Implicit calls from a workflow entry to the wrappers its own decorators made."""
        if info.entry is None:
            return
        for decorator in reversed(decorators):
            expr = decorator.decorator
            factory = isinstance(expr, cst.Call)
            value = self.eval(expr.func if isinstance(expr, cst.Call) else expr)
            if isinstance(value, Ext):
                if self.frameworks.is_framework_path(value.path.removesuffix("()")):
                    return  # what the framework registered: the decorators above are outside
                continue  # an outside decorator (`functools.cache`): the ones below still run
            wrapper = self._wrapper(value, factory)
            if wrapper is not None:
                name = folds.dotted(expr.func if isinstance(expr, cst.Call) else expr) or ""
                info.calls.append(
                    HelperCall(
                        wrapper,
                        decorator,
                        name or wrapper.name,
                        governed=not info.exempt,
                        reported=False,  # the wrapper's own lines are reported, not this edge
                        dead=self.dead,
                        statement=info.statement,
                    )
                )

    def _wrapper(self, value: Value, factory: bool) -> FunctionInfo | None:
        """The function a decorator of the checked code returns, nested in it (`def wrapper`);
        for a factory (`@retry(3)`), the one the decorator it returns returns."""
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
        if isinstance(wrapper, Func) and wrapper.info.parent is decorator:
            return wrapper.info
        return None
