"""The workflows of one version of the code: each entry's registered name, its replayed units
(its run, and handlers that issue commands) with their skeletons, and its handlers."""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from replaylint.presets.records import Versioning
from replaylint.resolve.model import ClassInfo, FunctionInfo, ModuleInfo
from replaylint.versioning.bodies import Bodies
from replaylint.versioning.model import Handler, Unit, Workflow
from replaylint.versioning.places import Places
from replaylint.versioning.targets import python_qualname

RUNTIME = "runtime"  # the framework name of a module marked `__adk_workflow__ = True`

BuildSkeleton = Callable[[FunctionInfo, str], tuple]  # (entry, framework) -> skeleton


class Entries:
    """Finds the workflows of the modules of one side and describes each one."""

    def __init__(
        self, facts: dict[str, Versioning], places: Places, skeleton: BuildSkeleton
    ) -> None:
        self.facts = facts  # framework name (and "runtime") -> its versioning facts
        self.places = places
        self.skeleton = skeleton
        self.bodies = Bodies()

    def workflows(self, module: ModuleInfo, relative: str) -> list[Workflow]:
        found: list[Workflow] = []
        for cls in module.classes:
            if cls.workflow is not None and cls.workflow in self.facts:
                if cls.framework_base and not self.facts[cls.workflow].bases_named:
                    continue  # an interceptor: workflow code, but no workflow of a name
                workflow = self._class_workflow(cls, relative)
                if workflow is not None:
                    found.append(workflow)
        for function in module.functions:
            framework = function.entry
            if framework is None or framework not in self.facts or function.parent is not None:
                continue
            if function.inherited:
                continue  # a handler of the workflow classes that inherit it
            # A method is an entry of its own unless its class is the workflow (Temporal's
            # run method): a DBOS workflow that is a method of a @DBOS.dbos_class() class.
            if function.cls is None or function.cls.workflow is None:
                found.append(self._function_workflow(function, framework, relative))
        if module.marked and RUNTIME in self.facts:
            found += [
                self._function_workflow(f, RUNTIME, relative) for f in _runtime_entries(module)
            ]
        return found

    # ------------------------------------------------------------------ class workflows

    def _class_workflow(self, cls: ClassInfo, relative: str) -> Workflow | None:
        facts = self.facts[cls.workflow or ""]
        if _keyword(cls.node, "dynamic") is True:
            return None  # a dynamic workflow takes any type name: nothing to compare by name
        name = _declared_name(cls.node, facts) or cls.name
        units: list[Unit] = []
        handlers: list[Handler] = []
        for function in _members(cls):
            kind = facts.handler_kind(function.decorators)
            if any(d.endswith(".validator") for d in function.decorators):
                continue  # a validator issues no command and is no handler of its own
            where = self.places.definition(function.module, function.node)
            if kind is not None:
                if _keyword(_handler_decorator(function.node), "dynamic") is True:
                    continue
                handler_name = _handler_name(function.node, facts) or function.name
                body = self.bodies.text(function.module, function.node)
                handlers.append(Handler(kind, handler_name, function.qualname, where, body))
                if kind != "query":  # a query issues no command
                    skeleton = self.skeleton(function, cls.workflow or "")
                    units.append(Unit(f"{kind} {handler_name}", where, skeleton))
                continue
            member = "" if function.name != "__init__" else "__init__"
            units.append(Unit(member, where, self.skeleton(function, cls.workflow or "")))
        return Workflow(
            name,
            cls.workflow or "",
            cls.qualname,
            relative,
            self.places.definition(cls.module, cls.node),
            tuple(units),
            tuple(handlers),
            body=self.bodies.text(cls.module, cls.node),
            model=_declared_model(cls.node, facts),
        )

    # ------------------------------------------------------------------ function workflows

    def _function_workflow(self, function: FunctionInfo, framework: str, relative: str) -> Workflow:
        facts = self.facts[framework]
        folder = _host_folder(function, facts, relative)
        name = folder or _function_name(function, facts) or function.qualname
        version = _version(function, facts)
        where = self.places.definition(function.module, function.node)
        unit = Unit("", where, self.skeleton(function, framework))
        return Workflow(
            f"{name} (version {version})" if version else name,
            framework,
            function.qualname,
            relative,
            where,
            (unit,),
            body=self.bodies.text(function.module, function.node),
            named=_named(function),
            host_file=f"{folder_of(relative)}/{HOST_FILE}" if folder else "",
        )

    def registered_name(self, function: FunctionInfo, framework: str) -> str:
        """The name a step, activity or child workflow function is recorded under (a child
        workflow named by its run method, `Child.run`, is its class's workflow type)."""
        facts = self.facts.get(framework)
        cls = function.cls
        if cls is not None and cls.workflow is not None and facts is not None:
            return _declared_name(cls.node, facts) or cls.name
        declared = _function_name(function, facts) if facts is not None else None
        if declared:
            return declared
        return python_qualname(function) if facts and facts.qualified_names else function.name


