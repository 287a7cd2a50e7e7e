"""ADK-W010 unordered-iteration-in-workflow: an order decided by hashing or memory addresses. Docs and examples: rules/ADK-W010.md."""

from __future__ import annotations

import libcst as cst

from replaylint.core.codes import Code
from replaylint.graph.bodies import Body
from replaylint.graph.seen_sets import only_looked_up
from replaylint.graph.singletons import at_most_one
from replaylint.graph.syntax import sole_store, used_as_key
from replaylint.parse.children import children, mentions
from replaylint.resolve.facts import BuiltinCall, Fact, Iteration, MethodCall
from replaylint.resolve.model import FunctionInfo, Hit
from replaylint.resolve.values import SetOf, Value, hashes_by_value
from replaylint.rules.base import FactRule, Reason, Replay

# Builtins that hand their arguments' elements on in the order they iterate them, by the
# position of the first argument they iterate (`map(f, s)` iterates from the second).
_ORDER_KEEPING = {"list": 0, "tuple": 0, "enumerate": 0, "zip": 0, "iter": 0, "map": 1, "filter": 1}
# Builtins whose items pair each element with another (an index, a partner): sorting the
# pairs afterwards keeps the hash order in them.
_PAIRING = frozenset({"enumerate", "zip"})
# Consumers whose result does not depend on the order they are fed in (replaylint's `stable`
# sorts by a canonical key).
_ORDER_FREE = frozenset(
    {
        "builtins.sorted",
        "builtins.set",
        "builtins.frozenset",
        "builtins.min",
        "builtins.max",
        "builtins.len",
        "builtins.any",
        "builtins.all",
        "builtins.sum",
        "replaylint.workflows.stable",
        "replaylint.workflows.ordering.stable",
    }
)
# Methods that take their argument's elements in its iteration order, or an arbitrary one.
_ORDER_TAKING = frozenset({"join", "fromkeys"})
# Where hashing an object is the object's own business, not a decision of the workflow.
_HASHING_METHODS = frozenset({"__hash__", "__eq__"})


def _used_as_key(fact: BuiltinCall) -> bool:
    """Is the identity or hash only a key (`memo[id(x)]`, `id(a) == id(b)`, `seen.add(id(x))`)?"""
    statement = fact.site.statement
    return used_as_key(fact.node, lambda node: _parent(statement, node))


def _parent(root: cst.CSTNode | None, node: cst.CSTNode) -> cst.CSTNode | None:
    """The node holding `node` inside the statement `root` (searched only to report)."""
    stack = [root] if root is not None else []
    while stack:
        current = stack.pop()
        for child in children(current):
            if child is node:
                return current
            stack.append(child)
    return None


_NUMBERS = frozenset({"int", "float", "bool", "complex"})


def _annotated_number(fact: BuiltinCall) -> bool:
    """Is the argument a parameter annotated as a number (whose hash is its value)?"""
    call = fact.node
    function = fact.site.function.node
    if not isinstance(call, cst.Call) or not call.args or not isinstance(function, cst.FunctionDef):
        return False
    arg = call.args[0].value
    if not isinstance(arg, cst.Name):
        return False
    params = function.params
    for param in [*params.posonly_params, *params.params, *params.kwonly_params]:
        if param.name.value == arg.value and param.annotation is not None:
            annotation = param.annotation.annotation
            return isinstance(annotation, cst.Name) and annotation.value in _NUMBERS
    return False


def _of_a_singleton(fact: MethodCall | BuiltinCall) -> bool:
    """`roots.pop()` or `iter(roots)` where `roots` holds at most one element
    (graph/singletons.py)."""
    call = fact.node
    if not isinstance(call, cst.Call):
        return False
    if isinstance(fact, MethodCall):
        given = call.func.value if isinstance(call.func, cst.Attribute) else None
    else:
        given = call.args[0].value if len(call.args) == 1 else None
    if not isinstance(given, cst.Name):
        return False
    return at_most_one(Body(fact.site.function), fact.site.statement, given.value)


