"""The syntax value flow asks about: where a value decides, what an assignment targets, which
parameter an argument binds, and whether a use of some state reads it or writes into it."""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from replaylint.graph.bodies import Body
from replaylint.resolve.model import FunctionInfo

# Methods by which a container takes a value in: the container holds it afterwards.
TAKING = frozenset({"append", "extend", "insert", "add", "update", "setdefault", "appendleft"})
# Methods that change a container in place: calling one is no read of what it holds.
WRITING = TAKING | frozenset(
    {"remove", "discard", "clear", "sort", "reverse", "rotate"}  # `pop` returns what it takes
)


# Methods whose argument is only looked up, and those that keep it as a key.
_LOOKUP_METHODS = frozenset({"get", "pop", "discard", "remove", "__contains__"})
_KEYED_METHODS = _LOOKUP_METHODS | {"add", "setdefault"}
_IDENTITY_TESTS = (cst.In, cst.NotIn, cst.Equal, cst.NotEqual, cst.Is, cst.IsNot)


def used_as_key(
    node: cst.CSTNode,
    parent_of: Callable[[cst.CSTNode], cst.CSTNode | None],
    lookups_only: bool = False,
) -> bool:
    """Is the value of `node` only a key here (`memo[k]`, `{k: v}`, `seen.add(k)`, `k in seen`,
    `a == b`)? For an identity or a hash, lookups and equality come out the same in every
    process; only the number itself differs. `lookups_only`: only where it finds an entry
    (`memo[k]`, `memo.get(k)`): a key kept in a container (`{k: v}`, `seen.add(k)`) may go
    wherever the container goes, and a test may test state the process built."""
    parent = parent_of(node)
    if isinstance(parent, cst.Index):
        return True
    if isinstance(parent, cst.Arg):
        call = parent_of(parent)
        func = call.func if isinstance(call, cst.Call) else None
        methods = _LOOKUP_METHODS if lookups_only else _KEYED_METHODS
        return isinstance(func, cst.Attribute) and func.attr.value in methods
    if lookups_only:
        return False
    if isinstance(parent, cst.DictElement):
        return parent.key is node
    if isinstance(parent, cst.ComparisonTarget):
        return isinstance(parent.operator, _IDENTITY_TESTS)
    if isinstance(parent, cst.Comparison):
        return all(isinstance(t.operator, _IDENTITY_TESTS) for t in parent.comparisons)
    return False


def decision_at(parent: cst.CSTNode, child: cst.CSTNode) -> str | None:
    """Does `parent` decide by `child` (a condition, an iterated value, a match's subject)?"""
    if isinstance(parent, cst.If) and parent.test is child:
        return "the condition"
    if isinstance(parent, cst.While) and parent.test is child:
        return "the loop condition"
    if isinstance(parent, cst.For) and parent.iter is child:
        return "the loop"
    if isinstance(parent, cst.Match) and parent.subject is child:
        return "the match"
    if isinstance(parent, cst.Assert) and parent.test is child:
        return "the assertion"
    return None


def sole_store(statement: cst.CSTNode | None) -> cst.Assign | cst.AnnAssign | None:
    """The one assignment a statement line makes (`CACHE[key] = value`), if it makes one."""
    small = statement.body if isinstance(statement, cst.SimpleStatementLine) else [statement]
    stores = [s for s in small if isinstance(s, (cst.Assign, cst.AnnAssign))]
    return stores[0] if len(stores) == 1 else None


def assigned(statement: cst.Assign | cst.AnnAssign | cst.AugAssign) -> list[cst.BaseExpression]:
    if isinstance(statement, cst.Assign):
        return [t.target for t in statement.targets]
    return [statement.target]