HOST_FILE = "function.json"  # what tells the Azure Functions host a folder is a function


def folder_of(relative: str) -> str:
    return relative.rsplit("/", 1)[0] if "/" in relative else ""


def _host_folder(function: FunctionInfo, facts: Versioning, relative: str) -> str:
    """The folder that names an entry its registrar registers, where the host names functions
    by their folder (`main = df.Orchestrator.create(orchestrator_function)` in
    `E1_HelloSequence/__init__.py` is the orchestrator `E1_HelloSequence`); "" elsewhere."""
    if not facts.folder_names or function.registration is None or function.decorators:
        return ""
    folder = folder_of(relative)
    return folder.rsplit("/", 1)[-1]


def _named(function: FunctionInfo) -> bool:
    """Do runs in flight find this entry by its name? Not a callable its framework calls from
    its own workflow, nor a recorded unit replayed on its own, nor a function replayed because
    it suspends that nothing declares or registers (a Resonate child run through ctx.run)."""
    if function.hosted or function.unit:
        return False
    declared = bool(function.decorators) or function.registration is not None
    return function.suspending is None or declared


def _function_name(function: FunctionInfo, facts: Versioning) -> str | None:
    """The name its decorator declares, else the one its registration call gives."""
    return _declared_name(function.node, facts) or _registered_name(function, facts)


def _registered_name(function: FunctionInfo, facts: Versioning) -> str | None:
    """`register_workflow(fn, name="x")`, `add_node("review", review)`: the name keyword, else
    a text given before the function, of a registration the function is handed to itself."""
    call = function.registration
    if call is None or not any(_is_function(a.value, function) for a in call.args):
        return None
    named = _string(_keyword_node(call, facts.name_keyword))
    if named:
        return named
    for arg in call.args:
        if arg.keyword is not None or _is_function(arg.value, function):
            return None
        if _string(arg.value):
            return _string(arg.value)
    return None


def _is_function(node: cst.BaseExpression, function: FunctionInfo) -> bool:
    if node is function.node:
        return True
    written = _last_name(node) if isinstance(node, (cst.Name, cst.Attribute)) else ""
    return written == function.name


def _version(function: FunctionInfo, facts: Versioning) -> str | None:
    """The version its decorator or registration gives (Dapr's `version_name`, Resonate's
    `version`): each version is a workflow of its own, on which its runs stay."""
    if not facts.version_keyword:
        return None
    calls = [d.decorator for d in getattr(function.node, "decorators", ())]
    if function.registration is not None:
        calls.append(function.registration)
    for call in calls:
        if isinstance(call, cst.Call):
            value = _keyword_node(call, facts.version_keyword)
            if isinstance(value, cst.Integer):
                return value.value
            if _string(value):
                return _string(value)
    return None


