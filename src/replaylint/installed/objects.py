"""The values of followed code (paths and definitions) and the syntax helpers that read them."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from astroid import nodes

from replaylint.resolve.call_args import CallArgs

MAX_VALUES = 16  # candidates kept per expression: enough for branches, bounded for hubs
NO_ARGS = CallArgs(0, {})


@dataclass(frozen=True)
class Mod:
    name: str


@dataclass(frozen=True)
class Cls:
    module: str
    qual: str
    line: int
    node: nodes.ClassDef = field(compare=False, repr=False)

    @property
    def path(self) -> str:
        return f"{self.module}.{self.qual}"


@dataclass(frozen=True)
class Inst:
    cls: Cls


@dataclass(frozen=True)
class Fn:
    """A followed function; for a method, `receiver` is the class whose instance `self` is."""

    module: str
    qual: str
    line: int
    node: nodes.FunctionDef = field(compare=False, repr=False)
    receiver: Cls | None = None

    @property
    def path(self) -> str:
        return f"{self.module}.{self.qual}"


@dataclass(frozen=True)
class InstalledSuper:
    receiver: Cls
    after: Cls


InstalledValue = str | Mod | Cls | Inst | Fn | InstalledSuper


def qualname(node: nodes.FunctionDef | nodes.ClassDef) -> str:
    parts = [node.name]
    parent = node.parent
    while parent is not None and not isinstance(parent, nodes.Module):
        if isinstance(parent, nodes.FunctionDef):
            parts += ["<locals>", parent.name]
        elif isinstance(parent, nodes.ClassDef):
            parts.append(parent.name)
        parent = parent.parent
    return ".".join(reversed(parts))


def method_kind(node: nodes.FunctionDef) -> str:
    """ "static", "class", "property", "accessor" (a setter/deleter) or "method"."""
    for decorator in node.decorators.nodes if node.decorators else ():
        name = decorator.name if isinstance(decorator, nodes.Name) else ""
        name = decorator.attrname if isinstance(decorator, nodes.Attribute) else name
        if name == "staticmethod":
            return "static"
        if name == "classmethod":
            return "class"
        if name in ("property", "cached_property"):
            return "property"
        if name in ("setter", "deleter"):
            return "accessor"
    return "method"


def own_nodes(scope: nodes.NodeNG, kind: type, skip: tuple[type, ...]) -> Iterator[nodes.NodeNG]:
    """Nodes of `kind` in a function's own body, not inside the nested scopes in `skip`."""
    for stmt in getattr(scope, "body", ()):
        if not isinstance(stmt, skip):
            yield from stmt.nodes_of_class(kind, skip_klass=skip)


def fold_string(node: nodes.NodeNG) -> str | None:
    """A constant string, also one built with `+` from constant strings."""
    if isinstance(node, nodes.Const) and isinstance(node.value, str):
        return node.value
    if isinstance(node, nodes.BinOp) and node.op == "+":
        left, right = fold_string(node.left), fold_string(node.right)
        return left + right if left is not None and right is not None else None
    return None


def call_args(call: nodes.Call) -> CallArgs:
    count, strings = 0, {}
    for index, arg in enumerate(call.args):
        if isinstance(arg, nodes.Const) and arg.value is None:
            continue
        count += 1
        text = fold_string(arg) if index == 0 else None
        if text is not None:
            strings["0"] = text
    for keyword in call.keywords or ():
        if isinstance(keyword.value, nodes.Const) and keyword.value.value is None:
            continue
        count += 1
        text = fold_string(keyword.value)
        if keyword.arg and text is not None:
            strings[keyword.arg] = text
    return CallArgs(count, strings)


def unique(values: Iterable[InstalledValue]) -> list[InstalledValue]:
    return list(dict.fromkeys(values))[:MAX_VALUES]


def assigned_value(target: nodes.NodeNG) -> nodes.NodeNG | None:
    """The expression an assignment target (a name or `self.x`) receives, when it is plain."""
    parent = target.parent
    if isinstance(parent, (nodes.Assign, nodes.AnnAssign, nodes.NamedExpr)):
        return parent.value
    if isinstance(parent, (nodes.Tuple, nodes.List)) and isinstance(parent.parent, nodes.Assign):
        value = parent.parent.value
        if isinstance(value, (nodes.Tuple, nodes.List)) and len(value.elts) == len(parent.elts):
            index = next(i for i, elt in enumerate(parent.elts) if elt is target)
            return value.elts[index]
    if isinstance(parent, nodes.With):
        for expr, bound in parent.items:
            if bound is target:  # `with httpx.Client() as c`: the client's __enter__ is itself
                return expr
    return None


def parameter_parts(
    args: nodes.Arguments, target: nodes.AssignName
) -> tuple[nodes.NodeNG | None, nodes.NodeNG | None]:
    """A parameter's (annotation, default)."""
    positional = [*(args.posonlyargs or []), *(args.args or [])]
    index = next((i for i, arg in enumerate(positional) if arg is target), None)
    if index is not None:
        annotations = [*(args.posonlyargs_annotations or []), *(args.annotations or [])]
        defaults = args.defaults or []
        offset = len(positional) - len(defaults)
        return (
            annotations[index] if index < len(annotations) else None,
            defaults[index - offset] if index >= offset else None,
        )
    for index, arg in enumerate(args.kwonlyargs or []):
        if arg is target:
            annotations = args.kwonlyargs_annotations or []
            defaults = args.kw_defaults or []
            return (
                annotations[index] if index < len(annotations) else None,
                defaults[index] if index < len(defaults) else None,
            )
    return None, None  # *args, **kwargs


def self_assignments(
    node: nodes.ClassDef,
) -> dict[str, list[tuple[nodes.FunctionDef, nodes.NodeNG]]]:
    """`self.<name> = value` in a class's own methods: name -> [(method, value)]."""
    found: dict[str, list[tuple[nodes.FunctionDef, nodes.NodeNG]]] = {}
    skip = (nodes.FunctionDef, nodes.ClassDef, nodes.Lambda)
    for method in node.body:
        if not isinstance(method, nodes.FunctionDef) or method_kind(method) == "static":
            continue
        params = [*(method.args.posonlyargs or []), *(method.args.args or [])]
        for target in own_nodes(method, nodes.AssignAttr, skip) if params else ():
            if isinstance(target.expr, nodes.Name) and target.expr.name == params[0].name:
                value = assigned_value(target)
                if value is not None:
                    found.setdefault(target.attrname, []).append((method, value))
    return found


def c3(head: Cls, sequences: list[list[Cls | str]]) -> tuple[Cls | str, ...]:
    order: list[Cls | str] = [head]
    pending = [s for s in sequences if s]
    while pending:
        for seq in pending:
            candidate = seq[0]
            if not any(candidate in other[1:] for other in pending):
                break
        else:  # no consistent order: Python would refuse the class; keep depth-first order
            return tuple(dict.fromkeys(order + [x for seq in pending for x in seq]))
        order.append(candidate)
        pending = [s[1:] if s[0] == candidate else s for s in pending]
        pending = [s for s in pending if s]
    return tuple(order)
