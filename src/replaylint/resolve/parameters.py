"""Whether a function of the checked code only looks at a parameter it is handed, never calling
it or handing it on: then a function given there is not run by the call (`name_of(self.step)`)."""

from __future__ import annotations

import libcst as cst

from replaylint.parse.children import children, mentions
from replaylint.resolve.model import Func

# Builtins that look at an object without calling it.
_LOOKING = frozenset(
    {"isinstance", "issubclass", "callable", "hasattr", "getattr", "id", "type", "repr", "str"}
)
_SCOPES = (cst.FunctionDef, cst.Lambda, cst.ClassDef)


def only_looked_at(callee: Func, call: cst.Call, arg: cst.Arg, position: int) -> bool:
    """Does `callee` only read attributes of, compare or inspect the parameter `arg` binds
    (at `position` among the positional arguments)? False when that cannot be told."""
    node = callee.info.node
    if not isinstance(node, cst.FunctionDef) or arg.star:
        return False
    name = _parameter(callee, node, call, arg, position)
    if name is None:
        return False
    known = callee.info.looks_only.get(name)
    if known is None:  # asked again at every call of it: its body is walked once per parameter
        known = callee.info.looks_only[name] = _inspected_only(node, name)
    return known


def _parameter(
    callee: Func, node: cst.FunctionDef, call: cst.Call, arg: cst.Arg, position: int
) -> str | None:
    params = node.params
    if arg.keyword is not None:
        every = [*params.posonly_params, *params.params, *params.kwonly_params]
        wanted = arg.keyword.value
        return wanted if any(p.name.value == wanted for p in every) else None
    positional = [*params.posonly_params, *params.params]
    method = callee.info.cls is not None and isinstance(call.func, cst.Attribute)
    if callee.bound or method:
        positional = positional[1:]  # `self._name_of(fn)`: the first parameter is the instance
    return positional[position].name.value if position < len(positional) else None


def _inspected_only(node: cst.FunctionDef, name: str) -> bool:
    parents: dict[int, cst.CSTNode] = {}
    uses: dict[str, list[cst.Name]] = {}
    stack: list[cst.CSTNode] = [node.body]
    while stack:
        current = stack.pop()
        if isinstance(current, _SCOPES):
            if mentions(current, name):
                return False  # a nested function may call it later
            continue
        if isinstance(current, cst.Name):
            uses.setdefault(current.value, []).append(current)
        for child in children(current):
            parents[id(child)] = current
            stack.append(child)
    return _names_looked_at(name, uses, parents, set())


def _names_looked_at(
    name: str, uses: dict[str, list[cst.Name]], parents: dict[int, cst.CSTNode], seen: set[str]
) -> bool:
    """Is every use of `name` a look at it, or a store into a local only looked at in turn
    (`label = fn if isinstance(fn, str) else fn.__name__`)?"""
    if name in seen or len(seen) > 8:
        return name in seen
    seen.add(name)
    for use in uses.get(name, []):
        node: cst.CSTNode = use
        parent = parents.get(id(node))
        if isinstance(parent, cst.AssignTarget) or (
            isinstance(parent, cst.AnnAssign) and parent.target is node
        ):
            continue  # a store, not a use
        while isinstance(parent, cst.IfExp) and node is not parent.test:
            node, parent = parent, parents.get(id(parent))
        if _looked_at(node, parent, parents):
            continue
        target = _stored_into(node, parent)
        if target is None or not _names_looked_at(target, uses, parents, seen):
            return False
    return True


def _looked_at(
    node: cst.CSTNode, parent: cst.CSTNode | None, parents: dict[int, cst.CSTNode]
) -> bool:
    """Is this use only a look at it: an attribute read, a comparison, a formatted value, the
    argument of a builtin that inspects it (`isinstance(fn, str)`)?"""
    if isinstance(parent, cst.Attribute):
        return parent.value is node and parent.attr.value != "__call__"
    if isinstance(parent, (cst.Comparison, cst.ComparisonTarget, cst.FormattedStringExpression)):
        return True
    if isinstance(parent, cst.Arg) and parent.value is node:
        call = parents.get(id(parent))
        return (
            isinstance(call, cst.Call)
            and isinstance(call.func, cst.Name)
            and call.func.value in _LOOKING
        )
    return False


def _stored_into(node: cst.CSTNode, parent: cst.CSTNode | None) -> str | None:
    if isinstance(parent, cst.Assign) and parent.value is node and len(parent.targets) == 1:
        target = parent.targets[0].target
        return target.value if isinstance(target, cst.Name) else None
    return None
