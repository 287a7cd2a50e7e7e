"""The walk's shared state and dispatch: scopes, the function being walked, and fact emission.

The evaluator is one hand-written walk over LibCST's node fields rather than a `CSTVisitor` with
scope metadata: bench/ shows the metadata providers cost several times the parse, while one walk
that keeps its own small scopes costs a fraction of it. Names are resolved in Python's order:
module-level code first, statement by statement, then function bodies (which see the module's
final bindings, as they do when they are called), methods of a class with `__init__` first.

The walk is split by concern into the classes the Evaluator is made of (statements.py,
expressions.py, calls.py, definitions.py, imports.py); this base holds what they share and
declares the handful of methods one concern calls in another.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Iterator
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any, Protocol

import libcst as cst

from replaylint.core.findings import ChainLink
from replaylint.parse.children import is_node
from replaylint.presets.frameworks import Frameworks
from replaylint.resolve.catalog import Catalog
from replaylint.resolve.facts import FactSink, Iteration, Site, Unfoldable
from replaylint.resolve.model import ClassInfo, FunctionInfo, HelperCall, ModuleInfo
from replaylint.resolve.scopes import Scope
from replaylint.resolve.values import UNKNOWN, Const, Ext, Value

# Builtins the folds care about; every other builtin name is an ordinary, safe object.
# Python's own names: a framework's star import is not taken to rebind them (`open`, `print`).
_EVERY_BUILTIN = frozenset(dir(builtins))
_BUILTINS = frozenset(
    {
        "getattr",
        "globals",
        "locals",
        "vars",
        "__import__",
        "eval",
        "exec",
        "compile",
        "__builtins__",
    }
)

# Fields that never hold code worth walking: whitespace, punctuation, operators' tokens.
_SKIP_PREFIXES = (
    "whitespace",
    "lpar",
    "rpar",
    "comma",
    "semicolon",
    "leading_lines",
    "trailing_whitespace",
    "header",
    "footer",
    "lines_after",
    "colon",
    "equal",
    "dot",
    "star",
    "lbracket",
    "rbracket",
    "lbrace",
    "rbrace",
    "default_indent",
    "default_newline",
    "encoding",
    "has_trailing",
    "indent",
    "newline",
    "asynchronous",
    "quote",
    "prefix",
    "first_line",
    "operator",
)
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}
_STATEMENTS = (cst.SimpleStatementLine, cst.BaseCompoundStatement)


def _child_fields(cls: type) -> tuple[str, ...]:
    names = _CHILD_FIELDS.get(cls)
    if names is None:
        names = (
            tuple(f.name for f in fields(cls) if not f.name.startswith(_SKIP_PREFIXES))
            if is_dataclass(cls)
            else ()
        )
        _CHILD_FIELDS[cls] = names
    return names


def children(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    for name in _child_fields(type(node)):
        value = getattr(node, name)
        if is_node(value):
            yield value
        elif isinstance(value, (tuple, list)):
            for item in value:
                if is_node(item):
                    yield item


class ModuleSource(Protocol):
    """What the walk asks of the project it belongs to (implemented by replaylint.engine.project)."""

    frameworks: Frameworks
    # Local modules that cannot be read or parsed, by dotted name: an import of one is an edge
    # to a module nothing of which can be checked.
    broken: dict[str, Path]

    def resolve_module(self, name: str, level: int, importer: ModuleInfo) -> ModuleInfo | None: ...

    def absolute_name(self, name: str, level: int, importer: ModuleInfo) -> str: ...

    def activity_kind(self, decorators: list[str]) -> str | None: ...

    def replayed(self, framework: str, module: ModuleInfo) -> bool:
        """Does `framework` replay this module's workflows (its engine may be a setting)?"""
        ...

    def installed_chain(self, path: str) -> tuple[ChainLink, ...]:
        """Hops (path, line, call) by which a followed installed function reaches a root."""
        ...

    def registered(self, info: FunctionInfo, by: ModuleInfo) -> None:
        """`by`'s walk has just made `info` an entry, a recorded zone or a conditional one."""
        ...

    def loading(self, module: ModuleInfo) -> bool:
        """Are `module`'s own statements still being walked (an import cycle reached it)?"""
        ...


Pending = tuple[FunctionInfo, Scope, "dict[str, Value]", bool]


