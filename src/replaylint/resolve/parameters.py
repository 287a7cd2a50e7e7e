"""Whether a function of the checked code only looks at a parameter it is handed, never calling
it: then a function given there is not run by the call (`name_of(self.step)`). Handing it on
counts as a look where the call it goes to never runs it either: a recorder
(`workflow.execute_activity(activity_fn, ...)`) or a helper that only looks at it in turn."""

from __future__ import annotations

from collections.abc import Callable, Container

import libcst as cst

from replaylint.parse.children import children, mentions
from replaylint.presets.frameworks import Frameworks
from replaylint.resolve.model import Func, FunctionInfo

# Does this call, in this function's body, leave the argument at this position (or keyword)
# unrun? Asked of the evaluator, which knows what each call of a walked body resolved to.
LeavesUnrun = Callable[[FunctionInfo, cst.Call, cst.Arg, int], bool]

# Builtins that look at an object without calling it.
_LOOKING = frozenset(
    {"isinstance", "issubclass", "callable", "hasattr", "getattr", "id", "type", "repr", "str"}
)
_SCOPES = (cst.FunctionDef, cst.Lambda, cst.ClassDef)


def only_looked_at(
    callee: Func, call: cst.Call, arg: cst.Arg, position: int, unrun: LeavesUnrun | None = None
) -> bool:
    """Does `callee` only read attributes of, compare or inspect the parameter `arg` binds
    (at `position` among the positional arguments), or hand it to calls that leave it unrun
    (`unrun`)? False when that cannot be told."""
    node = callee.info.node
    if not isinstance(node, cst.FunctionDef) or arg.star:
        return False
    name = _parameter(callee, node, call, arg, position)
    if name is None:
        return False
    known = callee.info.looks_only.get(name)
    if known is None:  # asked again at every call of it: its body is walked once per parameter
        callee.info.looks_only[name] = False  # meanwhile: a helper handing it back to itself
        handed = None if unrun is None else lambda c, a, n: unrun(callee.info, c, a, n)
        known = callee.info.looks_only[name] = _inspected_only(node, name, handed)
    return known


def parameter_of(callee: Func, call: cst.Call, arg: cst.Arg, position: int) -> str | None:
    """The parameter of `callee` that `arg` (at `position` among the positional arguments)
    binds in `call`; None when that cannot be told."""
    node = callee.info.node
    if not isinstance(node, cst.FunctionDef) or arg.star:
        return None
    return _parameter(callee, node, call, arg, position)


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


Handed = Callable[[cst.Call, cst.Arg, int], bool]


def _inspected_only(node: cst.FunctionDef, name: str, handed: Handed | None) -> bool:
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
    return _names_looked_at(name, uses, parents, set(), handed)


def _names_looked_at(
    name: str,
    uses: dict[str, list[cst.Name]],
    parents: dict[int, cst.CSTNode],
    seen: set[str],
    handed: Handed | None,
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
        if _looked_at(node, parent, parents, handed):
            continue
        target = _stored_into(node, parent)
        if target is None or not _names_looked_at(target, uses, parents, seen, handed):
            return False
    return True


def _looked_at(
    node: cst.CSTNode,
    parent: cst.CSTNode | None,
    parents: dict[int, cst.CSTNode],
    handed: Handed | None,
) -> bool:
    """Is this use only a look at it: an attribute read, a comparison, a formatted value, the
    argument of a builtin that inspects it (`isinstance(fn, str)`) or of a call that leaves it
    unrun (`handed`)?"""
    if isinstance(parent, cst.Attribute):
        return parent.value is node and parent.attr.value != "__call__"
    if isinstance(parent, (cst.Comparison, cst.ComparisonTarget, cst.FormattedStringExpression)):
        return True
    if isinstance(parent, cst.Arg) and parent.value is node and not parent.star:
        call = parents.get(id(parent))
        if not isinstance(call, cst.Call):
            return False
        if isinstance(call.func, cst.Name) and call.func.value in _LOOKING:
            return True
        return handed is not None and handed(call, parent, _position(call, parent))
    return False


def _position(call: cst.Call, arg: cst.Arg) -> int:
    """`arg`'s place among the call's positional arguments (for a keyword: those before it)."""
    before = next(i for i, a in enumerate(call.args) if a is arg)
    return sum(1 for a in call.args[:before] if a.keyword is None and not a.star)


def unrun_by(recorders: Container[str], frameworks: Frameworks) -> LeavesUnrun:
    """What a walked body's call does with an argument: a call outside the checked code leaves
    it unrun when it is a recorder (the framework runs it, recorded: the catalog's `recorders`
    or a framework's); a call of a helper, when that helper only looks at its parameter in
    turn; anything else may run it."""

    def leaves_unrun(info: FunctionInfo, call: cst.Call, arg: cst.Arg, position: int) -> bool:
        path = info.external.get(id(call))
        if path is not None:
            return path in recorders or frameworks.recorder(path) is not None
        edge = next((e for e in info.calls if e.node is call), None)
        return edge is not None and only_looked_at(
            Func(edge.target), call, arg, position, leaves_unrun
        )

    return leaves_unrun


def _stored_into(node: cst.CSTNode, parent: cst.CSTNode | None) -> str | None:
    if isinstance(parent, cst.Assign) and parent.value is node and len(parent.targets) == 1:
        target = parent.targets[0].target
        return target.value if isinstance(target, cst.Name) else None
    return None
