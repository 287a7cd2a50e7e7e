"""One function's body indexed for following values: parents, statements in order, names read."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from replaylint.parse.children import children
from replaylint.resolve.model import FunctionInfo, HelperCall

# A definition inside a body is a function of its own (walked, and followed, as one).
_OWN_SCOPES = (cst.FunctionDef, cst.ClassDef, cst.Lambda)
_LOOPS = (cst.For, cst.While)
STATEMENTS = (cst.SimpleStatementLine, cst.BaseCompoundStatement)


def _children(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    return iter(children(node))


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
            if isinstance(node, STATEMENTS):
                self.order[id(node)] = len(self.order)
            if isinstance(node, _OWN_SCOPES) and node is not root:
                continue
            if isinstance(node, (cst.Import, cst.ImportFrom)):
                self.bound.update(_imported(node))
                continue  # binds names; reads none the body follows
            if isinstance(node, cst.Attribute):
                stores.add(id(node.attr))  # `obj.region` reads `obj`, not a name `region`
                self.attributes.setdefault(node.attr.value, []).append(node)
            elif isinstance(node, cst.Arg) and node.keyword is not None:
                stores.add(id(node.keyword))
            if isinstance(node, cst.Global):
                self.globals.update(n.name.value for n in node.names)
            _mark_stores(node, stores, self.bound)
            if isinstance(node, cst.Name) and id(node) not in stores:
                self.loads.setdefault(node.value, []).append(node)
            stack.extend((child, node) for child in reversed(list(_children(node))))

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

    def uses_after(self, name: str, statement: cst.CSTNode) -> list[cst.Name]:
        """Where the value `name` gets in `statement` is read: later in the body until an
        unconditional rebinding in the same block, and anywhere in a loop around both."""
        start = self.order.get(id(statement), -1)
        end = self._rebinding_after(name, statement)
        loops = self.loops_around(statement)
        found = []
        for use in self.loads.get(name, []):
            home = self.statement_of(use)
            if home is None:
                continue
            position = self.order.get(id(home), -1)
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
