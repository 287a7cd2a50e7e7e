"""A durable command's target read as its framework records it: the registered name of the
function given, a text, an installed callable's name (qualified where the framework records
qualified names), or the alternatives of a conditional expression."""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from replaylint.resolve.facts import Call
from replaylint.resolve.model import Func, FunctionInfo
from replaylint.resolve.values import Const, Ext, Value
from replaylint.versioning.model import ANY
from replaylint.versioning.syntax import (
    MAKER,
    RECEIVER,
    argument_nodes,
    argument_values,
    attribute_chain,
    chosen_here,
    held_by,
    made_by,
    receiver_of,
    written_name,
)


class Targets:
    """Reads targets for one framework: `name_of` gives a function's recorded name."""

    def __init__(self, name_of: Callable[[FunctionInfo], str], qualified: bool) -> None:
        self.name_of = name_of
        self.qualified = qualified  # callables are recorded under their qualified name
        self._chosen: dict[int, frozenset[str]] = {}  # id(function) -> chosen_here, read once

    def of_call(
        self,
        node: cst.Call,
        fact: Call | None,
        keys: tuple[str, ...],
        function: FunctionInfo | None,
        rebound: frozenset[str],
    ) -> str:
        """The activity or child workflow type: a function's registered name, a string given,
        or an installed function's name; ANY when a local chosen in several places (`rebound`)
        names it (`fn = order_apples` in one branch, `fn = order_pears` in another); under the
        RECEIVER key, the decorated function whose method is called; under the MAKER key, what
        the call that made the object names it."""
        task = receiver_of(node, function) if RECEIVER in keys else None
        if task is not None:
            return self.name_of(task)
        if MAKER in keys:  # the object's maker names it: `app.get_agent(context, "Drafter")`
            maker = made_by(node, function)
            if isinstance(maker, cst.SimpleString):
                return str(maker.evaluated_value)
            return self.as_written(maker) if maker is not None else ""
        written = argument_nodes(node, keys)
        if written and isinstance(written[0], cst.Name) and written[0].value in rebound:
            return ANY
        here = bool(written) and held_by(written[0]) in self._chosen_in(function)
        if here and isinstance(written[0], cst.Attribute):
            return ANY  # `self.tool = tool` before the call: not what __init__ gave it
        for value in argument_values(node, fact, keys):
            named = self.of_value(value)
            if named is not None:
                return named
        if here:
            return ANY  # a parameter, or a local holding what nothing here resolves
        return self.as_written(written[0]) if written else ""

    def _chosen_in(self, function: FunctionInfo | None) -> frozenset[str]:
        found = self._chosen.get(id(function))
        if found is None:
            found = self._chosen[id(function)] = chosen_here(function)
        return found

    def of_alternative(self, expr: cst.BaseExpression, function: FunctionInfo | None) -> str:
        """The target one alternative of a conditional expression names: a function or text of
        the module by its name, else the name as written."""
        module = function.module if function is not None else None
        value = module.exports.get(expr.value) if module and isinstance(expr, cst.Name) else None
        named = self.of_value(value)
        return named if named is not None else self.as_written(expr)

    def of_value(self, value: Value | None) -> str | None:
        if isinstance(value, Func):
            return self.name_of(value.info)
        if isinstance(value, Const) and isinstance(value.value, str):
            return value.value
        if isinstance(value, Ext):
            return self._installed(value.path)
        return None

    def _installed(self, path: str) -> str:
        """An installed callable's recorded name, from its resolved path: its own name, or, where
        qualified names are recorded, with the object it is looked up on
        (`anthropic.Anthropic().messages.create`: `messages.create`, the resource whose class
        the runtime records as `Messages.create`)."""
        parts = path.split(".")
        if not self.qualified or "()" not in path or len(parts) < 2:
            return parts[-1].replace("()", "")
        return ".".join(part.replace("()", "") for part in parts[-2:])

    def as_written(self, expr: cst.BaseExpression) -> str:
        """A target nothing resolves: its name as written (with the object it is read from,
        where qualified names are recorded)."""
        chain = attribute_chain(expr) if isinstance(expr, cst.Attribute) else []
        if self.qualified and len(chain) > 1:
            return ".".join(chain[-2:])
        return written_name(expr)


def python_qualname(function: FunctionInfo) -> str:
    """The `__qualname__` Python gives the function: its class's, or its enclosing function's
    with `<locals>`."""
    if function.cls is not None:
        return f"{function.cls.qualname}.{function.name}"
    if function.parent is not None:
        return f"{python_qualname(function.parent)}.<locals>.{function.name}"
    return function.name
