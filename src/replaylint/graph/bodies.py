"""One function's body indexed for following values: parents, statements in order, names read."""

from __future__ import annotations

from typing import cast

import libcst as cst

from replaylint.parse.children import children
from replaylint.resolve.model import FunctionInfo, HelperCall

# A definition inside a body is a function of its own (walked, and followed, as one).
_OWN_SCOPES = (cst.FunctionDef, cst.ClassDef, cst.Lambda)
_LOOPS = (cst.For, cst.While)
STATEMENTS = (cst.SimpleStatementLine, cst.BaseCompoundStatement)


# What each kind of node is to the index, decided once per type: LibCST's classes are abstract
# base classes, whose isinstance runs Python code whenever the node is of another class
# (800,000 calls on sdk-python).
_STATEMENT, _OWN_SCOPE, _IMPORT, _ATTRIBUTE, _ARG, _GLOBAL, _NAME, _BINDS = (
    1 << i for i in range(8)
)
# The nodes _mark_stores finds targets in.
_BINDING = (
    cst.Assign,
    cst.AnnAssign,
    cst.For,
    cst.CompFor,
    cst.AsName,
    cst.NamedExpr,
    cst.Global,
    cst.Nonlocal,
)
_ROLES: dict[type, int] = {}


def _role(kind: type) -> int:
    role = 0
    for flag, classes in (
        (_STATEMENT, STATEMENTS),
        (_OWN_SCOPE, _OWN_SCOPES),
        (_IMPORT, (cst.Import, cst.ImportFrom)),
        (_ATTRIBUTE, cst.Attribute),
        (_ARG, cst.Arg),
        (_GLOBAL, cst.Global),
        (_NAME, cst.Name),
        (_BINDS, _BINDING),
    ):
        if issubclass(kind, classes):
            role |= flag
    _ROLES[kind] = role
    return role


def statements_in(root: cst.CSTNode) -> list[cst.CSTNode]:
    """The statements under `root` (itself too, when it is one), nested definitions left out as
    a Body leaves them out."""
    found: list[cst.CSTNode] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, STATEMENTS):
            found.append(node)
        if node is not root and isinstance(node, _OWN_SCOPES):
            continue
        stack.extend(children(node))
    return found


