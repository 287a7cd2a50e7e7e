"""Containers: set values (displays, `set(...)`, algebra, annotations) and the facts of builtin
and method calls on values, where order and shared state are decided."""

from __future__ import annotations

import libcst as cst

from replaylint.resolve.facts import BuiltinCall, MethodCall
from replaylint.resolve.model import Class, ClassInfo, Func
from replaylint.resolve.values import (
    UNKNOWN,
    Elements,
    Ext,
    Mapping,
    Seq,
    SetOf,
    Value,
    elements_hash_by_value,
    entry_of_sets,
    hashes_by_value,
)
from replaylint.resolve.walker import Walker

_SET_BUILDERS = frozenset({"set", "frozenset"})
# Calls whose result is a tuple of sets of objects: `done, pending = await asyncio.wait(tasks)`
# iterates `done` in the order of the tasks' hashes, their memory addresses.
_SETS_OF_OBJECTS = {"asyncio.wait()": 2, "asyncio.tasks.wait()": 2}
_SET_TYPES = frozenset(
    {
        "typing.Set",
        "typing.FrozenSet",
        "typing.AbstractSet",
        "typing.MutableSet",
        "collections.abc.Set",
        "collections.abc.MutableSet",
        "typing_extensions.AbstractSet",
    }
)
# Wrappers an annotation is looked through (`Optional[set[str]]`); any other generic holds its
# arguments (`dict[str, set[str]]` is a dict, not a set).
_TRANSPARENT = frozenset({"Optional", "Union", "Annotated", "Final", "ClassVar", "Required"})
_BY_VALUE_TYPES = frozenset({"int", "bool", "float"})
_SEQUENCE_TYPES = frozenset(
    f"{module}.{name}"
    for module, names in (
        ("typing", ("List", "Tuple", "Sequence", "MutableSequence", "Iterable", "Iterator",
                    "Collection")),
        ("collections.abc", ("Sequence", "MutableSequence", "Iterable", "Iterator", "Collection")),
        ("builtins", ("list", "tuple")),
    )
    for name in names
)  # fmt: skip
# Set methods that build a new set, by the operator they spell.
_SET_METHODS = {
    "union": "|",
    "intersection": "&",
    "difference": "-",
    "symmetric_difference": "^",
    "copy": "-",
}
_OPERATORS: dict[type[cst.CSTNode], str] = {
    cst.BitOr: "|",
    cst.BitAnd: "&",
    cst.Subtract: "-",
    cst.BitXor: "^",
    cst.BitOrAssign: "|",
    cst.BitAndAssign: "&",
    cst.SubtractAssign: "-",
    cst.BitXorAssign: "^",
}
_COMPREHENSIONS = {
    cst.ListComp: "list",
    cst.SetComp: "set",
    cst.DictComp: "dict",
    cst.GeneratorExp: "generator",
}


def combined(operator: str, left: Value, right: Value) -> SetOf:
    """The set `left <operator> right` builds: its elements come from one side or both."""
    mine, theirs = elements_hash_by_value(left), elements_hash_by_value(right)
    if operator == "&":
        return SetOf(mine or theirs)  # only elements both sides hold
    if operator == "-":
        return SetOf(mine)  # only elements of the left side
    return SetOf(mine and theirs)