def _runtime_entries(module: ModuleInfo) -> list[FunctionInfo]:
    """The runtime's workflows in a marked module: top-level functions that take the run
    context first and that no other function of the module calls (those are its helpers)."""
    called = {id(c.target) for f in [module.top, *module.functions] for c in f.calls}
    found = []
    for function in module.functions:
        node = function.node
        if function.parent is not None or function.cls is not None or function.activity:
            continue
        if not isinstance(node, cst.FunctionDef) or not node.params.params:
            continue
        if id(function) in called or function.name.startswith("_"):
            continue
        found.append(function)
    return found


def _declared_name(node: cst.CSTNode, facts: Versioning) -> str | None:
    """`@workflow.defn(name="checkout")`, `@DBOS.workflow(name=...)`, `@app.function_name("x")`."""
    for decorator in getattr(node, "decorators", ()):
        expr = decorator.decorator
        if not isinstance(expr, cst.Call):
            continue
        named = _string(_keyword_node(expr, facts.name_keyword))
        if named:
            return named
        written = _last_name(expr.func)
        if facts.name_decorators.sources and any(
            source.endswith(written) for source in facts.name_decorators.sources
        ):
            first = next((a.value for a in expr.args if a.keyword is None), None)
            if _string(first):
                return _string(first)
    return None


def _members(cls: ClassInfo) -> list[FunctionInfo]:
    """The entries of a workflow class: its own methods, then the handlers it inherits from
    plain base classes, each name once, the nearest class's first."""
    found: list[FunctionInfo] = []
    names: set[str] = set()
    for owner in cls.lineage():
        methods = [f for f in owner.module.functions if f.cls is owner]
        found += [
            f
            for f in methods
            if f.entry is not None and (owner is cls or f.inherited) and f.name not in names
        ]
        names |= {f.name for f in methods}
    return found


def _handler_decorator(node: cst.CSTNode) -> cst.CSTNode:
    for decorator in getattr(node, "decorators", ()):
        if isinstance(decorator.decorator, cst.Call):
            return decorator.decorator
    return node


def _handler_name(node: cst.CSTNode, facts: Versioning) -> str | None:
    for decorator in getattr(node, "decorators", ()):
        expr = decorator.decorator
        if isinstance(expr, cst.Call):
            named = _string(_keyword_node(expr, facts.name_keyword))
            first = next((a.value for a in expr.args if a.keyword is None), None)
            if named or _string(first):
                return named or _string(first)
    return None


def _keyword(node: cst.CSTNode, keyword: str) -> object:
    """A literal keyword argument of the node's decorators (or of the call itself)."""
    calls = [node] if isinstance(node, cst.Call) else []
    calls += [
        d.decorator for d in getattr(node, "decorators", ()) if isinstance(d.decorator, cst.Call)
    ]
    for call in calls:
        value = _keyword_node(call, keyword)
        if isinstance(value, cst.Name) and value.value in ("True", "False"):
            return value.value == "True"
    return None


def _declared_model(node: cst.CSTNode, facts: Versioning) -> str:
    """The model a workflow's own decorator declares for it (`versioning_behavior=
    VersioningBehavior.PINNED`), "" when it declares none."""
    if not facts.model_keyword:
        return ""
    for decorator in getattr(node, "decorators", ()):
        if isinstance(decorator.decorator, cst.Call):
            value = _keyword_node(decorator.decorator, facts.model_keyword)
            if value is not None:
                return facts.model_values.get(_last_name(value), "")
    return ""


def _keyword_node(call: cst.Call, keyword: str) -> cst.BaseExpression | None:
    return next((a.value for a in call.args if a.keyword and a.keyword.value == keyword), None)


def _string(node: cst.BaseExpression | None) -> str | None:
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def _last_name(expr: cst.BaseExpression) -> str:
    if isinstance(expr, cst.Attribute):
        return expr.attr.value
    return expr.value if isinstance(expr, cst.Name) else ""