class Body:
    """The nodes of one function body (nested definitions left out), indexed once."""

    def __init__(self, function: FunctionInfo) -> None:
        self.function = function
        self.parents: dict[int, cst.CSTNode] = {}
        self.order: dict[int, int] = {}  # id(statement) -> its position, in source order
        self.loads: dict[str, list[cst.Name]] = {}  # names read, by name
        self.attributes: dict[str, list[cst.Attribute]] = {}  # `x.name` taken, by name
        self.globals: set[str] = set()  # names the body declares `global`
        self.bound: set[str] = set()  # names the body binds (assignments, loops, imports, ...)
        self.helpers: dict[int, HelperCall] = {id(c.node): c for c in function.calls}
        self.params: list[str] = []
        # name -> is it a set built here only to test membership (graph/seen_sets.py), once asked
        self.seen_sets: dict[str, bool] = {}
        root = function.node
        if isinstance(root, cst.FunctionDef):
            params = root.params
            self.params = [
                p.name.value
                for p in [*params.posonly_params, *params.params, *params.kwonly_params]
            ]
            start: list[cst.CSTNode] = [root.body]
        elif isinstance(root, cst.Module):
            start = list(root.body)
        else:  # a lambda: its body is an expression
            start = [root.body] if isinstance(root, cst.Lambda) else []
        stores: set[int] = set()
        stack: list[tuple[cst.CSTNode, cst.CSTNode | None]] = [(node, root) for node in start]
        stack.reverse()
        while stack:
            node, parent = stack.pop()
            if parent is not None:
                self.parents[id(node)] = parent
            role = _ROLES.get(type(node))
            if role is None:
                role = _role(type(node))
            if role & _STATEMENT:
                self.order[id(node)] = len(self.order)
            if role & _OWN_SCOPE and node is not root:
                continue
            if role & _IMPORT:
                self.bound.update(_imported(cast("cst.Import | cst.ImportFrom", node)))
                continue  # binds names; reads none the body follows
            if role & _ATTRIBUTE:
                attr = cast(cst.Attribute, node).attr
                stores.add(id(attr))  # `obj.region` reads `obj`, not a name `region`
                self.attributes.setdefault(attr.value, []).append(cast(cst.Attribute, node))
            elif role & _ARG:
                keyword = cast(cst.Arg, node).keyword
                if keyword is not None:
                    stores.add(id(keyword))
            if role & _BINDS:
                if role & _GLOBAL:
                    self.globals.update(n.name.value for n in cast(cst.Global, node).names)
                _mark_stores(node, stores, self.bound)
            if role & _NAME and id(node) not in stores:
                name = cast(cst.Name, node)
                self.loads.setdefault(name.value, []).append(name)
            kids = children(node)
            stack.extend([(child, node) for child in reversed(kids)])

    def parent_of(self, node: cst.CSTNode) -> cst.CSTNode | None:
        return self.parents.get(id(node))

    def statement_of(self, node: cst.CSTNode) -> cst.CSTNode | None:
        current: cst.CSTNode | None = node
        while current is not None and not isinstance(current, STATEMENTS):
            current = self.parents.get(id(current))
        return current

    def loops_around(self, statement: cst.CSTNode) -> list[cst.CSTNode]:
        found: list[cst.CSTNode] = []
        current = self.parents.get(id(statement))
        while current is not None:
            if isinstance(current, _LOOPS):
                found.append(current)
            current = self.parents.get(id(current))
        return found

    def inside(self, node: cst.CSTNode, ancestor: cst.CSTNode) -> bool:
        current: cst.CSTNode | None = node
        while current is not None:
            if current is ancestor:
                return True
            current = self.parents.get(id(current))
        return False

    def uses_after(self, name: str, statement: cst.CSTNode, within: bool = False) -> list[cst.Name]:
        """Where the value `name` gets in `statement` is read: later in the body until an
        unconditional rebinding in the same block, and anywhere in a loop around both; with
        `within` (an assignment expression), in the statement itself too."""
        start = self.order.get(id(statement), -1)
        end = self._rebinding_after(name, statement)
        loops = self.loops_around(statement)
        found = []
        for use in self.loads.get(name, []):
            home = self.statement_of(use)
            if home is None:
                continue
            position = self.order.get(id(home), -1)
            if home is statement and within:
                found.append(use)  # `f(c) for r in rows if (c := g(r))`: read after the store
                continue
            if home is statement and not isinstance(statement, cst.BaseCompoundStatement):
                continue  # `x = x + 1`: the read comes before this store
            later = position > start and (end is None or position <= end)
            if later or any(self.inside(home, loop) for loop in loops):
                found.append(use)
        return found

    def _rebinding_after(self, name: str, statement: cst.CSTNode) -> int | None:
        block = self.parents.get(id(statement))
        body = getattr(block, "body", None)
        if not isinstance(body, (list, tuple)):
            return None
        seen = False
        for item in body:
            if item is statement:
                seen = True
                continue
            if seen and _binds(item, name):
                return self.order.get(id(item))
        return None


def _binds(statement: cst.CSTNode, name: str) -> bool:
    """Does this simple statement bind `name` whatever happens (`name = ...`)?"""
    if not isinstance(statement, cst.SimpleStatementLine):
        return False
    for small in statement.body:
        targets: list[cst.BaseExpression] = []
        if isinstance(small, cst.Assign):
            targets = [t.target for t in small.targets]
        elif isinstance(small, cst.AnnAssign) and small.value is not None:
            targets = [small.target]
        if any(isinstance(t, cst.Name) and t.value == name for t in targets):
            return True
    return False


def _mark_stores(node: cst.CSTNode, stores: set[int], bound: set[str]) -> None:
    """The names a node binds rather than reads (an AugAssign's target is both: it stays read)."""
    targets: list[cst.CSTNode] = []
    if isinstance(node, cst.Assign):
        targets = [t.target for t in node.targets]
    elif isinstance(node, cst.AnnAssign):
        targets = [node.target]
    elif isinstance(node, (cst.For, cst.CompFor)):
        targets = [node.target]
    elif isinstance(node, cst.AsName):
        targets = [node.name]
    elif isinstance(node, cst.NamedExpr):
        targets = [node.target]
    elif isinstance(node, cst.Global):
        targets = [n.name for n in node.names]
    elif isinstance(node, cst.Nonlocal):
        targets = [n.name for n in node.names]
    while targets:
        target = targets.pop()
        if isinstance(target, cst.Name):
            stores.add(id(target))
            bound.add(target.value)
        elif isinstance(target, (cst.Tuple, cst.List)):
            targets.extend(e.value for e in target.elements)
        elif isinstance(target, cst.StarredElement):
            targets.append(target.value)


def _imported(node: cst.Import | cst.ImportFrom) -> set[str]:
    if isinstance(node.names, cst.ImportStar):
        return set()
    return {alias.evaluated_alias or alias.evaluated_name.split(".")[0] for alias in node.names}