def root_name(target: cst.BaseExpression) -> tuple[cst.Name | None, str | None]:
    """The name an assignment target starts from, and the first attribute taken of it."""
    first: str | None = None
    node: cst.BaseExpression = target
    while isinstance(node, (cst.Attribute, cst.Subscript)):
        if isinstance(node, cst.Attribute):
            first = node.attr.value
        else:
            first = first or ""
        node = node.value
    return (node, first) if isinstance(node, cst.Name) else (None, None)


def self_name(function: FunctionInfo) -> str:
    node = function.node
    if function.cls is None or not isinstance(node, cst.FunctionDef):
        return ""
    params = [*node.params.posonly_params, *node.params.params]
    return params[0].name.value if params else ""


def parameter(target: FunctionInfo, call: cst.Call, arg: cst.Arg) -> str | None:
    """The parameter of `target` that `arg` binds: by name, by position, or else the
    `**kwargs` or `*args` that collects it (whose reads carry the value on)."""
    node = target.node
    if not isinstance(node, cst.FunctionDef):
        return None
    params = node.params
    if arg.keyword is not None:
        every = [*params.posonly_params, *params.params, *params.kwonly_params]
        if any(p.name.value == arg.keyword.value for p in every):
            return arg.keyword.value
        return _collector(params.star_kwarg)
    if arg.star:
        return None
    positional = [*params.posonly_params, *params.params]
    if target.cls is not None and isinstance(call.func, cst.Attribute):
        positional = positional[1:]  # `self.helper(x)`: the first parameter is the instance
    plain = [a for a in call.args if a.keyword is None]
    index = next(i for i, a in enumerate(plain) if a is arg)
    if index < len(positional):
        return positional[index].name.value
    return _collector(params.star_arg)


def _collector(param: object) -> str | None:
    return param.name.value if isinstance(param, cst.Param) else None


def binds_locally(body: Body, name: str) -> bool:
    return name in body.bound or name in body.params


def reads(body: Body, use: cst.CSTNode) -> bool:
    """Is this a read of the state, not a write into it (`X += 1`, `X.append(v)`, `X[k] = v`,
    `X.attr = v`, `del X[k]`, `X = X + 1`)?"""
    node = use
    parent = body.parents.get(id(node))
    if isinstance(parent, cst.AugAssign) and parent.target is node:
        return False  # `COUNT += 1`
    # Climb the subscripts and attributes the write goes through: `X[k]["hits"] += 1`.
    while isinstance(parent, (cst.Attribute, cst.Subscript)) and parent.value is node:
        holder = body.parents.get(id(parent))
        if isinstance(holder, (cst.AssignTarget, cst.Del)) or (
            isinstance(holder, cst.AugAssign) and holder.target is parent
        ):
            return False
        if isinstance(parent, cst.Attribute) and isinstance(holder, cst.Call):
            if holder.func is parent and parent.attr.value in WRITING:
                return False  # `CAPTURED.append(x)`
        node, parent = parent, holder
    statement = body.statement_of(use)
    if isinstance(statement, cst.SimpleStatementLine) and isinstance(use, cst.Name):
        for small in statement.body:
            if isinstance(small, cst.Assign):
                if any(names(t.target, use.value) for t in small.targets):
                    return False  # `COUNT = COUNT + 1`
    return True


def written(node: cst.CSTNode) -> str:
    text = " ".join(cst.Module(body=[]).code_for_node(node).split())
    return text if len(text) <= 50 else text[:47] + "..."


def names(target: cst.BaseExpression, name: str) -> bool:
    return isinstance(target, cst.Name) and target.value == name


def is_key(call: cst.Call, arg: cst.Arg, keys: tuple[str, ...] | None) -> bool:
    """Is `arg` one of the call's `keys` (positions as "0", keywords by name; None: all)?"""
    if keys is None:
        return True
    if arg.keyword is not None:
        return arg.keyword.value in keys
    plain = [a for a in call.args if a.keyword is None and not a.star]
    index = next((i for i, a in enumerate(plain) if a is arg), None)
    return index is not None and str(index) in keys