class Containers(Walker):
    def _set_display(self, node: cst.Set) -> Value:
        by_value = True
        for element in node.elements:
            value = self.eval(element.value)
            if isinstance(element, cst.StarredElement):
                by_value = by_value and elements_hash_by_value(value)
            else:
                by_value = by_value and hashes_by_value(value)
        return SetOf(by_value)

    def _any_comprehension(self, node: cst.CSTNode) -> Value:
        outer = self.comprehension
        self.comprehension = (_COMPREHENSIONS[type(node)], self._handed_to.pop(id(node), ""))
        value = self._comprehension(node)
        self.comprehension = outer
        if isinstance(node, cst.SetComp):
            return SetOf(self._ints_of_range(node))
        return value

    def _ints_of_range(self, node: cst.SetComp) -> bool:
        """`{i for i in range(n)}`, `{i * 2 + 1 for i in range(n)}`: the elements are ints,
        ordered by value."""
        clause = node.for_in
        return (
            clause.inner_for_in is None
            and isinstance(clause.target, cst.Name)
            and _int_valued(node.elt, clause.target.value)
            and self._is_range(clause.iter)
        )

    def _is_range(self, node: cst.BaseExpression) -> bool:
        return (
            isinstance(node, cst.Call)
            and isinstance(node.func, cst.Name)
            and node.func.value == "range"
            and self.scope.lookup("range") is None
        )

    def _hand_over(self, node: cst.Call) -> None:
        """Before a call's arguments are walked: tell each comprehension and builtin call among
        them what it is handed to (`sorted(x for x in s)`, `sorted(list(s))`), so its iteration
        is known with its consumer."""
        if not any(self._consumes(arg.value) for arg in node.args):
            return
        func = node.func
        if isinstance(func, cst.Name) and self.scope.lookup(func.value) is None:
            path = "builtins." + func.value
        else:
            found = self._peek(func)
            if isinstance(found, Func):  # a function of the checked code, by its qualified name
                path = f"{found.info.module.name}.{found.info.qualname}"
            else:
                path = found.path if isinstance(found, Ext) else ""
        for arg in node.args:
            if self._consumes(arg.value):
                self._handed_to[id(arg.value)] = path

    def _consumes(self, node: cst.BaseExpression) -> bool:
        """A comprehension, or a call of a builtin: what iterates an argument of a call."""
        if type(node) in _COMPREHENSIONS:
            return True
        return (
            isinstance(node, cst.Call)
            and isinstance(node.func, cst.Name)
            and self.scope.lookup(node.func.value) is None
        )

    def _observed(
        self, node: cst.Call, receiver: Value | None, values: list[Value], result: Value
    ) -> Value:
        """After a call is resolved: the facts of a method or builtin called on values, and the
        set a set-building call returns (`set(names)`, `a.union(b)`, `d.keys()`)."""
        func = node.func
        if isinstance(result, Ext) and result.path in _SETS_OF_OBJECTS:
            return Seq(tuple(SetOf(False) for _ in range(_SETS_OF_OBJECTS[result.path])))
        args = tuple(
            value
            for arg, value in zip(node.args, values, strict=True)
            if arg.keyword is None and not arg.star
        )
        if isinstance(func, cst.Attribute) and receiver is not None:
            method = func.attr.value
            if MethodCall in self.wants:
                binding = self._state_of(func.value)
                self.sink.emit(MethodCall(node, self.site(), receiver, method, args, binding))
            if result is UNKNOWN:
                return self._set_method(func.value, receiver, method, args)
            return result
        if isinstance(func, cst.Name) and self.scope.lookup(func.value) is None:
            consumer = self._handed_to.pop(id(node), "")
            if BuiltinCall in self.wants:
                self.sink.emit(BuiltinCall(node, self.site(), func.value, args, consumer))
            if func.value in _SET_BUILDERS and result is UNKNOWN:
                if not args:
                    return SetOf(False)  # filled later, with elements the guard cannot see
                first = node.args[0].value
                return SetOf(elements_hash_by_value(args[0]) or self._is_range(first))
        return result

    def _set_method(
        self, owner: cst.BaseExpression, receiver: Value, method: str, args: tuple[Value, ...]
    ) -> Value:
        operator = _SET_METHODS.get(method)
        if operator is not None:
            if isinstance(owner, cst.Name) and owner.value in _SET_BUILDERS and args:
                if self.scope.lookup(owner.value) is None:  # `set.union(a, b)`
                    receiver, args = args[0], args[1:]
            if isinstance(receiver, SetOf) and not receiver.view:
                found = SetOf(receiver.by_value)
                for other in args:
                    found = combined(operator, found, other)
                return found
        if method == "keys" and not args and (receiver is UNKNOWN or isinstance(receiver, Mapping)):
            return SetOf(elements_hash_by_value(receiver), view=True)
        return entry_of_sets(method, args)

    def _set_algebra(self, operator: cst.CSTNode, left: Value, right: Value) -> Value | None:
        """`a | b`, `a & b`, `a - b`, `a ^ b` (and their augmented forms) when a side is a set."""
        symbol = _OPERATORS.get(type(operator))
        if symbol is None or not (isinstance(left, SetOf) or isinstance(right, SetOf)):
            return None
        return combined(symbol, left, right)

    def _set_annotation(self, node: cst.BaseExpression) -> Value | None:
        """A set when the annotation names one (`set[str]`, `AbstractSet[int]`, `frozenset`);
        UNKNOWN for a generic holding one (`dict[str, set[str]]`); None to look further."""
        if isinstance(node, (cst.Name, cst.Attribute)):
            return SetOf(False, declared=True) if self._names_set_type(node) else None
        if not isinstance(node, cst.Subscript):
            return None
        if self._names_set_type(node.value):
            first = node.slice[0].slice if node.slice else None
            element = first.value if isinstance(first, cst.Index) else None
            by_value = (
                isinstance(element, cst.Name)
                and element.value in _BY_VALUE_TYPES
                and self.scope.lookup(element.value) is None
            )
            return SetOf(by_value, declared=True)
        if self._names_sequence_type(node.value) and all(
            isinstance(e.slice, cst.Index) and self._by_value_type(e.slice.value)
            for e in node.slice
        ):
            return Elements()
        wrapper = self._peek(node.value)
        if isinstance(wrapper, Ext) and wrapper.path.rsplit(".", 1)[-1] in _TRANSPARENT:
            return None
        return UNKNOWN if self._holds_set_type(node) else None

    def _holds_set_type(self, node: cst.BaseExpression) -> bool:
        if isinstance(node, cst.Subscript):
            if self._names_set_type(node.value):
                return True
            return any(
                isinstance(e.slice, cst.Index) and self._holds_set_type(e.slice.value)
                for e in node.slice
            )
        return isinstance(node, (cst.Name, cst.Attribute)) and self._names_set_type(node)

    def _names_sequence_type(self, node: cst.BaseExpression) -> bool:
        """`list`, `tuple`, `typing.Sequence`, `collections.abc.Iterable`, ...: what iterates
        its elements in the order they were given."""
        if isinstance(node, cst.Name) and node.value in ("list", "tuple"):
            return self.scope.lookup(node.value) is None
        found = self._peek(node)
        return isinstance(found, Ext) and found.path in _SEQUENCE_TYPES

    def _by_value_type(self, node: cst.BaseExpression) -> bool:
        """`int`, `bool`, `float` (as builtins), or the `...` of `tuple[int, ...]`."""
        if isinstance(node, cst.Ellipsis):
            return True
        return (
            isinstance(node, cst.Name)
            and node.value in _BY_VALUE_TYPES
            and self.scope.lookup(node.value) is None
        )

    def _names_set_type(self, node: cst.BaseExpression) -> bool:
        if isinstance(node, cst.Name) and node.value in _SET_BUILDERS:
            return self.scope.lookup(node.value) is None
        found = self._peek(node)
        return isinstance(found, Ext) and found.path in _SET_TYPES

    def _module_level_class(self, value: Value) -> bool:
        """A class defined when its module loads (not inside a function): its attributes are
        state every run in the process shares."""
        if not isinstance(value, Class):
            return False
        info: ClassInfo = value.info
        if info.module is not self.m or self.module_classes is None:
            return True
        return any(known is info for known in self.m.classes[: self.module_classes])


