"""Calls: what a call resolves to, the facts rules decide on, and the helper calls of the graph."""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from replaylint.presets.records import Preset
from replaylint.resolve import folds, tables
from replaylint.resolve.call_args import CallArgs
from replaylint.resolve.catalog import Entry
from replaylint.resolve.context_params import guessed_context
from replaylint.resolve.facts import Call, Reference
from replaylint.resolve.fields import FIELD_FACTORIES, construction, declared_field, is_factory
from replaylint.resolve.model import Class, ClassInfo, Func, FunctionInfo, Obj, Super
from replaylint.resolve.parameters import only_looked_at, unrun_by
from replaylint.resolve.values import (
    UNKNOWN,
    Const,
    Ext,
    Mapping,
    ModuleTable,
    Namespace,
    Seq,
    Table,
    Value,
    entry_of_sets,
)
from replaylint.resolve.walker import Walker

_IMPORTERS = frozenset({"builtins.__import__", "importlib.import_module", "importlib.__import__"})
_DYNAMIC_CODE = frozenset({"builtins.eval", "builtins.exec", "builtins.compile"})
# Builtins that inspect an object without calling it: handing a root to them is not a use.
_NON_CALLING = frozenset(
    {
        "getattr",
        "hasattr",
        "setattr",
        "delattr",
        "vars",
        "dir",
        "id",
        "type",
        "isinstance",
        "issubclass",
        "callable",
        "repr",
        "str",
        "print",
        "len",
        "hash",
        "format",
        "bool",
    }
)
# Calls whose result is what the awaitable they are given produces.
_RESULT_OF_ARGUMENT = frozenset(
    {
        "asyncio.run",
        "asyncio.wait_for",
        "asyncio.shield",
        "asyncio.ensure_future",
        "functools.update_wrapper",  # `update_wrapper(wrapper, func)` gives the wrapper back
        "functools.wraps()",  # and so does `wraps(func)(wrapper)`
    }
)
# Calls that wrap a callable without running it: inside a recorder's arguments they are recorded.
_WRAPPERS = frozenset({"functools.partial"})
_NAMESPACE_GETTERS = frozenset({"get", "__getitem__", "pop", "setdefault"})


