"""A node's children without rebuilding it.

LibCST's `node.children` collects them by running the node's `_visit_and_replace_children`,
which constructs (and validates) a copy of the node: on a large module a traversal through
`children` costs more than parsing it. The fields that method visits, in the order it visits
them, are read once per class from its compiled code (each visit names its field, as a string
constant: `visit_required(self, "func", self.func, visitor)`, and the constants are kept in the
order they are first written), and the children are then read straight from those fields: the
same nodes, in the same (lexical) order, with nothing built. (Reading the method's source
instead, as this once did, tokenizes LibCST's modules: ten milliseconds and more in every
process's first check.)
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence

import libcst as cst

_FIELDS: dict[type, tuple[str, ...] | None] = {}  # None: `node.children` (no fields to read)
_NODE_TYPES: dict[type, bool] = {}


def children(node: cst.CSTNode) -> Sequence[cst.CSTNode]:
    """`node.children`, read from the node's fields."""
    kind = type(node)
    if kind not in _FIELDS:
        _FIELDS[kind] = _visited_fields(kind)
    fields = _FIELDS[kind]
    if fields is None:
        return node.children
    found: list[cst.CSTNode] = []
    for name in fields:
        value = getattr(node, name)
        if is_node(value):
            found.append(value)
        elif isinstance(value, (tuple, list)):
            found.extend(item for item in value if is_node(item))
    return found


def is_node(value: object) -> bool:
    """isinstance(value, CSTNode), decided once per type: CSTNode is an abstract base class,
    whose isinstance runs Python code on every call (1.5 million calls on sdk-python)."""
    kind = type(value)
    found = _NODE_TYPES.get(kind)
    if found is None:
        found = _NODE_TYPES[kind] = issubclass(kind, cst.CSTNode)
    return found


def _visited_fields(kind: type) -> tuple[str, ...] | None:
    """The fields `kind`'s `_visit_and_replace_children` visits, in order (None for a class
    that declares no fields, or an abstract one, never built: `node.children` then)."""
    if inspect.isabstract(kind):
        return None
    fields = getattr(kind, "__dataclass_fields__", None)
    for owner in kind.__mro__:
        method = owner.__dict__.get("_visit_and_replace_children")
        if method is None:
            continue
        code = getattr(method, "__code__", None)
        if not fields or code is None:
            return None
        return tuple(c for c in code.co_consts if isinstance(c, str) and c in fields)
    return None


def parent_map(root: cst.CSTNode) -> dict[cst.CSTNode, cst.CSTNode]:
    """Each node under `root` -> its parent: what LibCST's ParentNodeProvider gives, without the
    copy of every node that its `node.children` builds (a third of a second on a 3,000-line
    module). Parents are set as each node is left, as the provider sets them."""
    parents: dict[cst.CSTNode, cst.CSTNode] = {}
    stack: list[tuple[cst.CSTNode, bool]] = [(root, False)]
    while stack:
        node, left = stack.pop()
        found = children(node)
        if left:
            for child in found:
                parents[child] = node
            continue
        stack.append((node, True))
        stack.extend((child, False) for child in reversed(found))
    return parents


def mentions(node: cst.CSTNode, name: str) -> bool:
    """Does `node`, or anything under it, read or bind the name `name`?"""
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, cst.Name) and current.value == name:
            return True
        stack.extend(children(current))
    return False


def target_names(target: cst.CSTNode) -> list[cst.Name]:
    """The names an assignment or loop target binds (`a`, `a, (b, *c)`, `[a, b]`)."""
    found: list[cst.Name] = []
    stack = [target]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Name):
            found.append(node)
        elif isinstance(node, (cst.Tuple, cst.List, cst.Element, cst.StarredElement)):
            stack.extend(children(node))
    return found
