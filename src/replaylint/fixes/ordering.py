"""What an ADK-W010 fix wraps and with what: the set itself, never pairs built from it
(`enumerate(s)` becomes `enumerate(sorted(s))`: sorting the pairs would keep the hash-order
index), and `sorted(...)` only where the elements are known to be orderable with one another."""

from __future__ import annotations

import libcst as cst

# Builtins whose items pair each element with something else (its index, a partner).
_PAIRING = {"enumerate": 0}
_NO_FIX_PAIRING = frozenset({"zip"})  # which argument is the set is not known here
# Element types whose values are ordered among themselves (a set of one of them sorts).
_ORDERED = frozenset({"str", "int", "float", "bytes"})
_SETS = frozenset({"set", "frozenset", "Set", "FrozenSet", "AbstractSet", "MutableSet"})


def wrapped_part(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """The expression a wrap goes around, inside the flagged one: the iterable of a pairing
    builtin, else the flagged expression itself; None when no wrap keeps the meaning."""
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name):
        name = node.func.value
        if name in _NO_FIX_PAIRING:
            return None
        position = _PAIRING.get(name)
        if position is not None:
            positional = [a for a in node.args if a.keyword is None and not a.star]
            return positional[position].value if len(positional) > position else None
    return node


def _literal_kind(node: cst.BaseExpression) -> str | None:
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        prefix = node.prefix if isinstance(node, cst.SimpleString) else ""
        return "bytes" if "b" in prefix.lower() else "str"
    if isinstance(node, cst.Integer):
        return "int"
    if isinstance(node, cst.Float):
        return "float"
    return None


def _display_kinds(node: cst.BaseExpression) -> set[str | None]:
    """The element kinds of a set display, or of `set([...])`/`frozenset((...))` of literals."""
    if isinstance(node, cst.Set):
        return {
            _literal_kind(e.value) if isinstance(e, cst.Element) else None for e in node.elements
        }
    if (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Name)
        and node.func.value
        in (
            "set",
            "frozenset",
        )
    ):
        if len(node.args) == 1 and isinstance(node.args[0].value, (cst.List, cst.Tuple, cst.Set)):
            return _display_kinds(cst.Set(elements=list(node.args[0].value.elements)))
    return {None}


def _annotation_kind(annotation: cst.BaseExpression) -> str | None:
    """`set[str]`, `frozenset[int]`, `typing.Set[str]`: the element type's name."""
    if not isinstance(annotation, cst.Subscript) or len(annotation.slice) != 1:
        return None
    outer = annotation.value
    name = outer.attr.value if isinstance(outer, cst.Attribute) else getattr(outer, "value", "")
    element = annotation.slice[0].slice
    if name not in _SETS or not isinstance(element, cst.Index):
        return None
    inner = element.value
    return inner.value if isinstance(inner, cst.Name) else None


def _orderable(kinds: set[str | None]) -> bool:
    return len(kinds) == 1 and next(iter(kinds)) in _ORDERED


def known_orderable(node: cst.BaseExpression, function: cst.FunctionDef | None) -> bool:
    """Are the elements of `node` (a set display, or a name bound in `function` to one, or a
    parameter annotated as a set of one ordered type) all of one type that orders?"""
    if not isinstance(node, cst.Name):
        return _orderable(_display_kinds(node))
    if function is None:
        return False
    name = node.value
    params = function.params
    for param in [*params.posonly_params, *params.params, *params.kwonly_params]:
        if param.name.value == name:
            annotation = param.annotation
            return annotation is not None and _annotation_kind(annotation.annotation) in _ORDERED
    return _bound_orderable(name, function)


def _bound_orderable(name: str, function: cst.FunctionDef) -> bool:
    """Every binding of `name` in the function gives orderable elements; a name bound in a way
    not read here (a loop target, `with ... as`, `:=`, `+=`) is not known."""
    bindings = _Bindings(name)
    function.body.visit(bindings)
    return bool(bindings.kinds) and all(bindings.kinds)


class _Bindings(cst.CSTVisitor):
    def __init__(self, name: str) -> None:
        self.name = name
        self.kinds: list[bool] = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False  # a nested function's names are its own

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            if _is_name(target.target, self.name):
                self.kinds.append(_orderable(_display_kinds(node.value)))
            elif _binds(target.target, self.name):
                self.kinds.append(False)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if _is_name(node.target, self.name):
            self.kinds.append(_annotation_kind(node.annotation.annotation) in _ORDERED)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if _is_name(node.target, self.name):
            self.kinds.append(False)

    def visit_For(self, node: cst.For) -> None:
        if _binds(node.target, self.name):
            self.kinds.append(False)

    def visit_AsName(self, node: cst.AsName) -> None:
        if _binds(node.name, self.name):
            self.kinds.append(False)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        if _is_name(node.target, self.name):
            self.kinds.append(False)


def _binds(target: cst.BaseExpression, name: str) -> bool:
    if _is_name(target, name):
        return True
    if isinstance(target, (cst.Tuple, cst.List)):
        return any(_binds(e.value, name) for e in target.elements)
    if isinstance(target, cst.StarredElement):
        return _binds(target.value, name)
    return False


def _is_name(node: cst.BaseExpression, name: str) -> bool:
    return isinstance(node, cst.Name) and node.value == name
