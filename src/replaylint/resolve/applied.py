"""Decorators applied by a call: `Greeting = workflow.defn(Greeting)`, `go = workflow.run(go)`,
`fetch = DBOS.step()(fetch)`. What the call makes of a class or function of this module is what
the decorator written above it would have made.

A framework's workflow decorators mark, register or wrap what they are given, and the framework
runs it as its workflow (or replays it once it suspends, a Prefect flow), so the class or
function is replayed wherever the result goes. A recorded zone's decorator (a step, an
activity) makes a new callable and leaves the one it was given alone (DBOS's `DBOS.step()`):
only a result bound back to the same name makes the function recorded, so `fetch()` is
recorded after `fetch = DBOS.step()(fetch)` and still runs inline after `DBOS.step()(fetch)`.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from replaylint.presets.records import Preset
from replaylint.resolve.model import Class, ClassInfo, Func, FunctionInfo
from replaylint.resolve.values import Value
from replaylint.resolve.walker import Walker


class Applied(Walker):
    # Implemented in definitions.py.
    _workflow_class: Callable[[ClassInfo, Preset | None, bool], None]
    _method_entry: Callable[[FunctionInfo], None]
    _inherited_entries: Callable[[ClassInfo], None]
    _decorated: Callable[[FunctionInfo, str], None]

    def _decorated_by_call(self, path: str, node: cst.Call, args: list[Value]) -> Value | None:
        """The class or function the call decorates, given back, when `path` (the callee) is a
        framework's decorator applied to one of this module's; None when it is no such call."""
        if len(node.args) != 1 or node.args[0].keyword is not None or node.args[0].star:
            return None
        target = args[0]
        decorator = path[:-2] if path.endswith("()") else path  # `workflow.defn(sandboxed=False)`
        if isinstance(target, Class) and target.info.module is self.m:
            return self._class_applied(target, decorator, node.func)
        if isinstance(target, Func) and target.info.module is self.m:
            return self._function_applied(target, decorator, node)
        return None

    def _class_applied(
        self, target: Class, decorator: str, made_by: cst.BaseExpression
    ) -> Value | None:
        cls = target.info
        if cls.workflow is not None:
            return None
        self._workflow_class(cls, self.frameworks.workflow_class(decorator), False)
        if cls.workflow is None:
            return None
        if isinstance(made_by, cst.Call):  # `workflow.defn(sandboxed=False)(Greeting)`
            cls.false_keywords = frozenset(
                arg.keyword.value
                for arg in made_by.args
                if arg.keyword is not None
                and isinstance(arg.value, cst.Name)
                and arg.value.value == "False"
            )
        for method in self.m.functions:  # defined before the class was a workflow
            if method.cls is cls:
                self._method_entry(method)
        self._inherited_entries(cls)
        return target

    def _function_applied(self, target: Func, decorator: str, node: cst.Call) -> Value | None:
        info = target.info
        if info.entry is not None or info.activity is not None or info.suspending is not None:
            return None
        if info.cls is not None and self._marks_a_method(decorator):
            # `go = workflow.run(go)`: whether it runs in workflow context is its class's to say,
            # now or once the class is made a workflow.
            info.decorators = (*info.decorators, decorator)
            self._method_entry(info)
            return target
        replayed = self.frameworks.workflow_function(decorator) or (
            self.frameworks.conditional_function(decorator)
        )
        if replayed is None and not self._rebound(node, info):
            return None
        self._decorated(info, decorator)
        if info.activity is None:
            info.activity = self.project.activity_kind([decorator])
        if info.entry is None and info.activity is None and info.suspending is None:
            return None
        info.decorators = (*info.decorators, decorator)
        return target

    def _marks_a_method(self, decorator: str) -> bool:
        """Is `decorator` one a workflow class's method is run in workflow context by?"""
        return any(
            self.frameworks.workflow_method(preset.name, [decorator], "")
            for preset in self.frameworks.presets
        )

    def _rebound(self, node: cst.Call, info: FunctionInfo) -> bool:
        """Is the call's result bound back to the name that holds the function (`f = deco(f)`)?"""
        statement = self.statement
        smalls = statement.body if isinstance(statement, cst.SimpleStatementLine) else ()
        for small in smalls:
            if isinstance(small, cst.Assign) and small.value is node and len(small.targets) == 1:
                name = small.targets[0].target
                if isinstance(name, cst.Name):
                    held = self.scope.lookup(name.value)
                    return isinstance(held, Func) and held.info is info
        return False
