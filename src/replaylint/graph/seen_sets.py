"""Sets of identities a run builds only to ask "have I met this object already?" (a walk over
an exception chain or a graph that stops at a cycle), and dicts it builds to keep an entry per
object (`memo = {}`, then `if key not in memo: memo[key] = build(x)`, `memo[key]`). Whether
`id(x)` is in such a container comes out the same in every process: it holds the identities of
this run's own objects, and nothing reads the numbers back out of it. So a key kept there, or
tested against it, decides nothing (graph/flow.py); a container that is iterated, returned or
handed on is followed as before."""

from __future__ import annotations

import libcst as cst

from replaylint.graph.bodies import Body
from replaylint.parse.children import children, mentions

# The calls by which such a set takes a key in, or lets one go: none hands a number back.
_KEEPING = frozenset({"add", "discard", "remove"})
# The calls by which such a dict finds, keeps or drops the entry of a key: each hands back the
# entry, never a key.
_ENTRIES = frozenset({"get", "setdefault", "pop"})
_FRESH = frozenset({"set", "dict"})


def tested_in_a_seen_set(body: Body, key: cst.CSTNode) -> bool:
    """Is `key` here only put in, or tested against, a set the function builds for itself
    and uses for nothing else (`seen = set()`, then only `k in seen` and `seen.add(k)`)?"""
    container = _container(body, key)
    if container is None:
        return False
    name = container.value
    known = body.seen_sets.get(name)
    if known is None:
        known = _only_a_seen_set(body, name) or _an_enclosing_seen_set(body, name)
        body.seen_sets[name] = known
    return known


def _only_a_seen_set(body: Body, name: str) -> bool:
    if name in body.globals or name in body.params or name not in body.bound:
        return False
    uses = body.loads.get(name, [])
    return all(_membership_use(body, use) for use in uses) and _made_fresh(body, name)


def only_looked_up(body: Body, name: str) -> bool:
    """Is the local `name` only ever asked for entries by key (`d[k]`, `d.get(k)`, `k in d`),
    never iterated, returned or handed on, whatever it was bound to? Then the order its keys
    went in (a dict built over a set) is never seen."""
    if name in body.globals or name in body.params or name not in body.bound:
        return False
    if not all(_membership_use(body, use) for use in body.loads.get(name, [])):
        return False
    stack: list[cst.CSTNode] = list(children(body.function.node))
    while stack:  # a nested scope may read it some other way
        node = stack.pop()
        if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            if mentions(node, name):
                return False
            continue
        stack.extend(children(node))
    return True


def _an_enclosing_seen_set(body: Body, name: str) -> bool:
    """The same, for a set the enclosing function builds and this nested one (a recursive
    walk, `def visit(n)`) alone tests and fills: no other scope mentions it."""
    outer = body.function.parent
    if outer is None or name in body.globals or name in body.params or name in body.bound:
        return False
    around = Body(outer)
    if name in around.globals or name in around.params or name not in around.bound:
        return False
    uses = [*around.loads.get(name, [])]
    if not all(_membership_use(around, use) for use in uses):
        return False
    if not all(_membership_use(body, use) for use in body.loads.get(name, [])):
        return False
    return _made_fresh(around, name, inner=body.function.node)


def _container(body: Body, key: cst.CSTNode) -> cst.Name | None:
    """The set `key` is tested against (`key in seen`) or given to (`seen.add(key)`)."""
    parent = body.parent_of(key)
    if isinstance(parent, cst.Comparison) and parent.left is key:
        if len(parent.comparisons) == 1:
            target = parent.comparisons[0]
            if isinstance(target.operator, (cst.In, cst.NotIn)):
                found = target.comparator
                return found if isinstance(found, cst.Name) else None
        return None
    if isinstance(parent, cst.Arg):
        call = body.parent_of(parent)
        if isinstance(call, cst.Call) and len(call.args) == 1:
            func = call.func
            if isinstance(func, cst.Attribute) and func.attr.value in _KEEPING:
                return func.value if isinstance(func.value, cst.Name) else None
    return None


def _membership_use(body: Body, use: cst.Name) -> bool:
    """`k in seen`, `k not in seen`, or `seen.add(k)` (and discard, remove) as a statement; of
    a dict, an entry found, kept or dropped by its key (`memo[k]`, `memo.get(k)`)."""
    parent = body.parent_of(use)
    if isinstance(parent, cst.ComparisonTarget):
        return parent.comparator is use and isinstance(parent.operator, (cst.In, cst.NotIn))
    if isinstance(parent, cst.Subscript) and parent.value is use:
        return True
    if isinstance(parent, cst.Attribute) and parent.value is use:
        call = body.parent_of(parent)
        if not isinstance(call, cst.Call) or call.func is not parent:
            return False
        if parent.attr.value in _ENTRIES:
            return True
        if parent.attr.value in _KEEPING:
            return isinstance(body.parent_of(call), cst.Expr)  # what it returns is not kept
    return False


def _made_fresh(body: Body, name: str, inner: cst.CSTNode | None = None) -> bool:
    """Is every binding of `name` in the body an empty set or dict made there (`set()`,
    `{}`, annotated or not), never another object under a new name? `inner`: the one nested
    scope allowed to use it (its uses are checked apart)."""
    stack: list[cst.CSTNode] = [body.function.node]
    made = False
    while stack:
        node = stack.pop()
        if node is inner:
            continue
        if node is not body.function.node and isinstance(
            node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)
        ):
            if mentions(node, name):
                return False  # a nested scope may read it some other way
            continue
        if isinstance(node, (cst.Assign, cst.AnnAssign)):
            targets = (
                [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
            )
            if any(isinstance(t, cst.Name) and t.value == name for t in targets):
                if len(targets) != 1 or not _empty(node.value):
                    return False
                made = True
            elif any(mentions(t, name) and not _entry_of(t, name) for t in targets):
                return False  # unpacked into (`seen, n = other, 0`): another object
        elif _rebinds(node, name):
            return False  # `for seen in groups`, `(seen := load())`, `with open() as seen`
        stack.extend(children(node))
    return made


def _entry_of(target: cst.BaseExpression, name: str) -> bool:
    """`memo[k] = v`: an entry of the container stored, the container itself kept."""
    value = target.value if isinstance(target, cst.Subscript) else None
    return isinstance(value, cst.Name) and value.value == name


def _rebinds(node: cst.CSTNode, name: str) -> bool:
    if isinstance(node, (cst.For, cst.CompFor)):
        return mentions(node.target, name)
    if isinstance(node, (cst.NamedExpr, cst.AugAssign)):
        return mentions(node.target, name)
    if isinstance(node, cst.WithItem) and node.asname is not None:
        return mentions(node.asname.name, name)
    return False


def _empty(value: cst.BaseExpression | None) -> bool:
    if isinstance(value, cst.Dict):
        return not value.elements
    if isinstance(value, cst.Call) and not value.args:
        return isinstance(value.func, cst.Name) and value.func.value in _FRESH
    return False
