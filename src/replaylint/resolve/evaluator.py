"""The single walk over one module: resolves every name as it goes and records unsafe roots.

The walk is hand-written over LibCST's node fields rather than a `CSTVisitor` with scope
metadata: bench/ shows the metadata providers cost several times the parse, while one walk
that keeps its own small scopes costs a fraction of it. Names are resolved in Python's order:
module-level code first, statement by statement, then function bodies (which see the module's
final bindings, as they do when they are called), methods of a class with `__init__` first.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import TYPE_CHECKING, Callable, Iterator

import libcst as cst

from replaylint.codes import Code
from replaylint.resolve import folds
from replaylint.resolve.catalog import CallArgs, Catalog
from replaylint.resolve.scopes import (
    ClassInfo,
    FunctionInfo,
    HelperCall,
    Hit,
    ImportEdge,
    ModuleInfo,
    Scope,
)
from replaylint.resolve.values import (
    MODULE_TABLE,
    UNKNOWN,
    Class,
    Const,
    Ext,
    Func,
    LocalModule,
    Mapping,
    ModuleTable,
    Namespace,
    Obj,
    Seq,
    Super,
    Value,
)
from replaylint.resolve.workflows import is_main_guard, type_checking_name

if TYPE_CHECKING:
    from replaylint.engine import Project

# Builtins the folds care about; every other builtin name is an ordinary, safe object.
_BUILTINS = frozenset(
    {"getattr", "globals", "locals", "vars", "__import__", "eval", "exec", "compile", "__builtins__"}
)
_IMPORTERS = frozenset({"builtins.__import__", "importlib.import_module", "importlib.__import__"})
_DYNAMIC_CODE = frozenset({"builtins.eval", "builtins.exec", "builtins.compile"})
# Builtins that inspect an object without calling it: handing a root to them is not a use.
_NON_CALLING = frozenset(
    {"getattr", "hasattr", "setattr", "delattr", "vars", "dir", "id", "type", "isinstance",
     "issubclass", "callable", "repr", "str", "print", "len", "hash", "format", "bool"}
)
_IN_WORKFLOW = "temporalio.workflow.in_workflow()"
# Calls that wrap a callable without running it: inside a recorder's arguments they are recorded.
_WRAPPERS = frozenset({"functools.partial"})
_NAMESPACE_GETTERS = frozenset({"get", "__getitem__", "pop", "setdefault"})
_INIT_FIRST = ("__init__", "__post_init__", "__new__", "setup", "__aenter__", "__enter__")

# Fields that never hold code worth walking: whitespace, punctuation, operators' tokens.
_SKIP_PREFIXES = (
    "whitespace", "lpar", "rpar", "comma", "semicolon", "leading_lines", "trailing_whitespace",
    "header", "footer", "lines_after", "colon", "equal", "dot", "star", "lbracket",
    "rbracket", "lbrace", "rbrace", "default_indent", "default_newline", "encoding",
    "has_trailing", "indent", "newline", "asynchronous", "quote", "prefix", "first_line",
    "operator",
)
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}


def _child_fields(cls: type) -> tuple[str, ...]:
    names = _CHILD_FIELDS.get(cls)
    if names is None:
        names = tuple(
            f.name for f in fields(cls) if not f.name.startswith(_SKIP_PREFIXES)
        ) if is_dataclass(cls) else ()
        _CHILD_FIELDS[cls] = names
    return names


def _children(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    for name in _child_fields(type(node)):
        value = getattr(node, name)
        if isinstance(value, cst.CSTNode):
            yield value
        elif isinstance(value, (tuple, list)):
            for item in value:
                if isinstance(item, cst.CSTNode):
                    yield item


class Evaluator:
    def __init__(self, project: "Project", module: ModuleInfo, catalog: Catalog) -> None:
        self.project = project
        self.m = module
        self.catalog = catalog
        self.frameworks = project.frameworks
        self.module_scope = Scope(None)
        self.scope = self.module_scope
        self.fscope = self.module_scope  # the nearest function (or module) scope, for walrus
        self.func = module.top
        self.governed = True  # False inside exempt regions; the module decides what is reported
        self.exempt = False  # inside an activity body or a __main__ block
        self.cls: ClassInfo | None = None
        self.pending: list[tuple[FunctionInfo, Scope, dict[str, Value], bool]] = []
        self.recording = False  # evaluating the arguments of a recorder (ctx.run, execute_activity)
        self.walked: set[int] = set()  # functions whose bodies have been walked
        self.dead = False  # under `if TYPE_CHECKING:` or `if __name__ == "__main__":`
        self.method_of: ClassInfo | None = None  # the class whose method body is being walked
        self._stmt: dict[type, Callable[[cst.CSTNode], None]] = {
            cst.SimpleStatementLine: self._simple_line,
            cst.SimpleStatementSuite: self._simple_line,
            cst.IndentedBlock: self._block,
            cst.FunctionDef: self._function_def,
            cst.ClassDef: self._class_def,
            cst.If: self._if,
            cst.For: self._for,
            cst.While: self._while,
            cst.Try: self._try,
            cst.TryStar: self._try,
            cst.With: self._with,
            cst.Match: self._match,
            cst.Expr: self._expr_stmt,
            cst.Assign: self._assign,
            cst.AnnAssign: self._ann_assign,
            cst.AugAssign: self._aug_assign,
            cst.Return: self._return,
            cst.Import: self._import,
            cst.ImportFrom: self._import_from,
            cst.Global: self._global,
            cst.Nonlocal: self._global,
            cst.Del: self._del,
            cst.Pass: _nothing,
            cst.Break: _nothing,
            cst.Continue: _nothing,
        }
        self._expr: dict[type, Callable[[cst.CSTNode], Value]] = {
            cst.Name: self._name,
            cst.Attribute: self._attribute,
            cst.Call: self._call,
            cst.Subscript: self._subscript,
            cst.Lambda: self._lambda,
            cst.Await: self._await,
            cst.SimpleString: folds.literal,
            cst.ConcatenatedString: self._concatenated,
            cst.Integer: folds.literal,
            cst.Float: folds.literal,
            cst.FormattedString: self._fstring,
            cst.BinaryOperation: self._binary,
            cst.BooleanOperation: self._boolean,
            cst.IfExp: self._if_exp,
            cst.Tuple: self._sequence,
            cst.List: self._sequence,
            cst.ListComp: self._comprehension,
            cst.SetComp: self._comprehension,
            cst.GeneratorExp: self._comprehension,
            cst.DictComp: self._comprehension,
            cst.NamedExpr: self._named_expr,
            cst.UnaryOperation: self._unary,
            cst.Dict: self._dict,
        }

    # ------------------------------------------------------------------ driver

    def run(self) -> None:
        self.m.exports = self.module_scope.names
        for statement in self.m.tree.body:
            self.stmt(statement)
        # Function bodies run after the module is loaded, so they see its final bindings.
        index = 0
        while index < len(self.pending):
            info, scope, params, governed = self.pending[index]
            index += 1
            if id(info) not in self.walked:
                self._function_body(info, scope, params, governed)

    # ------------------------------------------------------------------ recording

    def _hit(self, code: Code, node: cst.CSTNode, call: str, reason: str, path: str = "") -> None:
        self.func.hits.append(Hit(code, node, call, reason, self.governed, path, self.dead))

    def _unfoldable(self, node: cst.CSTNode) -> None:
        text = self.m.tree.code_for_node(node).strip()
        text = " ".join(text.split())
        if len(text) > 60:
            text = text[:57] + "..."
        self.func.hits.append(Hit(Code.W006, node, text, "cannot be folded", self.governed, "", self.dead))

    def _helper(self, info: FunctionInfo, node: cst.CSTNode, call: str, reported: bool = True) -> None:
        self.func.calls.append(HelperCall(info, node, call, self.governed, reported, self.dead))

    # ------------------------------------------------------------------ statements

    def stmt(self, node: cst.CSTNode) -> None:
        handler = self._stmt.get(type(node))
        if handler is not None:
            handler(node)
        else:
            self._generic(node)

    def _generic(self, node: cst.CSTNode) -> None:
        for child in _children(node):
            if isinstance(child, cst.BaseExpression):
                self.eval(child)
            else:
                self.stmt(child)

    def _simple_line(self, node: cst.CSTNode) -> None:
        for small in node.body:  # type: ignore[attr-defined]
            self.stmt(small)

    def _block(self, node: cst.CSTNode) -> None:
        for statement in node.body:  # type: ignore[attr-defined]
            self.stmt(statement)

    def _suite(self, node: cst.BaseSuite) -> None:
        for statement in node.body:
            self.stmt(statement)

    def _expr_stmt(self, node: cst.Expr) -> None:
        self.eval(node.value)

    def _return(self, node: cst.Return) -> None:
        if node.value is not None:
            value = self.eval(node.value)
            if isinstance(value, Func):
                self._drop_implicit(value.info)  # handed back: it runs where the caller calls it
            if self.func.returns is UNKNOWN and isinstance(value, (Ext, Obj, Func)):
                self.func.returns = value

    def _global(self, node: cst.Global | cst.Nonlocal) -> None:
        names = {item.name.value for item in node.names}
        if isinstance(node, cst.Global):
            self.scope.globals_.update(names)
        else:
            self.scope.nonlocals.update(names)

    def _del(self, node: cst.Del) -> None:
        self._bind(node.target, UNKNOWN)

    def _assign(self, node: cst.Assign) -> None:
        value = self.eval(node.value)
        for target in node.targets:
            self._bind(target.target, value)

    def _ann_assign(self, node: cst.AnnAssign) -> None:
        value = self.eval(node.value) if node.value is not None else UNKNOWN
        if value is UNKNOWN:
            value = self.annotation_value(node.annotation.annotation)
        if node.value is not None or value is not UNKNOWN:
            self._bind(node.target, value)

    def _aug_assign(self, node: cst.AugAssign) -> None:
        self.eval(node.value)
        if not isinstance(node.target, cst.Name):
            self.eval(node.target)
        self._bind(node.target, UNKNOWN)

    def _bind(self, target: cst.BaseExpression, value: Value) -> None:
        if isinstance(target, cst.Name):
            name = target.value
            if isinstance(value, Func) and value.info.name == "<lambda>":
                value.info.name = name
                value.info.qualname = value.info.qualname.replace("<lambda>", name)
                self._drop_implicit(value.info)  # bound to a name: it runs where it is called
            scope = self.module_scope if name in self.scope.globals_ else self.scope
            if name in self.scope.nonlocals:
                scope = self.scope.enclosing_owner(name) or self.scope
            scope.names[name] = value
        elif isinstance(target, cst.Attribute):
            owner = self.eval(target.value)
            name = target.attr.value
            if isinstance(owner, Obj):
                previous = owner.info.instance_attrs.get(name)
                # Keep the most informative binding: a client stored in __init__ stays known
                # even when another method later resets the attribute to something opaque.
                if value is not UNKNOWN or previous is None:
                    owner.info.instance_attrs[name] = value
            elif isinstance(owner, Class):
                owner.info.attrs[name] = value
        elif isinstance(target, (cst.Tuple, cst.List)):
            elements = target.elements
            starred = any(isinstance(e, cst.StarredElement) for e in elements)
            if isinstance(value, Seq) and not starred and len(value.items) == len(elements):
                for element, item in zip(elements, value.items):
                    self._bind(element.value, item)
            else:
                for element in elements:
                    self._bind(element.value, UNKNOWN)
        elif isinstance(target, cst.StarredElement):
            self._bind(target.value, UNKNOWN)
        elif isinstance(target, cst.Subscript):
            self.eval(target)

    def _if(self, node: cst.If) -> None:
        if self._is_type_checking(node.test) or is_main_guard(node.test):
            # Never run on the workflow path: `if TYPE_CHECKING:` only binds names for
            # annotations (walked so `client: "OpenAI"` still resolves), `__main__` only runs
            # when the file is a script.
            saved = self.governed, self.exempt, self.dead
            self.governed, self.exempt, self.dead = False, True, True
            self._suite(node.body)
            self.governed, self.exempt, self.dead = saved
            if node.orelse is not None:
                self.stmt(node.orelse)
            return
        inside = self._in_workflow_test(node.test)
        if inside is None:
            self._suite(node.body)
        else:
            # `if workflow.in_workflow(): ... else: ...`: one branch never runs in a workflow.
            self._branch(node.body, dead=not inside)
        if node.orelse is not None:
            orelse = node.orelse
            if inside is not None:
                self._branch(orelse, dead=inside)
            elif isinstance(orelse, cst.If):
                self._if(orelse)
            else:
                self._suite(orelse.body)

    def _branch(self, node: cst.CSTNode, dead: bool) -> None:
        saved = self.governed, self.dead
        if dead:
            self.governed, self.dead = False, True
        if isinstance(node, cst.If):
            self._if(node)
        elif isinstance(node, cst.Else):
            self._suite(node.body)
        else:
            self._suite(node)  # type: ignore[arg-type]
        self.governed, self.dead = saved

    def _in_workflow_test(self, test: cst.BaseExpression) -> bool | None:
        """True for `workflow.in_workflow()` (or a helper returning it), False for its negation."""
        negated = False
        while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            negated = not negated
            test = test.expression
        value = self.eval(test)
        if isinstance(value, Ext) and value.path == _IN_WORKFLOW:
            return not negated
        return None

    def _is_type_checking(self, test: cst.BaseExpression) -> bool:
        if type_checking_name(test) is not None:
            return True
        value = self._peek(test)
        return isinstance(value, Ext) and value.path.endswith(".TYPE_CHECKING")

    def _for(self, node: cst.For) -> None:
        self._bind(node.target, _element(self.eval(node.iter)))
        self._suite(node.body)
        if node.orelse is not None:
            self._suite(node.orelse.body)

    def _while(self, node: cst.While) -> None:
        self.eval(node.test)
        self._suite(node.body)
        if node.orelse is not None:
            self._suite(node.orelse.body)

    def _try(self, node: cst.Try | cst.TryStar) -> None:
        self._suite(node.body)
        for handler in node.handlers:
            if handler.type is not None:
                self.eval(handler.type)
            if handler.name is not None:
                self._bind(handler.name.name, UNKNOWN)
            self._suite(handler.body)
        if node.orelse is not None:
            self._suite(node.orelse.body)
        if node.finalbody is not None:
            self._suite(node.finalbody.body)

    def _with(self, node: cst.With) -> None:
        for item in node.items:
            value = self.eval(item.item)
            if item.asname is not None:
                # Clients return themselves from __enter__; anything else is opaque.
                entered = value if isinstance(value, (Ext, Obj)) and _is_instance(value) else UNKNOWN
                self._bind(item.asname.name, entered)
        self._suite(node.body)

    def _match(self, node: cst.Match) -> None:
        self.eval(node.subject)
        for case in node.cases:
            for child in _children(case.pattern):
                if isinstance(child, cst.Name):
                    self.scope.names[child.value] = UNKNOWN
            if case.guard is not None:
                self.eval(case.guard)
            self._suite(case.body)

    # ------------------------------------------------------------------ imports

    def _import(self, node: cst.Import) -> None:
        for alias in node.names:
            name = folds.dotted(alias.name) or ""
            local = self.project.resolve_module(name, 0, self.m)
            self.m.imports.append(ImportEdge(name, node, local))
            if alias.asname is not None:
                value: Value = LocalModule(local) if local is not None else Ext(name)
                self._bind(alias.asname.name, value)  # type: ignore[arg-type]
            else:
                top = name.split(".")[0]
                top_local = local if top == name else self.project.resolve_module(top, 0, self.m)
                self.scope.names[top] = LocalModule(top_local) if top_local is not None else Ext(top)

    def _import_from(self, node: cst.ImportFrom) -> None:
        level = len(node.relative)
        name = folds.dotted(node.module) if node.module is not None else ""
        if name == "__future__":
            return
        absolute = self.project.absolute_name(name or "", level, self.m)
        local = self.project.resolve_module(name or "", level, self.m) if (name or level) else None
        self.m.imports.append(ImportEdge(absolute, node, local))
        if isinstance(node.names, cst.ImportStar):
            self._import_star(node, absolute, local)
            return
        for alias in node.names:
            member = alias.name.value if isinstance(alias.name, cst.Name) else folds.dotted(alias.name) or ""
            value: Value | None = None
            if local is not None:
                value = local.exports.get(member)
                if value is None:
                    sub = self.project.resolve_module(
                        f"{name}.{member}" if name else member, level, self.m
                    )
                    value = LocalModule(sub) if sub is not None else UNKNOWN
            else:
                value = Ext(f"{absolute}.{member}" if absolute else member)
            bound = alias.asname.name if alias.asname is not None else alias.name
            if isinstance(bound, cst.Name):
                self.scope.names[bound.value] = value

    def _import_star(self, node: cst.ImportFrom, absolute: str, local: ModuleInfo | None) -> None:
        if local is not None:
            self.scope.names.update(
                {k: v for k, v in local.exports.items() if not k.startswith("_")}
            )
            return
        if self.catalog.has_members(absolute):
            self._unfoldable(node)
            prefix = absolute + "."
            for name in self.catalog.calls:
                if name.startswith(prefix) and "." not in name[len(prefix) :]:
                    self.scope.names[name[len(prefix) :]] = Ext(name)

    # ------------------------------------------------------------------ definitions

    def _decorator_paths(self, decorators: tuple[cst.Decorator, ...] | list[cst.Decorator]) -> list[str]:
        paths = []
        for decorator in decorators:
            expr = decorator.decorator
            if isinstance(expr, cst.Call):
                value = self.eval(expr.func)
                for arg in expr.args:
                    self.eval(arg.value)
            else:
                value = self.eval(expr)
            if isinstance(value, Ext):
                paths.append(value.path)
            else:
                paths.append(folds.dotted(expr.func if isinstance(expr, cst.Call) else expr) or "")
        return paths

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
        info = FunctionInfo(name, qualname, self.m, node)
        if self.func is not self.m.top:
            info.parent = self.func
        self.m.functions.append(info)
        return info

    def _function_def(self, node: cst.FunctionDef) -> None:
        decorators = self._decorator_paths(node.decorators)
        params = self._params(node.params)
        info = self._new_function(node.name.value, node)
        info.decorators = tuple(decorators)
        if self.scope.is_class:
            info.cls = self.cls
        info.activity = self.project.activity_kind(decorators)
        for path in decorators:
            preset = self.frameworks.workflow_function(path)
            if preset is not None:
                self._entry(info, preset.name)
            elif self.frameworks.recorded_decorator(path) is not None:
                info.activity = "recorded"
        if info.cls is not None and info.cls.workflow is not None:
            if self.frameworks.workflow_method(info.cls.workflow, decorators, info.name):
                self._entry(info, info.cls.workflow)
        if info.entry is None and info.activity is None:
            # `def orchestrator(ctx: task.OrchestrationContext, _)`: the context type marks it.
            for value in params.values():
                if isinstance(value, Ext) and value.path.endswith("()"):
                    preset = self.frameworks.context_parameter(value.path[:-2])
                    if preset is not None:
                        self._entry(info, preset.name)
                        break
        info.exempt = self.exempt or info.activity is not None
        self.scope.names[node.name.value] = Func(info)
        governed = self.governed and not info.exempt
        self.pending.append((info, self.scope, params, governed))

    def _lambda(self, node: cst.Lambda) -> Value:
        params = self._params(node.params)
        info = self._new_function("<lambda>", node)
        if self.recording:
            # `ctx.run("fetch", lambda: requests.get(url))`: the recorder runs it once and
            # journals the result, so the body is a recorded zone, not workflow code.
            info.exempt = True
            self.pending.append((info, self.scope, params, False))
            return Func(info)
        info.exempt = self.exempt
        # An inline lambda runs when whatever it is handed to calls it: its body's roots are
        # reported where they are written, and its unsafety flows to the enclosing function.
        self._helper(info, node, "<lambda>", reported=False)
        self.pending.append((info, self.scope, params, self.governed))
        return Func(info)

    def _drop_implicit(self, info: FunctionInfo) -> None:
        self.func.calls = [c for c in self.func.calls if c.reported or c.target is not info]

    def _entry(self, info: FunctionInfo, framework: str) -> None:
        info.entry = framework
        if framework not in self.m.frameworks:
            self.m.frameworks.append(framework)

    def _walk_nested_now(self, info: FunctionInfo) -> None:
        """A nested function called by the function being walked runs at that point: walk it
        now, so that what it rebinds (`nonlocal t; t = time`) is seen by the rest of the caller."""
        if id(info) in self.walked or info.parent is not self.func:
            return
        for pending in self.pending:
            if pending[0] is info:
                self._function_body(*pending)
                return

    def _function_body(
        self, info: FunctionInfo, scope: Scope, params: dict[str, Value], governed: bool
    ) -> None:
        self.walked.add(id(info))
        saved = (self.scope, self.fscope, self.func, self.governed, self.exempt, self.cls, self.method_of, self.dead, self.recording)
        body_scope = Scope(scope)
        for name, value in params.items():
            if isinstance(value, _Annotation):
                late = self.annotation_value(value.node)
                if late is not UNKNOWN:
                    body_scope.names[name[len(_LATE) :]] = late
            elif name not in body_scope.names:
                body_scope.names[name] = value
        node = info.node
        if info.cls is not None and isinstance(node, cst.FunctionDef):
            first = [*node.params.posonly_params, *node.params.params][:1]
            names = {d.split(".")[-1] for d in info.decorators}
            if first and "staticmethod" not in names:
                cls_value: Value = Class(info.cls) if "classmethod" in names else Obj(info.cls)
                body_scope.names[first[0].name.value] = cls_value
        if info.entry is not None and isinstance(node, (cst.FunctionDef, cst.Lambda)):
            self._bind_context(info, node.params, body_scope)
        self.scope = self.fscope = body_scope
        self.func, self.governed, self.exempt = info, governed, info.exempt
        self.cls = None
        self.method_of = info.cls
        self.dead = False
        self.recording = False
        if isinstance(node, cst.Lambda):
            info.returns = self.eval(node.body)
        elif isinstance(node, cst.FunctionDef):
            self._suite(node.body)
        (self.scope, self.fscope, self.func, self.governed, self.exempt, self.cls, self.method_of,
         self.dead, self.recording) = saved

    def _bind_context(self, info: FunctionInfo, params: cst.Parameters, scope: Scope) -> None:
        """An unannotated run-context parameter of a framework entry is that framework's context."""
        preset = self.frameworks.get(info.entry or "")
        if preset is None or preset.context_param is None:
            return
        positional = [*params.posonly_params, *params.params]
        if info.cls is not None:
            positional = positional[1:]
        if len(positional) > preset.context_param:
            name = positional[preset.context_param].name.value
            if scope.names.get(name, UNKNOWN) is UNKNOWN:
                scope.names[name] = Ext(preset.context_type + "()")

    def _class_def(self, node: cst.ClassDef) -> None:
        decorators = self._decorator_paths(node.decorators)
        qualname = f"{self.cls.qualname}.{node.name.value}" if self.cls else node.name.value
        info = ClassInfo(node.name.value, qualname, self.m, node, decorators=tuple(decorators))
        for path in decorators:
            preset = self.frameworks.workflow_class(path)
            if preset is not None:
                info.workflow = preset.name
                if preset.name not in self.m.frameworks:
                    self.m.frameworks.append(preset.name)
        for arg in node.bases:
            base = self.eval(arg.value)
            if isinstance(base, Class):
                info.local_bases.append(base.info)
            elif isinstance(base, Ext):
                info.external_bases.append(base.path)
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
        self.pending.extend(methods)
        self.scope.names[node.name.value] = Class(info)

    # ------------------------------------------------------------------ annotations

    def annotation_value(self, node: cst.BaseExpression) -> Value:
        """An instance of a provider client when the annotation names one (`client: OpenAI`,
        `Optional[AsyncAnthropic]`, `"ChatOpenAI | None"`); UNKNOWN otherwise."""
        if isinstance(node, (cst.Name, cst.Attribute)):
            value = self._peek(node)
            if isinstance(value, Ext):
                cls = self.catalog.client_class(value.path)
                if cls is not None:
                    return Ext(cls + "()")
                if self.frameworks.is_framework_path(value.path):
                    return Ext(value.path + "()")  # a run context: `ctx: restate.Context`
            if isinstance(value, Class):
                return Obj(value.info)
            return UNKNOWN
        if isinstance(node, cst.Subscript):
            for element in node.slice:
                if isinstance(element.slice, cst.Index):
                    found = self.annotation_value(element.slice.value)
                    if found is not UNKNOWN:
                        return found
            return UNKNOWN
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.BitOr):
            found = self.annotation_value(node.left)
            return found if found is not UNKNOWN else self.annotation_value(node.right)
        if isinstance(node, cst.SimpleString):
            text = node.evaluated_value
            if isinstance(text, str):
                try:
                    return self.annotation_value(cst.parse_expression(text))
                except cst.ParserSyntaxError:
                    return UNKNOWN
        return UNKNOWN

    def _peek(self, node: cst.BaseExpression) -> Value:
        """Resolve a name or attribute chain without recording anything."""
        if isinstance(node, cst.Name):
            return self._lookup(node.value)
        if isinstance(node, cst.Attribute):
            return self.attr(self._peek(node.value), node.attr.value)
        return UNKNOWN

    # ------------------------------------------------------------------ expressions

    def eval(self, node: cst.BaseExpression) -> Value:
        handler = self._expr.get(type(node))
        if handler is not None:
            return handler(node)
        for child in _children(node):
            if isinstance(child, cst.BaseExpression):
                self.eval(child)
            elif not isinstance(child, (cst.BaseParenthesizableWhitespace, cst.Comment)):
                self._generic_expr(child)
        return UNKNOWN

    def _generic_expr(self, node: cst.CSTNode) -> None:
        # Containers of expressions: Element, Arg, DictElement, Index, Slice, comprehension parts.
        for child in _children(node):
            if isinstance(child, cst.BaseExpression):
                self.eval(child)
            else:
                self._generic_expr(child)

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
        return UNKNOWN

    def _name(self, node: cst.Name) -> Value:
        return self._lookup(node.value)

    def _attribute(self, node: cst.Attribute) -> Value:
        value = self.attr(self.eval(node.value), node.attr.value)
        if isinstance(value, Func) and value.bound and _is_property(value.info):
            # `self.now` on a @property runs its body: a call in disguise.
            self._helper(value.info, node, folds.written(node) or value.info.name)
            return value.info.returns
        return value

    def attr(self, value: Value, name: str) -> Value:
        if isinstance(value, Ext):
            if name == "__dict__":
                return Namespace(value)
            if value.path == "sys" and name == "modules":
                return MODULE_TABLE
            return Ext(f"{value.path}.{name}")
        if isinstance(value, LocalModule):
            found = value.info.exports.get(name)
            if found is not None:
                return found
            sub = self.project.resolve_module(f"{value.info.name}.{name}", 0, self.m)
            return LocalModule(sub) if sub is not None else UNKNOWN
        if isinstance(value, Super):
            for base in value.info.local_bases:
                found = base.lookup(name, instance=True)
                if isinstance(found, Func):
                    return Func(found.info, bound=True)
                if found is not None:
                    return found
            for base in value.info.external_bases:
                return Ext(f"{base}().{name}") if self.catalog.client_class(base) else UNKNOWN
            return UNKNOWN
        if isinstance(value, (Obj, Class)):
            if name == "__dict__":
                return Namespace(value)
            found = value.info.lookup(name, instance=isinstance(value, Obj))
            if isinstance(found, Func):
                return Func(found.info, bound=isinstance(value, Obj))
            return found if found is not None else UNKNOWN
        return UNKNOWN

    def _await(self, node: cst.Await) -> Value:
        return self.eval(node.expression)

    def _concatenated(self, node: cst.ConcatenatedString) -> Value:
        value = folds.literal(node)
        if value is UNKNOWN:
            self.eval(node.left)
            self.eval(node.right)
        return value

    def _fstring(self, node: cst.FormattedString) -> Value:
        parts: list[str] = []
        constant = True
        for part in node.parts:
            if isinstance(part, cst.FormattedStringText):
                parts.append(part.value)
                continue
            value = self.eval(part.expression)  # type: ignore[attr-defined]
            if constant and isinstance(value, Const) and part.conversion is None and part.format_spec is None:  # type: ignore[attr-defined]
                parts.append(str(value.value))
            else:
                constant = False
        return Const("".join(parts)) if constant else UNKNOWN

    def _binary(self, node: cst.BinaryOperation) -> Value:
        left = self.eval(node.left)
        right = self.eval(node.right)
        if isinstance(node.operator, cst.BitOr):
            # A LangChain pipeline (`prompt | llm | parser`) runs the model when invoked.
            for side in (left, right):
                if isinstance(side, Ext) and "()" in side.path:
                    if self.catalog.client_class(side.path[: side.path.rfind("()")]) is not None:
                        return side
        return folds.binary(node.operator, left, right)

    def _unary(self, node: cst.UnaryOperation) -> Value:
        value = self.eval(node.expression)
        if isinstance(node.operator, cst.Minus) and isinstance(value, Const) and isinstance(value.value, int):
            return Const(-value.value)
        return UNKNOWN

    def _boolean(self, node: cst.BooleanOperation) -> Value:
        left = self.eval(node.left)
        right = self.eval(node.right)
        # `client = client or OpenAI()`: keep whichever side is known.
        return left if left is not UNKNOWN and not isinstance(left, Const) else right

    def _if_exp(self, node: cst.IfExp) -> Value:
        self.eval(node.test)
        body = self.eval(node.body)
        orelse = self.eval(node.orelse)
        return body if body is not UNKNOWN else orelse

    def _sequence(self, node: cst.Tuple | cst.List) -> Value:
        items = []
        for element in node.elements:
            value = self.eval(element.value)
            items.append(UNKNOWN if isinstance(element, cst.StarredElement) else value)
        return Seq(tuple(items))

    def _dict(self, node: cst.Dict) -> Value:
        items: dict[object, Value] = {}
        known = True
        for element in node.elements:
            if isinstance(element, cst.DictElement):
                key = self.eval(element.key)
                value = self.eval(element.value)
                if isinstance(key, Const):
                    items[key.value] = value
                else:
                    known = False
            else:
                self.eval(element.value)
                known = False
        return Mapping(items) if known else UNKNOWN

    def _named_expr(self, node: cst.NamedExpr) -> Value:
        value = self.eval(node.value)
        if isinstance(node.target, cst.Name):
            self.fscope.names[node.target.value] = value
        return value

    def _comprehension(self, node: cst.CSTNode) -> Value:
        saved = self.scope
        self.scope = Scope(saved)
        clause = node.for_in  # type: ignore[attr-defined]
        while clause is not None:
            self._bind(clause.target, _element(self.eval(clause.iter)))
            for condition in clause.ifs:
                self.eval(condition.test)
            clause = clause.inner_for_in
        if isinstance(node, cst.DictComp):
            self.eval(node.key)
            self.eval(node.value)
        else:
            self.eval(node.elt)  # type: ignore[attr-defined]
        self.scope = saved
        return UNKNOWN

    def _subscript(self, node: cst.Subscript) -> Value:
        base = self.eval(node.value)
        parts: list[Value | None] = []
        is_slice = False
        for element in node.slice:
            inner = element.slice
            if isinstance(inner, cst.Index):
                parts.append(self.eval(inner.value))
            else:
                is_slice = True
                for bound in (inner.lower, inner.upper, inner.step):  # type: ignore[union-attr]
                    parts.append(self.eval(bound) if bound is not None else None)
        if len(node.slice) != 1:
            return UNKNOWN
        if not is_slice and isinstance(base, (Namespace, ModuleTable)):
            return self._index_namespace(base, parts[0] or UNKNOWN, node)
        text = folds.str_const(base)
        if text is not None:
            return folds.subscript(text, parts, is_slice)
        if isinstance(base, Mapping) and not is_slice:
            key = parts[0]
            return base.items.get(key.value, UNKNOWN) if isinstance(key, Const) else UNKNOWN
        if isinstance(base, Seq) and not is_slice:
            index = parts[0]
            if isinstance(index, Const) and isinstance(index.value, int):
                try:
                    return base.items[index.value]
                except IndexError:
                    return UNKNOWN
        return UNKNOWN

    def _index_namespace(self, table: Value, key: Value, node: cst.CSTNode) -> Value:
        name = folds.str_const(key)
        if name is None:
            target = table.target if isinstance(table, Namespace) else None
            if isinstance(table, ModuleTable) or target is None or self._may_reach_unsafe(target):
                self._unfoldable(node)
            return UNKNOWN
        if isinstance(table, ModuleTable):
            return self._module_value(name, node, top_only=False)
        if table.target is None:  # type: ignore[union-attr]
            found = self.module_scope.names.get(name)
            return found if found is not None else self._lookup(name)
        return self.attr(table.target, name)  # type: ignore[union-attr]

    def _module_value(self, name: str, node: cst.CSTNode, top_only: bool) -> Value:
        if top_only:
            name = name.split(".")[0]
        local = self.project.resolve_module(name, 0, self.m)
        return LocalModule(local) if local is not None else Ext(name)

    def _may_reach_unsafe(self, value: Value) -> bool:
        if isinstance(value, Ext):
            return self.catalog.has_members(value.path)
        return isinstance(value, (Namespace, ModuleTable, LocalModule))

    # ------------------------------------------------------------------ calls

    def _call(self, node: cst.Call) -> Value:
        func = node.func
        if isinstance(func, cst.Attribute):
            owner = self.eval(func.value)
            method = func.attr.value
            if isinstance(owner, (Namespace, ModuleTable)) and method in _NAMESPACE_GETTERS:
                args = [self.eval(arg.value) for arg in node.args]
                return self._index_namespace(owner, args[0] if args else UNKNOWN, node)
            if isinstance(owner, Mapping) and method == "get":
                args = [self.eval(arg.value) for arg in node.args]
                key = args[0] if args else UNKNOWN
                return owner.items.get(key.value, UNKNOWN) if isinstance(key, Const) else UNKNOWN
            text = folds.str_const(owner)
            if text is not None:
                args = [self.eval(arg.value) for arg in node.args]
                return folds.str_method(text, method, args)
            callee = self.attr(owner, method)
        else:
            if isinstance(func, cst.Name) and self.scope.lookup(func.value) is None:
                if func.value == "super" and self.method_of is not None:
                    return Super(self.method_of)
                if func.value in ("staticmethod", "classmethod") and len(node.args) == 1:
                    return self.eval(node.args[0].value)
            callee = self.eval(func)
        path = callee.path if isinstance(callee, Ext) else ""
        recorder = bool(path) and (path in self.catalog.recorders or self.frameworks.recorder(path))
        registrar = bool(path) and self._register(path, node)
        passive = recorder or registrar or (
            isinstance(func, cst.Name) and func.value in _NON_CALLING and self.scope.lookup(func.value) is None
        ) or (self.recording and path in _WRAPPERS)
        saved_recording = self.recording
        # `ctx.run("fetch", partial(fetch, url))`: the wrapper is handed to the recorder too.
        self.recording = recorder or (saved_recording and path in _WRAPPERS)
        values: list[Value] = []
        count = 0
        strings: dict[str, str] = {}
        position = 0
        for arg in node.args:
            value = self.eval(arg.value)
            values.append(value)
            if not passive:
                self._passed_on(arg.value, value)
            if not (isinstance(value, Const) and value.value is None):
                count += 1
            if arg.keyword is None and not arg.star:
                text = folds.str_const(value)
                if text is not None:
                    strings[str(position)] = text
                position += 1
            elif arg.keyword is not None:
                text = folds.str_const(value)
                if text is not None:
                    strings[arg.keyword.value] = text
        self.recording = saved_recording
        return self._apply(callee, node, values, CallArgs(count, strings))

    def _register(self, path: str, node: cst.Call) -> bool:
        """`Orchestrator.create(fn)`, `worker.add_orchestrator(fn)`, `worker.add_activity(fn)`:
        the function handed over becomes replayed code, or a recorded zone."""
        workflow = self.frameworks.workflow_registrar(path)
        recorded = None if workflow is not None else self.frameworks.recorded_registrar(path)
        if workflow is None and recorded is None:
            return False
        for arg in node.args:
            value = self._peek(arg.value)
            if isinstance(value, Func):
                if workflow is not None:
                    self._entry(value.info, workflow.name)
                else:
                    value.info.activity = "recorded"
        return True

    def _passed_on(self, expr: cst.BaseExpression, value: Value) -> None:
        """An unsafe callable handed to other code (`partial(time.time)`, `map(random.random, xs)`)."""
        if isinstance(expr, (cst.Call, cst.Lambda)):
            return
        if isinstance(value, Ext):
            entry = self.catalog.reference_entry(value.path)
            if entry is not None:
                self._hit(entry.code, expr, folds.written(expr) or _pretty(value.path), entry.reason, value.path)
        elif isinstance(value, Func) and value.info.name != "<lambda>":
            self._helper(value.info, expr, folds.written(expr) or value.info.name)

    def _apply(self, callee: Value, node: cst.Call, args: list[Value], cargs: CallArgs) -> Value:
        if isinstance(callee, Ext):
            path = callee.path
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
            entry, result = self.catalog.classify_call(path, cargs)
            if entry is not None:
                self._hit(entry.code, node, folds.written(node.func) or _pretty(path), entry.reason, path)
                return UNKNOWN
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
            if base is not None:
                return Ext(base + "()")
            return Obj(callee.info)
        if isinstance(callee, Obj):
            method = callee.info.lookup("__call__", instance=False)
            if isinstance(method, Func):
                self._helper(method.info, node, written or callee.info.name)
        return UNKNOWN

    def _inherited_constructor(self, info: ClassInfo, node: cst.Call, written: str | None, cargs: CallArgs) -> None:
        """`class Dice(random.Random): ...; Dice()`: the base's constructor runs, unseeded."""
        for base in info.external_bases:
            entry, _ = self.catalog.classify_call(base, cargs)
            if entry is not None:
                self._hit(entry.code, node, written or info.name, entry.reason, base)
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

    def _dynamic_import(self, node: cst.Call, path: str, args: list[Value]) -> Value:
        name = folds.str_const(args[0]) if args else None
        keywords = {
            arg.keyword.value: value for arg, value in zip(node.args, args) if arg.keyword is not None
        }
        package = keywords.get("package") or (args[1] if len(args) > 1 and path == "importlib.import_module" else None)
        if name is not None and name.startswith(".") and path == "importlib.import_module":
            base = folds.str_const(package) if package is not None else None
            name = f"{base}{name}" if base else None
        if name is None:
            self.m.imports.append(ImportEdge("", node, dynamic=True))
            self._unfoldable(node)
            return UNKNOWN
        self.m.imports.append(ImportEdge(name, node, self.project.resolve_module(name, 0, self.m)))
        # __import__("a.b") returns the top package unless a fromlist is given.
        fromlist = keywords.get("fromlist") or (args[3] if len(args) >= 4 and node.args[3].keyword is None else None)
        top_only = path != "importlib.import_module" and (
            fromlist is None or (isinstance(fromlist, Const) and not fromlist.value)
            or (isinstance(fromlist, Seq) and not fromlist.items)
        )
        return self._module_value(name, node, top_only=top_only)


def _nothing(node: cst.CSTNode) -> None:
    return None


_LATE = "\0late:"  # key prefix for annotations resolved when the body is walked


class _Annotation(Value):
    __slots__ = ("node",)

    def __init__(self, node: cst.BaseExpression) -> None:
        self.node = node


def _is_property(info: FunctionInfo) -> bool:
    return any(d.rsplit(".", 1)[-1] in ("property", "cached_property") for d in info.decorators)


def _element(iterable: Value) -> Value:
    """What a loop over a literal binds: `for clock in (time.time, time.monotonic)` binds a root.
    The first element the guard knows stands for all of them (a may-analysis)."""
    if isinstance(iterable, Seq):
        for item in iterable.items:
            if isinstance(item, (Ext, Func, Class, Obj)):
                return item
    return UNKNOWN


def _is_instance(value: Value) -> bool:
    return isinstance(value, Obj) or (isinstance(value, Ext) and "()" in value.path)


def _pretty(path: str) -> str:
    return path.replace(":", ".")