def _each_pass_its_own_key(loop: cst.CSTNode | None, function: FunctionInfo) -> bool:
    """Does every statement of the loop only touch the loop's own element's place in a
    container, never failing? Adding, discarding or dropping the element (`seen.discard(k)`,
    `streams.pop(k, None)`; `del index[k]` may raise at whichever key is missing first), or,
    in a dict only ever asked for entries by key, setting its entry to a value no pass changes
    (`results[k] = {"skipped": k}`) or adding such a value to the set its entry holds
    (`dependents[k].add(step)`). Passes that touch only their own key leave the same state in
    any order, and an order the dict took its keys in is never seen."""
    if not isinstance(loop, cst.For) or loop.orelse is not None:
        return False
    if not isinstance(loop.target, cst.Name) or not isinstance(loop.body, cst.IndentedBlock):
        return False
    key = loop.target.value
    entries: set[str] = set()  # the dicts whose entries the passes set
    for line in loop.body.body:
        if not isinstance(line, cst.SimpleStatementLine):
            return False
        if not all(_touches_own_key(small, key, entries) for small in line.body):
            return False
    body = Body(function) if entries else None
    return body is None or all(only_looked_up(body, name) for name in entries)


def _touches_own_key(small: cst.BaseSmallStatement, key: str, entries: set[str]) -> bool:
    if isinstance(small, cst.Assign) and len(small.targets) == 1:
        table = _entry_of(small.targets[0].target, key)
        if table is None or not _settled(small.value, table):
            return False
        entries.add(table)
        return True
    call = small.value if isinstance(small, cst.Expr) else None
    if not isinstance(call, cst.Call) or not isinstance(call.func, cst.Attribute):
        return False
    method, args = call.func.attr.value, call.args
    table = _entry_of(call.func.value, key)
    if table is not None and method in _SET_ADDS and len(args) == 1:
        entries.add(table)  # `dependents[k].add(step)`: each pass fills its own entry's set
        return _settled(args[0].value, table)
    wanted = 2 if method == "pop" else 1  # a pop without a default raises for a missing key
    if method not in _OWN_KEY_METHODS or len(args) != wanted or not _is_name(args[0].value, key):
        return False
    return not mentions(call.func.value, key) and all(
        not mentions(arg.value, key) for arg in args[1:]
    )


def _entry_of(node: cst.BaseExpression, key: str) -> str | None:
    """The dict `node` is the loop element's entry of (`results[k]`), by its name."""
    if not isinstance(node, cst.Subscript) or not isinstance(node.value, cst.Name):
        return None
    if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
        return None
    return node.value.value if _is_name(node.slice[0].slice.value, key) else None


def _settled(value: cst.BaseExpression, table: str) -> bool:
    """Is `value` the same whichever pass comes first: made of names and literals only (no
    call, which could count or draw), and not read from the dict being filled?"""
    stack: list[cst.CSTNode] = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.Call, cst.Await, cst.Yield, cst.NamedExpr, cst.Lambda)):
            return False
        if isinstance(node, cst.BaseComp):
            return False
        stack.extend(children(node))
    return not mentions(value, table)


def _is_name(node: cst.CSTNode, name: str) -> bool:
    return isinstance(node, cst.Name) and node.value == name


def _a_dict_only_looked_up(fact: Iteration) -> bool:
    """Is the dict the comprehension builds bound to a local only ever asked for entries?"""
    assign = sole_store(fact.site.statement)
    if isinstance(assign, cst.Assign) and len(assign.targets) == 1:
        target: cst.BaseExpression = assign.targets[0].target
    elif isinstance(assign, cst.AnnAssign):
        target = assign.target  # `results: dict[str, dict] = {k: ... for k in s}`
    else:
        return False
    if not isinstance(target, cst.Name) or not isinstance(assign.value, cst.DictComp):
        return False
    return only_looked_up(Body(fact.site.function), target.value)


