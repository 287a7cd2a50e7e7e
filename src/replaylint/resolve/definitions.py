"""Definitions: functions, lambdas, classes, their decorators and parameters, and annotations."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import libcst as cst

from replaylint.presets.records import Preset
from replaylint.resolve import folds
from replaylint.resolve.annotations import Annotations
from replaylint.resolve.model import Class, ClassInfo, Func, FunctionInfo, Obj
from replaylint.resolve.scopes import Scope
from replaylint.resolve.values import UNKNOWN, Const, Ext, Value
from replaylint.resolve.walker import Pending
from replaylint.resolve.wrappers import Wrappers

_ON_DEMAND_DEPTH = 16  # nested on-demand walks of called bodies
_INIT_FIRST = ("__init__", "__post_init__", "__new__", "setup", "__aenter__", "__enter__")
_LATE = "\0late:"  # key prefix for annotations resolved when the body is walked


class _Annotation(Value):
    __slots__ = ("node",)

    def __init__(self, node: cst.BaseExpression) -> None:
        self.node = node


class Definitions(Wrappers, Annotations):
    # Implemented in framework_calls.py: what an agent's tool decorator makes of a function.
    _agent_tool: Callable[[FunctionInfo, Sequence[cst.Decorator], list[Value]], None]

    def _decorator_paths(
        self, decorators: Sequence[cst.Decorator], values: list[Value] | None = None
    ) -> list[str]:
        """The resolved paths of the decorators; `values` is given what each one (its callee,
        for `@deco(...)`) evaluated to, in order."""
        paths = []
        for decorator in decorators:
            expr = decorator.decorator
            flags: list[str] = []
            if isinstance(expr, cst.Call):
                value = self.eval(expr.func)
                for arg in expr.args:
                    given = self.eval(arg.value)
                    # A keyword given a literal true (or any value) can decide what the decorator
                    # makes of a function: `@node(rerun_on_resume=True)` is replayed, `@node` not.
                    if arg.keyword is not None and not (
                        isinstance(given, Const) and not given.value
                    ):
                        flags.append(arg.keyword.value)
            else:
                value = self.eval(expr)
            if values is not None:
                values.append(value)
            if isinstance(value, Ext):
                paths.append(value.path)
                paths.extend(f"{value.path}({flag})" for flag in flags)
                if not isinstance(expr, cst.Call) and value.path.endswith("()"):
                    # `step = DBOS.step()` then `@step`: the decorator its call made.
                    paths.append(value.path[:-2])
            else:
                paths.append(folds.dotted(expr.func if isinstance(expr, cst.Call) else expr) or "")
                if isinstance(value, Func):  # a project's own decorator, by its full name too
                    paths.append(f"{value.info.module.name}.{value.info.qualname}")
                made = self._wrapped(value)
                if made:
                    paths.append(made)
        return paths

    def _wrapped(self, value: Value) -> str:
        """What a project's own decorator builds, when it returns a framework's object:
        `def django_db_flow(fn): return Flow(fn=...)` makes `@django_db_flow` a `prefect.Flow`."""
        if not isinstance(value, Func):
            return ""
        self._walk_nested_now(value.info)
        made = value.info.returns
        if isinstance(made, Ext) and made.path.endswith("()"):
            path = made.path[:-2]
            return path if self.frameworks.is_framework_path(path) else ""
        return ""

    def _params(self, params: cst.Parameters) -> dict[str, Value]:
        values: dict[str, Value] = {}
        every = [*params.posonly_params, *params.params, *params.kwonly_params]
        for extra in (params.star_arg, params.star_kwarg):
            if isinstance(extra, cst.Param):
                values[extra.name.value] = UNKNOWN
        for param in every:
            default = self.eval(param.default) if param.default is not None else UNKNOWN
            annotated = (
                self.annotation_value(param.annotation.annotation)
                if param.annotation is not None
                else UNKNOWN
            )
            if annotated is not UNKNOWN:
                values[param.name.value] = annotated
            elif isinstance(default, (Ext, Func)) and not isinstance(default, Const):
                values[param.name.value] = default  # `def run(now=time.time)` binds a root
            else:
                values[param.name.value] = UNKNOWN
                if param.annotation is not None:
                    # A forward reference (`client: "OpenAI"` imported further down) is
                    # looked up again when the body is walked, after the module has loaded.
                    values[_LATE + param.name.value] = _Annotation(param.annotation.annotation)
        return values

    def _new_function(self, name: str, node: cst.CSTNode) -> FunctionInfo:
        parent = self.func.qualname if self.func is not self.m.top else ""
        if self.cls is not None and self.scope.is_class:
            qualname = f"{self.cls.qualname}.{name}"
        else:
            qualname = f"{parent}.{name}" if parent else name
        info = FunctionInfo(name, qualname, self.m, node, statement=self.statement)
        if self.func is not self.m.top:
            info.parent = self.func
        self.m.functions.append(info)
        return info

    def _function_def(self, node: cst.FunctionDef) -> None:
        values: list[Value] = []
        decorators = self._decorator_paths(node.decorators, values)
        params = self._params(node.params)
        info = self._new_function(node.name.value, node)
        info.decorators = tuple(decorators)
        if self.scope.is_class:
            info.cls = self.cls
        info.activity = self.project.activity_kind(decorators)
        if self.frameworks.integration_runs(self.m.name, info.qualname):
            # A durable integration's own runner (its package, or a checkout of it): its calls
            # of the agent SDK are what it records, not a model call of the workflow.
            info.activity = "recorded"
        for path in decorators:
            self._decorated(info, path)
        self._agent_tool(info, node.decorators, values)
        self._method_entry(info)
        if info.entry is None and info.activity is None and not self._framework_source:
            # `def orchestrator(ctx: task.OrchestrationContext, _)`: the context type marks it
            # (not in the framework's own package, whose machinery hands the context around).
            for value in params.values():
                if isinstance(value, Ext) and value.path.endswith("()"):
                    preset = self.frameworks.context_parameter(value.path[:-2])
                    if preset is not None:
                        self._entry(info, preset.name)
                        info.by_context = info.entry is not None
                        break
        # A recorded function its framework replays when it suspends (a LangGraph task that
        # interrupts) is walked as replayed code: settling the project decides which it is.
        info.exempt = self.exempt or (info.activity is not None and info.suspending is None)
        self._wrapped_by(info, node.decorators, values)
        self.scope.names[node.name.value] = Func(info)
        governed = self.governed and not info.exempt
        self._defer((info, self.scope, params, governed))

    def _method_entry(self, info: FunctionInfo) -> None:
        """A method its workflow class's framework runs in workflow context (`@workflow.run`)."""
        if info.cls is None or info.cls.workflow is None or info.entry is not None:
            return
        by_base = info.cls.by_base and info.name == "run"
        if by_base or self.frameworks.workflow_method(
            info.cls.workflow, list(info.decorators), info.name, info.cls.framework_base
        ):
            self._entry(info, info.cls.workflow)

    def _inherited_entries(self, info: ClassInfo) -> None:
        """A workflow class's handlers written in a plain base class (`class W(Base)`, Base's
        `@workflow.signal` methods): its framework registers inherited members too (Temporal
        reads the class's members, its bases' included), so they are its entries."""
        if info.workflow is None:
            return
        for base in info.ancestors():
            if base.workflow is not None:
                continue  # a workflow of its own: its methods are its entries already
            for method in base.module.functions:
                if (
                    method.cls is base
                    and method.entry is None
                    and self.frameworks.workflow_method(
                        info.workflow, list(method.decorators), method.name, info.framework_base
                    )
                ):
                    method.inherited = True
                    self._entry(method, info.workflow)

    def _decorated(self, info: FunctionInfo, path: str) -> None:
        """What one decorator (its resolved path) makes of the function it decorates."""
        preset = self.frameworks.workflow_function(path)
        if preset is not None:
            self._entry(info, preset.name)
            return
        recorded = self.frameworks.recorded_decorator(path)
        if recorded is not None:
            info.activity = "recorded"
            if recorded.suspends.nests_by(path):
                info.suspending = recorded.name
            return
        conditional = self.frameworks.conditional_function(path)
        if conditional is not None and info.entry is None:
            info.suspending = conditional.name

    def _lambda(self, node: cst.Lambda) -> Value:
        params = self._params(node.params)
        info = self._new_function("<lambda>", node)
        if self.recording and self.nesting is not None:
            # `context.run_in_child_context(lambda child: ...)`: recorded, unless it suspends
            # (framework_calls.py marks it, settling the project decides).
            self._defer((info, self.scope, params, self.governed))
            return Func(info)
        if self.recording:
            # `ctx.run("fetch", lambda: requests.get(url))`: the recorder runs it once and
            # journals the result, so the body is a recorded zone, not workflow code.
            info.exempt = True
            self._defer((info, self.scope, params, False))
            return Func(info)
        info.exempt = self.exempt
        # An inline lambda runs when whatever it is handed to calls it: its body's roots are
        # reported where they are written, and its unsafety flows to the enclosing function.
        self._helper(info, node, "<lambda>", reported=False)
        self._defer((info, self.scope, params, self.governed))
        return Func(info)

    def _drop_implicit(self, info: FunctionInfo) -> None:
        self.func.calls = [c for c in self.func.calls if c.reported or c.target is not info]

    @property
    def _framework_source(self) -> bool:
        """Is this module part of a framework's own package (`temporalio.worker._workflow`,
        `aws_durable_execution_sdk_python.concurrency.executor`)?"""
        name = self.m.canonical or self.m.name
        return bool(name) and self.frameworks.is_framework_path(name)

    def _entry(self, info: FunctionInfo, framework: str) -> None:
        if not self.project.replayed(framework, self.m):
            return  # run once by an engine that never replays (mcp-agent's asyncio)
        info.entry = framework
        # The function's own module is the framework's (registered from another file or not).
        if framework not in info.module.frameworks:
            info.module.frameworks.append(framework)
        self.project.registered(info, self.m)

    def _defer(self, entry: Pending) -> None:
        """A body to walk once the enclosing code has been (or when it is first called)."""
        self.pending.append(entry)
        self.pending_of[id(entry[0])] = entry

    def _walk_nested_now(self, info: FunctionInfo) -> None:
        """A function of this module called before its body was walked runs at that point: walk
        it now, so that what it returns (a lambda, `workflow.in_workflow()`) and what it rebinds
        (`nonlocal t; t = time`) are known to the caller, whatever order the definitions are in.
        Bounded, so a long chain of helpers each calling the next is walked in order instead."""
        if id(info) in self.walked or self.on_demand >= _ON_DEMAND_DEPTH:
            return
        entry = self.pending_of.get(id(info))
        if entry is None:
            return
        self.on_demand += 1
        try:
            self._function_body(*entry)
        finally:
            self.on_demand -= 1

    def _function_body(
        self, info: FunctionInfo, scope: Scope, params: dict[str, Value], governed: bool
    ) -> None:
        self.walked.add(id(info))
        info.calls.extend(self.wrapped_by.get(id(info), ()))
        saved = self._save_state()
        body_scope = Scope(scope)
        for name, value in params.items():
            if isinstance(value, _Annotation):
                late = self.annotation_value(value.node)
                if late is not UNKNOWN:
                    body_scope.names[name[len(_LATE) :]] = late
            elif name not in body_scope.names:
                body_scope.names[name] = value
        info.open_params = frozenset(n for n, v in body_scope.names.items() if v is UNKNOWN)
        node = info.node
        if info.cls is not None and isinstance(node, cst.FunctionDef):
            first = [*node.params.posonly_params, *node.params.params][:1]
            names = {d.split(".")[-1] for d in info.decorators}
            if first and "staticmethod" not in names:
                cls_value: Value = Class(info.cls) if "classmethod" in names else Obj(info.cls)
                body_scope.names[first[0].name.value] = cls_value
        # A function replayed only if it suspends needs its context bound to be known to.
        framework = info.entry or info.suspending
        if framework is not None and isinstance(node, (cst.FunctionDef, cst.Lambda)):
            self._bind_context(framework, info, node.params, body_scope)
        self.scope = self.fscope = body_scope
        self.func, self.governed, self.exempt = info, governed, info.exempt
        self.cls = None
        self.method_of = info.cls
        self.dead = False
        self.recording = False
        self.statement = info.statement
        if isinstance(node, cst.Lambda):
            info.returns = self.eval(node.body)
        elif isinstance(node, cst.FunctionDef):
            self._suite(node.body)
            if info.returns is UNKNOWN and node.returns is not None:
                # `def datasource() -> SQLAlchemyDatasource: return make()`: what it hands back
                # is what its annotation says, where its body does not tell.
                info.returns = self.sole_annotation_value(node.returns.annotation)
        self._restore_state(saved)

    def _bind_context(
        self, framework: str, info: FunctionInfo, params: cst.Parameters, scope: Scope
    ) -> None:
        """An unannotated run-context parameter of a framework entry is that framework's context."""
        preset = self.frameworks.get(framework)
        if preset is None:
            return
        position = preset.context_param
        if info.entry is None and preset.suspends.context_param is not None:
            position = preset.suspends.context_param  # a nested unit: AWS's child context
        if position is None:
            return
        positional = [*params.posonly_params, *params.params]
        if info.cls is not None:
            positional = positional[1:]
        if len(positional) > position:
            name = positional[position].name.value
            if scope.names.get(name, UNKNOWN) is UNKNOWN:
                scope.names[name] = Ext(preset.context_type + "()")

    def _workflow_by_base(self, info: ClassInfo) -> None:
        """A class deriving, however indirectly, from a `workflow-bases` class is that
        framework's workflow: its `run` method is replayed, with its preset's own entries."""
        lineage = [info, *info.ancestors()]
        names = [f"{c.module.name}.{c.qualname}" for c in lineage[1:]]
        names += [path for c in lineage for path in c.external_bases]
        for name in names:
            preset = self.frameworks.declared_base(name)
            if preset is not None and self.project.replayed(preset.name, self.m):
                info.workflow, info.by_base = preset.name, True
                if preset.name not in self.m.frameworks:
                    self.m.frameworks.append(preset.name)
                return

    def _class_def(self, node: cst.ClassDef) -> None:
        decorators = self._decorator_paths(node.decorators)
        qualname = f"{self.cls.qualname}.{node.name.value}" if self.cls else node.name.value
        info = ClassInfo(node.name.value, qualname, self.m, node, decorators=tuple(decorators))
        for path in decorators:
            self._workflow_class(info, self.frameworks.workflow_class(path), False)
        for arg in node.bases:
            base = self.eval(arg.value)
            if isinstance(base, Class):
                info.local_bases.append(base.info)
                inherited = self.frameworks.get(base.info.workflow or "")
                if inherited is not None and base.info.framework_base:
                    # A framework that knows its workflows by their base class knows them
                    # through a local class in between as well.
                    self._workflow_class(info, inherited, True)
            elif isinstance(base, Ext):
                info.external_bases.append(base.path)
                if not self._framework_source:  # its own subclasses are its machinery
                    preset = self.frameworks.workflow_base(base.path)
                    self._workflow_class(info, preset, True)
        if info.workflow is None:
            self._workflow_by_base(info)
        self._inherited_entries(info)
        for arg in node.keywords:
            self.eval(arg.value)
        self.m.classes.append(info)
        class_scope = Scope(self.scope, is_class=True)
        info.attrs = class_scope.names
        saved = (self.scope, self.cls, self.pending)
        self.scope, self.cls, self.pending = class_scope, info, []
        self._suite(node.body)
        methods = self.pending
        self.scope, self.cls, self.pending = saved
        methods.sort(key=lambda item: 0 if item[0].name in _INIT_FIRST else 1)
        for method in methods:
            self._defer(method)
        self.scope.names[node.name.value] = Class(info)

    def _workflow_class(self, info: ClassInfo, preset: Preset | None, by_its_base: bool) -> None:
        replayed = preset is not None and self.project.replayed(preset.name, self.m)
        if preset is not None and info.workflow is None and replayed:
            info.workflow, info.framework_base = preset.name, by_its_base
            if preset.name not in self.m.frameworks:
                self.m.frameworks.append(preset.name)
