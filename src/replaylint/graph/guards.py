"""First-time initialization: a store guarded by a test that its target is still unset."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import libcst as cst

from replaylint.graph.syntax import sole_store
from replaylint.parse.children import children
from replaylint.resolve.model import FunctionInfo

_LEAVING = (cst.Return, cst.Raise, cst.Continue)
Block = Sequence[cst.CSTNode]  # a suite's statements (small ones in a one-line suite)
Same = Callable[[cst.CSTNode, cst.CSTNode], bool]  # two expressions spelled alike
Lookup = Callable[[cst.BaseExpression], cst.BaseExpression]  # a local, as what it was bound to


def first_write(function: FunctionInfo, statement: cst.CSTNode, target: cst.CSTNode) -> bool:
    """Is the store of `target` in `statement` guarded by a test that its target is still unset
    (`X is None`, `key not in CACHE`), in an `if` around it or an early exit before it? Then each
    process fills it once with the same kind of value, and no run decides anything by whether
    it was full: a once-per-process cache."""
    node = function.node
    if not isinstance(node, cst.FunctionDef):
        return False
    guards = _guards(node.body.body, statement)
    if guards is None:
        return False
    code = function.module.tree.code_for_node

    def same(a: cst.CSTNode, b: cst.CSTNode) -> bool:
        return "".join(code(a).split()) == "".join(code(b).split())

    looked_up: dict[str, cst.BaseExpression] | None = None

    def lookup(expr: cst.BaseExpression) -> cst.BaseExpression:
        nonlocal looked_up
        if not isinstance(expr, cst.Name):
            return expr
        if looked_up is None:  # walked only when a guard tests a bare name
            looked_up = _looked_up(node, _stored_name(statement))
        return looked_up.get(expr.value, expr)

    return any(_says_unset(test, holds, target, same, lookup) for test, holds in guards)


def _stored_name(statement: cst.CSTNode) -> str:
    """The local whose value the store keeps (`CACHE[key] = compiled`), if it keeps one."""
    store = sole_store(statement)
    value = store.value if store is not None else None
    return value.value if isinstance(value, cst.Name) else ""


def _looked_up(function: cst.FunctionDef, stored: str) -> dict[str, cst.BaseExpression]:
    """Locals first bound to an entry read with `.get` (`compiled = CACHE.get(key)`), and bound
    nowhere else, or else only to what the store keeps (`compiled = build(); CACHE[key] =
    compiled`): testing one tests the entry (`if compiled is None:`)."""
    bound: dict[str, list[cst.CSTNode]] = {}
    stack: list[cst.CSTNode] = [function.body]
    while stack:
        current = stack.pop()
        if isinstance(current, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        targets: list[cst.CSTNode] = []
        if isinstance(current, cst.Assign):
            targets = [t.target for t in current.targets]
        elif isinstance(current, (cst.AugAssign, cst.AnnAssign, cst.For, cst.NamedExpr)):
            targets = [current.target]
        for target in targets:
            if isinstance(target, cst.Name):
                bound.setdefault(target.value, []).append(current)
        stack.extend(reversed(children(current)))  # in source order
    found: dict[str, cst.BaseExpression] = {}
    for name, places in bound.items():
        place = places[0]
        once = len(places) == 1 or name == stored
        if once and isinstance(place, cst.Assign) and len(place.targets) == 1:
            value = place.value
            func = value.func if isinstance(value, cst.Call) else None
            if isinstance(func, cst.Attribute) and func.attr.value == "get":
                found[name] = value
    return found


def _guards(block: Block, statement: cst.CSTNode) -> list[tuple[cst.BaseExpression, bool]] | None:
    """The tests known to hold (True) or to fail (False) where `statement` runs in `block`, or
    None when it is not there."""
    known: list[tuple[cst.BaseExpression, bool]] = []
    for item in block:
        if item is statement:
            return known
        for inner, test, holds in _branches(item):
            found = _guards(inner, statement)
            if found is not None:
                return known + ([(test, holds)] if test is not None else []) + found
        if isinstance(item, cst.If) and item.orelse is None and _leaves(item.body.body):
            known.append((item.test, False))  # `if key in CACHE: return CACHE[key]`
    return None


def _branches(
    item: cst.CSTNode,
) -> Iterator[tuple[Block, cst.BaseExpression | None, bool]]:
    """The blocks a compound statement holds, with the test each one runs under."""
    if isinstance(item, cst.If):
        yield item.body.body, item.test, True
        orelse = item.orelse
        if isinstance(orelse, cst.If):
            yield (orelse,), item.test, False
        elif isinstance(orelse, cst.Else):
            yield orelse.body.body, item.test, False
    elif isinstance(item, (cst.For, cst.While, cst.With, cst.Try)):
        yield item.body.body, None, True
        if isinstance(item, cst.Try):
            for handler in item.handlers:
                yield handler.body.body, None, True
            if item.finalbody is not None:
                yield item.finalbody.body.body, None, True
        orelse = getattr(item, "orelse", None)
        if orelse is not None:
            yield orelse.body.body, None, True


def _leaves(block: Block) -> bool:
    last = block[-1] if block else None
    if isinstance(last, cst.SimpleStatementLine):
        last = last.body[-1]
    return isinstance(last, _LEAVING)


def _says_unset(
    test: cst.BaseExpression, holds: bool, target: cst.CSTNode, same: Same, lookup: Lookup
) -> bool:
    """Does `test` (holding, or failing) say that `target` has no value yet?"""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return _says_unset(test.expression, not holds, target, same, lookup)
    if isinstance(test, cst.BooleanOperation):
        # `a and b` holding, or `a or b` failing, says both sides hold (or fail).
        both = isinstance(test.operator, cst.And) == holds
        sides = (test.left, test.right)
        return both and any(_says_unset(side, holds, target, same, lookup) for side in sides)
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        operator = test.comparisons[0].operator
        right = test.comparisons[0].comparator
        if isinstance(operator, (cst.Is, cst.Equal, cst.IsNot, cst.NotEqual)):
            if not (isinstance(right, cst.Name) and right.value == "None"):
                return False
            unset_when = isinstance(operator, (cst.Is, cst.Equal))
            return holds == unset_when and _names(lookup(test.left), target, same)
        if isinstance(operator, (cst.In, cst.NotIn)) and isinstance(target, cst.Subscript):
            missing = holds == isinstance(operator, cst.NotIn)
            return missing and _keyed(target, test.left, right, same)
        return False
    return not holds and _names(lookup(test), target, same)  # `if not CLIENT:`, `if CLIENT: return`


def _names(expr: cst.BaseExpression, target: cst.CSTNode, same: Same) -> bool:
    """Is `expr` the target itself, or its entry read with `.get(key)`?"""
    if same(expr, target):
        return True
    if isinstance(target, cst.Subscript) and isinstance(expr, cst.Call) and expr.args:
        func = expr.func
        if isinstance(func, cst.Attribute) and func.attr.value == "get":
            return _keyed(target, expr.args[0].value, func.value, same)
    return False


def _keyed(
    target: cst.Subscript, key: cst.BaseExpression, container: cst.BaseExpression, same: Same
) -> bool:
    index = target.slice[0].slice if len(target.slice) == 1 else None
    return isinstance(index, cst.Index) and same(index.value, key) and same(target.value, container)