_INT_OPERATORS = (
    cst.Add, cst.Subtract, cst.Multiply, cst.FloorDivide, cst.Modulo, cst.Power,
    cst.LeftShift, cst.RightShift, cst.BitAnd, cst.BitOr, cst.BitXor,
)  # fmt: skip


def _int_valued(node: cst.BaseExpression, name: str, depth: int = 0) -> bool:
    """An expression of ints only: `name` (a range's int), int literals, and integer arithmetic
    on them (`i * 2 + 1`, `-i`, `(i, i + 1)`)."""
    if depth > 50:
        return False
    if isinstance(node, cst.Name):
        return node.value == name
    if isinstance(node, cst.Integer):
        return True
    if isinstance(node, cst.UnaryOperation):
        return isinstance(node.operator, (cst.Minus, cst.Plus, cst.BitInvert)) and _int_valued(
            node.expression, name, depth + 1
        )
    if isinstance(node, cst.BinaryOperation):
        return (
            isinstance(node.operator, _INT_OPERATORS)
            and _int_valued(node.left, name, depth + 1)
            and _int_valued(node.right, name, depth + 1)
        )
    if isinstance(node, cst.Tuple):
        return bool(node.elements) and all(
            isinstance(e, cst.Element) and _int_valued(e.value, name, depth + 1)
            for e in node.elements
        )
    return False
