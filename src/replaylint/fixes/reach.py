"""Is a helper that a fix would edit also run outside workflow code? A module-level function
that an activity or the module's own top level calls runs where a framework's workflow API
raises (`workflow.now()` outside a workflow): its fixes are unsafe, whatever the data says."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

import libcst as cst

from replaylint.fixes.names import Names
from replaylint.presets.records import presets


@lru_cache(maxsize=1)
def _activity_decorators() -> frozenset[str]:
    from replaylint.resolve.catalog import default_catalog

    return frozenset(default_catalog().recorded_activities)


def _is_activity(function: cst.FunctionDef, names: Names) -> bool:
    """Decorated as an activity, step or other recorded zone of some framework."""
    known = _activity_decorators()
    for decorator in function.decorators:
        expression = decorator.decorator
        if isinstance(expression, cst.Call):
            expression = expression.func
        for name in names.names_of(expression):
            if name in known or any(
                preset.recorded_decorators.matches(name) or preset.inline_activities.matches(name)
                for preset in presets().values()
            ):
                return True
    return False


class _Callers(cst.CSTVisitor):
    """Where a name is read: inside which module-level function (None: the module's top)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.stack: list[cst.FunctionDef | cst.ClassDef] = []
        self.sites: list[cst.FunctionDef | None] = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.stack.append(node)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.stack.pop()

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.stack.append(node)

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.stack.pop()

    def visit_Name(self, node: cst.Name) -> None:
        if node.value != self.name:
            return
        functions = [s for s in self.stack if isinstance(s, cst.FunctionDef)]
        if self.stack and self.stack[-1].name is node:
            return  # the def's own name
        self.sites.append(functions[-1] if functions else None)


def run_outside_workflow(
    function: cst.FunctionDef | None,
    module: cst.Module,
    parents: Mapping[cst.CSTNode, cst.CSTNode],
    names: Names,
) -> bool:
    """True when `function` is a module-level helper that an activity, or code at the module's
    top level, also calls (or hands on)."""
    if function is None or not isinstance(parents.get(function), cst.Module):
        return False
    callers = _Callers(function.name.value)
    module.visit(callers)
    for site in callers.sites:
        if site is function:
            continue  # its own recursion
        if site is None or _is_activity(site, names):
            return True
    return False
