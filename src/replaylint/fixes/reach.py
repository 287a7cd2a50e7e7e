"""Is a helper that a fix would edit also run outside workflow code? A module-level function
that an activity or the module's own top level calls runs where a framework's workflow API
raises (`workflow.now()` outside a workflow), and so does a decorator's wrapper, which runs
wherever the decorator is applied: their fixes are unsafe, whatever the data says."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

import libcst as cst

from replaylint.fixes.names import Names
from replaylint.parse.children import children, mentions
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


def _callers(module: cst.Module, names: frozenset[str]) -> dict[str, list[cst.FunctionDef | None]]:
    """Where each of `names` is read: inside which function (None: the module's top). The
    nodes are read in LibCST's visiting order from their fields (parse/children.py): a
    CSTVisitor's dispatch cost a quarter of a second on a large module."""
    sites: dict[str, list[cst.FunctionDef | None]] = {}
    enclosing: list[cst.FunctionDef | cst.ClassDef] = []
    stack: list[tuple[cst.CSTNode, bool]] = [(module, False)]
    while stack:
        node, leaving = stack.pop()
        if leaving:
            enclosing.pop()
            continue
        if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            enclosing.append(node)
            stack.append((node, True))
        elif isinstance(node, cst.Name) and node.value in names:
            if not (enclosing and enclosing[-1].name is node):  # not the def's own name
                functions = [s for s in enclosing if isinstance(s, cst.FunctionDef)]
                sites.setdefault(node.value, []).append(functions[-1] if functions else None)
        stack.extend((child, False) for child in reversed(children(node)))
    return sites


class OutsideWorkflow:
    """Which module-level helpers of one module code outside the workflow also runs. The
    module is walked once, for every helper's callers, however many fixes ask: a walk per
    fix made the [*] marks of a module with many fixable helpers quadratic."""

    def __init__(
        self, module: cst.Module, parents: Mapping[cst.CSTNode, cst.CSTNode], names: Names
    ) -> None:
        self.module = module
        self.parents = parents
        self.names = names
        self._sites: dict[str, list[cst.FunctionDef | None]] | None = None
        self._answers: dict[int, bool] = {}

    def __call__(self, function: cst.FunctionDef | None) -> bool:
        """True when `function` is a module-level helper that an activity, or code at the
        module's top level, also calls (or hands on); or a function its enclosing one returns
        (a decorator's wrapper), which runs wherever the decorator is applied."""
        if function is None:
            return False
        if not isinstance(self.parents.get(function), cst.Module):
            return self._returned(function)
        answer = self._answers.get(id(function))
        if answer is None:
            answer = self._answers[id(function)] = self._outside(function)
        return answer

    def _returned(self, function: cst.FunctionDef) -> bool:
        outer = self.parents.get(function)
        while outer is not None and not isinstance(outer, (cst.FunctionDef, cst.Module)):
            outer = self.parents.get(outer)
        if not isinstance(outer, cst.FunctionDef):
            return False  # a method: its class decides where it runs
        name = function.name.value
        stack: list[cst.CSTNode] = [outer.body]
        while stack:
            node = stack.pop()
            if (
                isinstance(node, cst.Return)
                and node.value is not None
                and mentions(node.value, name)
            ):
                return True  # `return wrapper`, `return functools.wraps(func)(wrapper)`
            stack.extend(children(node))
        return False

    def _outside(self, function: cst.FunctionDef) -> bool:
        for site in self._callers().get(function.name.value, ()):
            if site is function:
                continue  # its own recursion
            if site is None or _is_activity(site, self.names):
                return True
        return False

    def _callers(self) -> dict[str, list[cst.FunctionDef | None]]:
        if self._sites is None:
            helpers = frozenset(
                s.name.value for s in self.module.body if isinstance(s, cst.FunctionDef)
            )
            self._sites = _callers(self.module, helpers)
        return self._sites