def _ties_by_key(fact: BuiltinCall) -> bool:
    """`max(names, key=len)` of a set: of the elements whose keys tie, the first in iteration
    order wins, and that order is the set's hash order (with no key, elements never tie)."""
    call = fact.node
    if not isinstance(call, cst.Call) or len(fact.args) != 1 or not _hash_ordered(fact.args[0]):
        return False
    return any(arg.keyword is not None and arg.keyword.value == "key" for arg in call.args)


def _hash_ordered(value: Value) -> bool:
    return isinstance(value, SetOf) and value.hash_ordered


_ORDER = "order"  # an order taken from hashing: kept on every path but a query's
_OWN_KEY_METHODS = frozenset({"add", "discard", "pop"})
_SET_ADDS = frozenset({"add", "discard"})


class UnorderedIterationInWorkflow(FactRule):
    code = Code.W010
    facts = (Iteration, BuiltinCall, MethodCall)

    def confirm(self, hit: Hit, function: FunctionInfo, replay: Replay) -> Reason | None:
        """`id()` and `hash()` are reported where their number decides the replay; an order
        taken from hashing is reported wherever it is taken (the report says so), except in
        an entry whose result only answers its caller (a query), in code only a replay never
        runs again reaches (an update's validator), or where what it builds only goes into a
        log line: no history holds any of these."""
        if hit.pending == _ORDER:
            flow = replay.flow
            if flow.sinks.answers(function) or id(function) in flow.not_rerun:
                return None
            if flow.only_logged(function, hit.node):
                return None
            return Reason("")
        decision = replay.flow.reaches(function, hit.node, stable_keys=True)
        return Reason("it reaches", decision) if decision is not None else None

    def on_fact(self, fact: Fact) -> None:
        if isinstance(fact, Iteration):
            self._iteration(fact)
        elif isinstance(fact, BuiltinCall):
            self._builtin(fact)
        elif isinstance(fact, MethodCall):
            if _hash_ordered(fact.receiver) and fact.method == "pop" and not fact.args:
                if not _of_a_singleton(fact):
                    self.report(
                        fact, fact.written(), "takes an arbitrary element of a set", pending=_ORDER
                    )
            elif fact.method in _ORDER_TAKING and any(_hash_ordered(a) for a in fact.args):
                self.report(
                    fact, fact.written(), "takes a set's elements in hash order", pending=_ORDER
                )

    def _iteration(self, fact: Iteration) -> None:
        if not _hash_ordered(fact.value):
            return
        if fact.within == "set" or fact.consumer in _ORDER_FREE:
            return  # the result is a set again, or sorted, counted, or tested
        if fact.within == "for" and _each_pass_its_own_key(fact.site.statement, fact.site.function):
            return  # `for k in gone: cache.pop(k, None)`: any order leaves the same state
        if fact.within == "dict" and _a_dict_only_looked_up(fact):
            return  # `deps = {k: set() for k in ids}`, then only `deps[k]`: no order is seen
        self.report(fact, fact.written(), "iterates a set in hash order", pending=_ORDER)

    def _builtin(self, fact: BuiltinCall) -> None:
        name = fact.name
        if name in ("hash", "id") and fact.args:
            if fact.site.function.name in _HASHING_METHODS or _used_as_key(fact):
                return
            if name == "hash" and _annotated_number(fact):
                return  # `hash(order_number)` of an `int` parameter: the number itself
            if name == "id" or not hashes_by_value(fact.args[0]):
                reason = f"{name}() differs from one process to the next"
                self.report(fact, fact.written(), reason, pending="flow")
            return
        if name in ("min", "max") and _ties_by_key(fact):
            reason = "picks among equal keys in a set's hash order"
            self.report(fact, fact.written(), reason, pending=_ORDER)
            return
        first = _ORDER_KEEPING.get(name)
        if first is None or not any(_hash_ordered(arg) for arg in fact.args[first:]):
            return
        if fact.consumer in _ORDER_FREE and name not in _PAIRING:
            return  # `sorted(list(s))`: sorted after all
        if name == "iter" and fact.consumer == "builtins.next" and _of_a_singleton(fact):
            return  # `next(iter(s))` of a set known to hold one element: that element
        self.report(fact, fact.written(), "takes a set's elements in hash order", pending=_ORDER)