class Walker:
    # Declared here, implemented by the concern classes (the Evaluator inherits them all).
    _bind: Callable[[cst.BaseExpression, Value], None]
    _suite: Callable[[cst.BaseSuite], None]
    _if: Callable[[cst.If], None]
    attr: Callable[[Value, str], Value]
    _index_namespace: Callable[[Value, Value, cst.CSTNode], Value]
    _may_reach_unsafe: Callable[[Value], bool]
    _module_value: Callable[[str, cst.CSTNode, bool], Value]
    _dynamic_import: Callable[[cst.Call, str, list[Value]], Value]
    _entry: Callable[[FunctionInfo, str], None]
    _walk_nested_now: Callable[[FunctionInfo], None]
    _drop_implicit: Callable[[FunctionInfo], None]
    _function_body: Callable[[FunctionInfo, Scope, dict[str, Value], bool], None]
    annotation_value: Callable[[cst.BaseExpression], Value]
    sole_annotation_value: Callable[[cst.BaseExpression], Value]
    _state_of: Callable[[cst.BaseExpression], str]
    _comprehension: Callable[[cst.CSTNode], Value]
    _hand_over: Callable[[cst.Call], None]
    _observed: Callable[[cst.Call, Value | None, list[Value], Value], Value]
    _set_algebra: Callable[[cst.CSTNode, Value, Value], Value | None]
    _set_annotation: Callable[[cst.BaseExpression], Value | None]
    _module_level_class: Callable[[Value], bool]
    _through_params: Callable[[Value, cst.Call, list[Value]], None]
    bind_late_imports: Callable[[], None]

    # node type -> its handler; each handler takes exactly the node type it is filed under
    _stmt: dict[type[cst.CSTNode], Callable[[Any], None]]
    _expr: dict[type[cst.CSTNode], Callable[[Any], Value]]

    def __init__(
        self, project: ModuleSource, module: ModuleInfo, catalog: Catalog, sink: FactSink
    ) -> None:
        self.project = project
        self.m = module
        self.catalog = catalog
        self.frameworks = project.frameworks
        self.sink = sink
        wants = sink.subscribed
        self.wants = wants  # fact types some enabled rule reads; nothing else is built
        self.module_scope = Scope(None)
        self.scope = self.module_scope
        self.fscope = self.module_scope  # the nearest function (or module) scope, for walrus
        self.func = module.top
        self.governed = True  # False inside exempt regions; the module decides what is reported
        self.exempt = False  # inside an activity body or a __main__ block
        self.cls: ClassInfo | None = None
        self.pending: list[Pending] = []
        self.recording = False  # evaluating the arguments of a recorder (ctx.run, execute_activity)
        # ... of one whose callables its framework replays if they suspend (AWS's child
        # contexts, Resonate's ctx.run): that framework.
        self.nesting: str | None = None
        self.walked: set[int] = set()  # functions whose bodies have been walked
        self.dead = False  # under `if TYPE_CHECKING:` or `if __name__ == "__main__":`
        # Set by an `if workflow.in_workflow():` whose block returns: the statements after it,
        # in the same block, run only outside a workflow (statements.py).
        self.rest_outside = False
        self.method_of: ClassInfo | None = None  # the class whose method body is being walked
        self.pending_of: dict[int, Pending] = {}  # id(function) -> its deferred body
        # id(function) -> the implicit calls of the wrappers its own decorators made
        # (wrappers.py), added to its calls each time its body is walked.
        self.wrapped_by: dict[int, list[HelperCall]] = {}
        self.on_demand = 0  # how many called bodies are being walked ahead of their turn
        self.rebinds_globals = False  # a function body rebound a module global
        self.walk_again = False  # a body walked already learnt it is replayed if it suspends
        self.statement: cst.CSTNode | None = None  # the innermost statement being walked
        # The comprehension being walked: its kind and the call it is handed to (containers.py).
        self.comprehension: tuple[str, str] = ("for", "")
        # Framework modules imported with `*`, in order: where a name bound nowhere else is from.
        self.star_frameworks: list[str] = []
        # `from m import x` while m's statements were still being walked, before they bound x:
        # (scope, name, m, x), bound once m is loaded (bind_late_imports).
        self.late_imports: list[tuple[Scope, str, ModuleInfo, str]] = []
        self.stored_in: dict[int, set[str]] = {}  # id(function) -> the names its body binds
        self._handed_to: dict[int, str] = {}
        # How many classes were defined when the module had loaded (None while it loads): the
        # ones before are module-level classes, whose attributes every run shares.
        self.module_classes: int | None = None

    # ------------------------------------------------------------------ driver

    def walk_module_level(self) -> None:
        """The module's own statements (what an import runs), bodies deferred."""
        self.m.exports = self.module_scope.names
        for statement in self.m.tree.body:
            self.stmt(statement)
        self.module_classes = len(self.m.classes)

    def walk_bodies(self) -> None:
        """The function bodies, once the module is loaded: they see its final bindings (and,
        in an import cycle, those of every module of the cycle: engine/project.py)."""
        self.bind_late_imports()
        mark = self._mark()
        self._walk_pending()
        if self.rebinds_globals or self.walk_again:
            # A body rebound a module global (`global clock; clock = time.time`): every body
            # must see the module as that leaves it, whichever was defined first. Walk them again.
            self._rewind(mark)
            self._walk_pending()

    def _walk_pending(self) -> None:
        index = 0
        while index < len(self.pending):
            info, scope, params, governed = self.pending[index]
            index += 1
            if id(info) not in self.walked:
                self._function_body(info, scope, params, governed)

    def _mark(self) -> tuple[int, int, int, int, int]:
        m = self.m
        return (
            len(m.functions),
            len(m.classes),
            len(m.imports),
            m.dynamic_accesses,
            len(self.pending),
        )

    def _rewind(self, mark: tuple[int, int, int, int, int]) -> None:
        """Forget what the bodies' walk added, keeping the module level and its bindings."""
        functions, classes, imports, dynamic, pending = mark
        m = self.m
        for dropped in m.functions[functions:]:  # an id may be taken again by a new record
            self.wrapped_by.pop(id(dropped), None)
        del (
            m.functions[functions:],
            m.classes[classes:],
            m.imports[imports:],
            self.pending[pending:],
        )
        m.dynamic_accesses = dynamic
        for info, *_ in self.pending:
            info.hits.clear()
            info.calls.clear()
            info.suspends.clear()
            info.returns = UNKNOWN
        self.walked.clear()
        self.rebinds_globals = self.walk_again = False

    # ------------------------------------------------------------------ state

    # What walking a function body changes, put back when it is done (the body may be walked
    # in the middle of its caller's, on demand).
    _STATE = (
        "scope", "fscope", "func", "governed", "exempt", "cls", "method_of", "dead",
        "recording", "nesting", "statement", "comprehension",
    )  # fmt: skip

    def _save_state(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._STATE)

    def _restore_state(self, state: tuple[Any, ...]) -> None:
        for name, value in zip(self._STATE, state, strict=True):
            setattr(self, name, value)

    # ------------------------------------------------------------------ recording

    def site(self) -> Site:
        """Where the walk is now; built only when a fact is emitted."""
        return Site(self.func, self.governed, self.dead, self.statement)

    def _unfoldable(self, node: cst.CSTNode) -> None:
        self.m.dynamic_accesses += 1
        if Unfoldable in self.wants:
            text = self.m.tree.code_for_node(node).strip()
            text = " ".join(text.split())
            if len(text) > 60:
                text = text[:57] + "..."
            self.sink.emit(Unfoldable(node, self.site(), text))

    def _helper(
        self, info: FunctionInfo, node: cst.CSTNode, call: str, reported: bool = True
    ) -> None:
        self.func.calls.append(
            HelperCall(info, node, call, self.governed, reported, self.dead, self.statement)
        )

    def _iterated(self, node: cst.BaseExpression, value: Value, loop: bool = False) -> None:
        """A loop statement (`loop`) or the comprehension being walked iterates `value`."""
        if Iteration in self.wants:
            within, consumer = ("for", "") if loop else self.comprehension
            self.sink.emit(Iteration(node, self.site(), value, within, consumer))

    # ------------------------------------------------------------------ dispatch

    def stmt(self, node: cst.CSTNode) -> None:
        handler = self._stmt.get(type(node))
        if isinstance(node, _STATEMENTS):
            # What happens here is located by generating this statement's code alone.
            outer, self.statement = self.statement, node
            if handler is not None:
                handler(node)
            else:
                self._generic(node)
            self.statement = outer
        elif handler is not None:
            handler(node)
        else:
            self._generic(node)

    def _generic(self, node: cst.CSTNode) -> None:
        for child in children(node):
            if isinstance(child, cst.BaseExpression):
                self.eval(child)
            else:
                self.stmt(child)

    def eval(self, node: cst.BaseExpression) -> Value:
        handler = self._expr.get(type(node))
        if handler is not None:
            return handler(node)
        for child in children(node):
            if isinstance(child, cst.BaseExpression):
                self.eval(child)
            elif not isinstance(child, (cst.BaseParenthesizableWhitespace, cst.Comment)):
                self._generic_expr(child)
        return UNKNOWN

    def _generic_expr(self, node: cst.CSTNode) -> None:
        # Containers of expressions: Element, Arg, DictElement, Index, Slice, comprehension parts.
        for child in children(node):
            if isinstance(child, cst.BaseExpression):
                self.eval(child)
            else:
                self._generic_expr(child)

    # ------------------------------------------------------------------ names

    def _lookup(self, name: str) -> Value:
        value = self.scope.lookup(name)
        if value is not None:
            return value
        if name in _BUILTINS:
            return Ext("builtins" if name == "__builtins__" else "builtins." + name)
        if name == "__name__":
            return Const(self.m.name)  # `sys.modules[__name__]` is this module: nothing dynamic
        if name in ("True", "False", "None"):
            return Const({"True": True, "False": False, "None": None}[name])
        if self.star_frameworks and name not in _EVERY_BUILTIN:
            return Ext(f"{self.star_frameworks[-1]}.{name}")
        return UNKNOWN

    def _name(self, node: cst.Name) -> Value:
        return self._lookup(node.value)

    def _peek(self, node: cst.BaseExpression) -> Value:
        """Resolve a name or attribute chain without recording anything."""
        if isinstance(node, cst.Name):
            return self._lookup(node.value)
        if isinstance(node, cst.Attribute):
            return self.attr(self._peek(node.value), node.attr.value)
        return UNKNOWN