class Calls(Walker):
    # Implemented in expressions.py: reads of objects whose reading is unsafe (`os.environ`).
    _quiet: Callable[[cst.BaseExpression], Value]
    _read: Callable[[cst.CSTNode, Value], Value]
    _register: Callable[[str, cst.Call], bool]  # implemented in framework_calls.py
    # Implemented in applied.py: `workflow.defn(Greeting)`, a decorator applied by a call.
    _decorated_by_call: Callable[[str, cst.Call, list[Value]], Value | None]
    _framework_call: Callable[
        [cst.Call, str, Value | None, list[Value], Value, Preset | None], Value
    ]

    def _call(self, node: cst.Call) -> Value:
        self._hand_over(node)  # containers.py: what each comprehension argument is handed to
        early, callee, receiver = self._callee(node)
        if early is not None:
            return early
        path = callee.path if isinstance(callee, Ext) else ""
        recorded_by = self.frameworks.recorder(path) if path else None
        recorder = bool(path) and (path in self.catalog.recorders or recorded_by is not None)
        passive = self._passive(node, path, recorder)
        saved_recording, saved_nesting = self.recording, self.nesting
        # `ctx.run("fetch", partial(fetch, url))`: the wrapper is handed to the recorder too.
        wrapped = saved_recording and path in _WRAPPERS
        self.recording = recorder or wrapped
        if recorded_by is not None and recorded_by.suspends.nests_by(path):
            self.nesting = recorded_by.name
        else:
            self.nesting = saved_nesting if wrapped else None
        values, cargs = self._arguments(node, path, passive, callee)
        self.recording, self.nesting = saved_recording, saved_nesting
        value = self._apply(callee, node, values, cargs)
        self._through_params(callee, node, values)
        if path:  # framework_calls.py: suspends, hosted callables, what a recorder runs
            value = self._framework_call(node, path, receiver, values, value, recorded_by)
        value = self._observed(node, receiver, values, value)  # containers.py: sets, facts
        # `getattr(os, "environ")` reads what it folds to (a helper's result is its own report).
        return self._read(node, value) if isinstance(callee, Ext) else value

    def _callee(self, node: cst.Call) -> tuple[Value | None, Value, Value | None]:
        """(the call's value when it is decided here, else None; what is called; its receiver)."""
        func = node.func
        if isinstance(func, cst.Attribute):
            owner = self._quiet(func.value)  # `os.environ.get(...)` is reported as the call
            method = func.attr.value
            if owner is UNKNOWN and self.func is not self.m.top:
                # `ctx.call_activity(send)` in a helper given the workflow's context unannotated.
                guessed = guessed_context(
                    self.frameworks, self.func, self.m.imports, func.value, method
                )
                owner = guessed or owner
            if isinstance(owner, (Namespace, ModuleTable)) and method in _NAMESPACE_GETTERS:
                args = [self.eval(arg.value) for arg in node.args]
                found = self._index_namespace(owner, args[0] if args else UNKNOWN, node)
                return self._read(node, found), UNKNOWN, owner
            if isinstance(owner, (Mapping, Table)) and method == "get":
                args = [self.eval(arg.value) for arg in node.args]
                found = tables.entry(owner, args[0] if args else UNKNOWN)
                if found is UNKNOWN:
                    found = entry_of_sets(method, args)  # `deps.get(k, set())`
                return found, UNKNOWN, owner
            text = folds.str_const(owner)
            if text is not None:
                args = [self.eval(arg.value) for arg in node.args]
                folded = folds.str_method(text, method, args)
                return self._observed(node, owner, args, folded), UNKNOWN, owner
            return None, self.attr(owner, method), owner
        if isinstance(func, cst.Name) and self.scope.lookup(func.value) is None:
            if func.value == "super" and self.method_of is not None:
                return Super(self.method_of), UNKNOWN, None
            if func.value in ("staticmethod", "classmethod") and len(node.args) == 1:
                return self.eval(node.args[0].value), UNKNOWN, None
        callee = self.eval(func)
        if isinstance(func, cst.Subscript) and _type_arguments(func):
            # `TemporalDurability[Deps](...)`: a generic class specialised, then built.
            base = self._peek(func.value)
            if isinstance(base, (Ext, Class)):
                callee = base
        return None, callee, None

    def _hands_on(self, path: str, entry: Entry) -> bool:
        return "()" in path or self.catalog.builds_another_hazard(path, entry)

    def _passive(self, node: cst.Call, path: str, recorder: bool) -> bool:
        """Does the call hand its arguments on without running them here (a recorder, a
        registration, a builtin that only looks at them)? A registration takes effect now."""
        registrar = bool(path) and self._register(path, node)
        func = node.func
        return (
            recorder
            or registrar
            # Callables handed to an agent or graph: the framework calls them where it runs
            # them (framework_calls.py), not where they are handed over.
            or (bool(path) and bool(self.frameworks.hosted(path)))
            or path in self.catalog.wrapper_constructors  # a tool kept for an agent to call
            or (
                isinstance(func, cst.Name)
                and func.value in _NON_CALLING
                and self.scope.lookup(func.value) is None
            )
            or (self.recording and path in _WRAPPERS)
        )

    def _arguments(
        self, node: cst.Call, path: str, passive: bool, callee: Value = UNKNOWN
    ) -> tuple[list[Value], CallArgs]:
        """Each argument's value, in order, and what the catalog asks of them: how many are
        not None, the strings by position or keyword, a leading zero, the classes held."""
        values: list[Value] = []
        count = 0
        strings: dict[str, str] = {}
        position = 0
        zero_first = False
        instances: dict[str, tuple[str, ...]] = {}
        factories = self._factory_arguments(path)
        for index, arg in enumerate(node.args):
            if factories and is_factory(arg, index, factories):
                value = self._default_factory(arg)
            else:
                value = self.eval(arg.value)
                # A function handed to a helper that only looks at it (`name_of(self.step)`)
                # or hands it to a recorder is not run by the call.
                looked_at = False
                if isinstance(value, Func) and isinstance(callee, Func):
                    self._walk_nested_now(callee.info)  # what its body hands the function to
                    unrun = unrun_by(self.catalog.recorders, self.frameworks)
                    looked_at = only_looked_at(callee, node, arg, position, unrun)
                if not passive and not looked_at:
                    self._passed_on(arg.value, value)
            values.append(value)
            if not (isinstance(value, Const) and value.value is None):
                count += 1
            if arg.keyword is None and not arg.star:
                text = folds.str_const(value)
                if text is not None:
                    strings[str(position)] = text
                if position == 0 and isinstance(value, Const):
                    zero_first = type(value.value) in (int, float) and value.value == 0
                position += 1
            elif arg.keyword is not None:
                text = folds.str_const(value)
                if text is not None:
                    strings[arg.keyword.value] = text
                held = _instance_classes(value)
                if held:
                    instances[arg.keyword.value] = held
        return values, CallArgs(count, strings, zero_first, instances)

    def _default_factory(self, arg: cst.Arg) -> Value:
        """A field's default factory runs when an instance is built, not here: it is walked as
        part of the class's defaults."""
        outer, self.func = self.func, self._defaults_of(self.cls)  # type: ignore[arg-type]
        value = self.eval(arg.value)
        self._passed_on(arg.value, value)
        if isinstance(value, Class):
            # `meta: Meta = Field(default_factory=Meta)`: building the default builds a Meta,
            # whose own defaults run then (nested factories, however deep).
            init = value.info.lookup("__init__", instance=False)
            built = [init.info] if isinstance(init, Func) else []
            for runs in [*built, *construction(value.info, set())]:
                self._helper(runs, arg.value, value.info.name)
        for edge in self.func.calls:  # `<lambda>` in a chain says less than the field
            if isinstance(value, Func) and edge.target is value.info:
                edge.call = f"{declared_field(self.statement) or 'field'} default"
        self.func = outer
        return value

    def _passed_on(self, expr: cst.BaseExpression, value: Value) -> None:
        """An unsafe callable handed to other code (`partial(time.time)`, `map(random.random, xs)`)."""
        if isinstance(expr, (cst.Call, cst.Lambda)):
            return
        if isinstance(value, Ext):
            entry = self.catalog.reference_entry(value.path)
            if entry is not None and Reference in self.wants:
                call = folds.written(expr) or _pretty(value.path)
                self.sink.emit(Reference(expr, self.site(), value.path, entry, call))
        elif isinstance(value, Func) and value.info.name != "<lambda>":
            self._helper(value.info, expr, folds.written(expr) or value.info.name)

    def _apply(self, callee: Value, node: cst.Call, args: list[Value], cargs: CallArgs) -> Value:
        if isinstance(callee, Ext):
            path = callee.path
            self.func.external[id(node)] = path  # where its values go: graph/flow.py
            if path == "builtins.getattr":
                return self._getattr(node, args)
            if path in ("builtins.globals", "builtins.locals"):
                return Namespace(None)
            if path == "builtins.vars":
                return Namespace(args[0]) if args else Namespace(None)
            if path in _IMPORTERS:
                return self._dynamic_import(node, path, args)
            if path in _DYNAMIC_CODE:
                self._unfoldable(node)
                return UNKNOWN
            if path in _RESULT_OF_ARGUMENT and args:
                # `asyncio.run(Datasource.create(url))`: what the coroutine it is given returns
                # (an `await` already gives its operand's value); a wrapper made a function's.
                return args[0]
            entry, result = self.catalog.classify_call(path, cargs)
            if Call in self.wants:
                call = folds.written(node.func) or _pretty(path)
                installed = self.project.installed_chain(path) if entry is None else ()
                values = tuple(args)
                self.sink.emit(Call(node, self.site(), path, entry, call, cargs, installed, values))
            # A client's unsafe method handing back another (`engine.connect()`), or a root
            # giving a client of another hazard (`Path.cwd()`): its uses are judged as well.
            if entry is not None and result is not None and self._hands_on(path, entry):
                return Ext(result)
            if entry is not None and (result is None or self._on_the_path_here()):
                return UNKNOWN  # what an unsafe call returns is never folded further
            decorated = self._decorated_by_call(path, node, args) if args else None
            if decorated is not None:
                return decorated
            # A client built where it is not reported (`EXECUTOR = ThreadPoolExecutor()` at a
            # framework module's import time) is still judged where it is used.
            return Ext(result) if result is not None else UNKNOWN
        written = folds.written(node.func)
        if isinstance(callee, Func):
            self._helper(callee.info, node, written or callee.info.name)
            self._walk_nested_now(callee.info)
            return callee.info.returns
        if isinstance(callee, Class):
            base = callee.info.client_base(self.catalog)
            init = callee.info.lookup("__init__", instance=False)
            if isinstance(init, Func):
                self._helper(init.info, node, written or callee.info.name)
            else:
                self._inherited_constructor(callee.info, node, written, cargs)
            given = {arg.keyword.value for arg in node.args if arg.keyword is not None}
            for runs in construction(callee.info, given):  # factories, __post_init__, validators
                self._helper(runs, node, written or callee.info.name)
            if base is not None:
                return Ext(base + "()")
            return Obj(callee.info)
        if isinstance(callee, Obj):
            method = callee.info.lookup("__call__", instance=False)
            if isinstance(method, Func):
                self._helper(method.info, node, written or callee.info.name)
        return UNKNOWN

    def _on_the_path_here(self) -> bool:
        """Could a root called here be reported? Not in an exempt region, and not in the import
        time code of a module that is not marked (only its framework entries are replayed)."""
        return self.governed and (self.func is not self.m.top or self.m.marked)

    def _factory_arguments(self, path: str) -> tuple[str, ...]:
        """The keywords (or "0" for the first positional) of a field call in a class body that
        hold a default factory: `field(default_factory=...)`, `Field(...)`, `attrs.Factory(f)`."""
        if self.cls is None or not self.scope.is_class:
            return ()
        return FIELD_FACTORIES.get(path, ())

    def _defaults_of(self, info: ClassInfo) -> FunctionInfo:
        """The function standing for the default factory of the field being declared."""
        name = declared_field(self.statement)
        defaults = info.defaults.get(name)
        if defaults is None:
            defaults = FunctionInfo(
                f"{info.name}.{name or '<field>'}",
                f"{info.qualname}.{name or '<field>'}",
                self.m,
                info.node,
                exempt=self.exempt,
                statement=self.statement,
            )
            defaults.cls = info
            self.m.functions.append(defaults)
            info.defaults[name] = defaults
        return defaults

    def _inherited_constructor(
        self, info: ClassInfo, node: cst.Call, written: str | None, cargs: CallArgs
    ) -> None:
        """`class Dice(random.Random): ...; Dice()`: the base's constructor runs, unseeded."""
        for base in info.external_bases:
            entry, _ = self.catalog.classify_call(base, cargs)
            if entry is not None:
                if Call in self.wants:
                    self.sink.emit(
                        Call(node, self.site(), base, entry, written or info.name, cargs)
                    )
                return

    def _getattr(self, node: cst.Call, args: list[Value]) -> Value:
        if len(args) < 2:
            return UNKNOWN
        name = folds.str_const(args[1])
        if name is None:
            if self._may_reach_unsafe(args[0]):
                self._unfoldable(node)
            return UNKNOWN
        return self.attr(args[0], name)


def _instance_classes(value: Value) -> tuple[str, ...]:
    """The classes of the instances a value is or holds (`[TemporalDurability(...)]`). A
    project's own class counts by its name and its bases' (a copy of an integration's plugin
    kept in the project, or a subclass of it)."""
    items = value.items if isinstance(value, Seq) else (value,)
    found: list[str] = []
    for item in items:
        if isinstance(item, Ext) and item.path.endswith("()"):
            found.append(item.path[:-2])
        elif isinstance(item, Obj):
            for cls in [item.info, *item.info.ancestors()]:
                found.append(cls.name)
                found.extend(cls.external_bases)
    return tuple(found)


def _pretty(path: str) -> str:
    return path.replace(":", ".")


def _type_arguments(node: cst.Subscript) -> bool:
    """`X[Deps]`, `X[str, Out]`, `X[list[int]]`: the subscript names types, not a key."""

    def names_a_type(expr: cst.BaseExpression) -> bool:
        if isinstance(expr, (cst.Name, cst.Attribute)):
            return True
        if isinstance(expr, cst.Subscript):
            return names_a_type(expr.value)
        return False

    return all(
        isinstance(element.slice, cst.Index) and names_a_type(element.slice.value)
        for element in node.slice
    )
