"""The typed facts the evaluator emits where a rule can decide; rules subscribe to them by type.

The evaluator resolves names and values and never picks a code. At each point where a rule may
decide (a call of a resolved value, a root handed on or read as a value, an iteration, a store,
a method or builtin called on a value, an access it cannot fold, an import) it builds one of
these, but only when some enabled rule subscribes to that type, so a fact nobody reads costs one
set lookup.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import libcst as cst

from replaylint.core.findings import ChainLink
from replaylint.resolve.model import FunctionInfo, ImportEdge
from replaylint.resolve.values import Value

if TYPE_CHECKING:
    from replaylint.resolve.call_args import CallArgs
    from replaylint.resolve.catalog import Entry

# Methods of the builtin containers (and deque, defaultdict, Counter) that change them in place.
MUTATORS = frozenset(
    {
        "append",
        "appendleft",
        "extend",
        "extendleft",
        "insert",
        "remove",
        "pop",
        "popleft",
        "popitem",
        "clear",
        "update",
        "setdefault",
        "add",
        "discard",
        "difference_update",
        "intersection_update",
        "symmetric_difference_update",
        "sort",
        "reverse",
        "rotate",
        "__setitem__",
        "__delitem__",
    }
)


class Site:
    """Where a fact happens: the function whose body holds it, and the walk's state there."""

    __slots__ = ("function", "governed", "dead", "statement")

    def __init__(
        self,
        function: FunctionInfo,
        governed: bool,
        dead: bool,
        statement: cst.CSTNode | None = None,
    ) -> None:
        self.function = function
        self.statement = statement  # the innermost statement the fact is in
        self.governed = governed  # False inside an exempt region (activity body, __main__ block)
        self.dead = dead  # under `if TYPE_CHECKING:` or a branch that never runs in a workflow


class Fact:
    __slots__ = ("node", "site")

    def __init__(self, node: cst.CSTNode, site: Site) -> None:
        self.node = node
        self.site = site

    def written(self, limit: int = 60) -> str:
        """The node as written, on one line and shortened: for a message, built only to report."""
        text = " ".join(self.site.function.module.tree.code_for_node(self.node).split())
        return text if len(text) <= limit else text[: limit - 3] + "..."


class Call(Fact):
    """A call of a value outside the checked code, resolved to its qualified `path`.

    `entry` is what the catalog says of that call with these arguments (None: nothing unsafe);
    `call` is the callee as written, for the message; `values` the arguments' values, in the
    order written (what a durable command's target is read from).
    """

    __slots__ = ("path", "entry", "call", "args", "installed", "values")

    def __init__(
        self,
        node: cst.CSTNode,
        site: Site,
        path: str,
        entry: Entry | None,
        call: str,
        args: CallArgs,
        installed: tuple[ChainLink, ...] = (),
        values: tuple[Value, ...] = (),
    ) -> None:
        super().__init__(node, site)
        self.path = path
        self.entry = entry
        self.call = call
        self.args = args
        # A followed installed function that reaches a root: its hops (path, line, call).
        self.installed = installed
        self.values = values


class Reference(Fact):
    """An unsafe root used as a value rather than called: handed to other code to be called
    later (`partial(time.time)`), or an object whose reading is itself unsafe, read where it is
    used (`os.environ["HOME"]`, `len(sys.argv)`; node is the whole use, call as written)."""

    __slots__ = ("path", "entry", "call")

    def __init__(self, node: cst.CSTNode, site: Site, path: str, entry: Entry, call: str) -> None:
        super().__init__(node, site)
        self.path = path
        self.entry = entry
        self.call = call


class Unfoldable(Fact):
    """An access the evaluator cannot fold to a name (`getattr(time, name)`, `exec(src)`)."""

    __slots__ = ("text",)

    def __init__(self, node: cst.CSTNode, site: Site, text: str) -> None:
        super().__init__(node, site)
        self.text = text  # the access as written, shortened for a message


class Iteration(Fact):
    """A loop or comprehension over `value` (node is the iterated expression).

    `within` is what iterates: "for" (a loop statement), or the comprehension's kind ("list",
    "set", "dict", "generator"); `consumer` the resolved path of the call a comprehension is
    handed to as an argument (`builtins.sorted` for `sorted(x for x in s)`), "" for none.
    """

    __slots__ = ("value", "within", "consumer")

    def __init__(
        self,
        node: cst.CSTNode,
        site: Site,
        value: Value,
        within: str = "for",
        consumer: str = "",
    ) -> None:
        super().__init__(node, site)
        self.value = value
        self.within = within
        self.consumer = consumer


# Where a stored name lives: the walk knows it from `global`, `self.`, class bodies and scopes.
LOCAL, INSTANCE, CLASS, MODULE = "local", "instance", "class", "module"


class Store(Fact):
    """A store of `value` into a name, attribute or subscript; `binding` says whose state it is."""

    __slots__ = ("name", "value", "binding")

    def __init__(
        self, node: cst.CSTNode, site: Site, name: str, value: Value, binding: str
    ) -> None:
        super().__init__(node, site)
        self.name = name
        self.value = value
        self.binding = binding


class MethodCall(Fact):
    """A method called on a value (`tags.pop()`, `REGISTRY.append(x)`, `", ".join(names)`):
    `receiver` is the value it is called on, `args` its positional argument values in order,
    and `binding` whose state the receiver is (LOCAL, INSTANCE, CLASS or MODULE, as for Store)."""

    __slots__ = ("receiver", "method", "args", "binding")

    def __init__(
        self,
        node: cst.CSTNode,
        site: Site,
        receiver: Value,
        method: str,
        args: tuple[Value, ...],
        binding: str,
    ) -> None:
        super().__init__(node, site)
        self.receiver = receiver
        self.method = method
        self.args = args
        self.binding = binding


class BuiltinCall(Fact):
    """A call of a builtin by its unshadowed name (`list(tags)`, `hash(key)`, `id(obj)`), with
    its positional argument values in order; `consumer` as for Iteration (`sorted(list(s))`)."""

    __slots__ = ("name", "args", "consumer")

    def __init__(
        self,
        node: cst.CSTNode,
        site: Site,
        name: str,
        args: tuple[Value, ...],
        consumer: str = "",
    ) -> None:
        super().__init__(node, site)
        self.name = name
        self.args = args
        self.consumer = consumer


class Import(Fact):
    """An import edge of the module (static or dynamic), as the coverage classification sees it."""

    __slots__ = ("edge",)

    def __init__(self, node: cst.CSTNode, site: Site, edge: ImportEdge) -> None:
        super().__init__(node, site)
        self.edge = edge


class FactSink(Protocol):
    """What the evaluator hands its facts to (the rules' dispatch, built above this layer)."""

    subscribed: frozenset[type[Fact]]

    def emit(self, fact: Fact) -> None: ...


class NoRules:
    """A sink with no subscribers: the walk still builds the model (calls, imports, exports)."""

    subscribed: frozenset[type[Fact]] = frozenset()

    def emit(self, fact: Fact) -> None:
        return None
