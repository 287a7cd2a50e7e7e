"""What a name, attribute or call in followed installed code stands for, as a catalog path or a
followed definition.

Values are either dotted paths in the catalog's spelling (`openai.OpenAI()` for an instance,
`time.time`), or objects for definitions in followed modules (a module, class, instance,
function or `super()` proxy). Name bindings come from astroid's scope lookup; imports, returns,
instance attributes (`self.x = ...` in any method of the class or its bases) and base classes
are resolved here, over followed modules only. astroid's own `infer()` is not used: it loads
every module a file imports through its process-wide manager, from the linter's sys.path.
"""

from __future__ import annotations

from collections.abc import Callable

from astroid import nodes

from replaylint.installed.modules import InstalledModule, Modules, absolute_name
from replaylint.installed.objects import (
    NO_ARGS,
    Cls,
    Fn,
    Inst,
    InstalledSuper,
    InstalledValue,
    Mod,
    assigned_value,
    c3,
    call_args,
    fold_string,
    method_kind,
    own_nodes,
    parameter_parts,
    qualname,
    self_assignments,
    unique,
)
from replaylint.resolve.call_args import CallArgs
from replaylint.resolve.catalog import Catalog

_MAX_DEPTH = 60  # nested evaluations (names through assignments, imports, returns)


class InstalledEvaluator:
    """Values of expressions in followed code, memoized for the run."""

    def __init__(self, modules: Modules, catalog: Catalog, followed: Callable[[str], bool]):
        self.modules = modules
        self._catalog = catalog
        self._followed = followed
        self._exprs: dict[tuple[int, Fn | None], list[InstalledValue]] = {}
        self._returns: dict[Fn, list[InstalledValue]] = {}
        self._mros: dict[Cls, tuple[Cls | str, ...]] = {}
        self._selfs: dict[Cls, dict[str, list[tuple[nodes.FunctionDef, nodes.NodeNG]]]] = {}
        self._resolved: dict[str, list[InstalledValue]] = {}
        self._active: set[object] = set()
        self._depth = 0

    # ------------------------------------------------------------------ definitions

    def function(self, node: nodes.FunctionDef, receiver: Cls | None) -> Fn:
        return Fn(node.root().name, qualname(node), node.lineno or 0, node, receiver)

    def cls(self, node: nodes.ClassDef) -> Cls:
        return Cls(node.root().name, qualname(node), node.lineno or 0, node)

    def resolve(self, path: str) -> list[InstalledValue]:
        """The definitions a dotted path into followed code names (`pkg.mod.Class().method`);
        what cannot be followed stays a path."""
        if path not in self._resolved:
            self._resolved[path] = self._resolve(path, frozenset())
        return self._resolved[path]

    def _resolve(self, path: str, seen: frozenset[str]) -> list[InstalledValue]:
        if path in seen or len(seen) > 8 or not self._enter(("resolve", path)):
            return [path]
        try:
            pieces = path.split(".")
            top = pieces[0]
            if not top.isidentifier() or not self.modules.exists(top):
                return [path]
            values: list[InstalledValue] = [Mod(top)]
            for piece in pieces[1:]:
                name, calls = piece.rstrip("()"), piece.count("()")
                values = unique(v for value in values for v in self._member_text(value, name))
                for _ in range(calls):
                    values = unique(v for value in values for v in self.result(value, NO_ARGS))
            out: list[InstalledValue] = []
            for value in values:  # a re-export (`from .llm import complete`) is followed on
                if isinstance(value, str) and value != path and self._followed(value):
                    out += self._resolve(value, seen | {path})
                else:
                    out.append(value)
            return unique(out)
        finally:
            self._leave(("resolve", path))

    def _member_text(self, value: InstalledValue, name: str) -> list[InstalledValue]:
        return [f"{value}.{name}"] if isinstance(value, str) else self.member(value, name)

    # ------------------------------------------------------------------ expressions

    def expr(self, node: nodes.NodeNG, ctx: Fn | None) -> list[InstalledValue]:
        # Module and class level code has no `self`: evaluate it once, whatever the caller.
        frame = node.frame()
        ctx = ctx if isinstance(frame, (nodes.FunctionDef, nodes.Lambda)) else None
        key = (id(node), ctx)
        cached = self._exprs.get(key)
        if cached is not None:
            return cached
        if not self._enter(key):
            return []
        try:
            values = unique(self._expr(node, ctx))
        finally:
            self._leave(key)
        self._exprs[key] = values
        return values

    def _enter(self, key: object) -> bool:
        if key in self._active or self._depth >= _MAX_DEPTH:
            return False  # a cycle (`x = x.parent`) or a chain too deep to be worth following
        self._active.add(key)
        self._depth += 1
        return True

    def _leave(self, key: object) -> None:
        self._active.discard(key)
        self._depth -= 1

    def _expr(self, node: nodes.NodeNG, ctx: Fn | None) -> list[InstalledValue]:
        if isinstance(node, nodes.Name):
            return self._name(node, ctx)
        if isinstance(node, nodes.Attribute):
            return [
                v for base in self.expr(node.expr, ctx) for v in self.member(base, node.attrname)
            ]
        if isinstance(node, nodes.Call):
            return self._call(node, ctx)
        if isinstance(node, (nodes.Await, nodes.NamedExpr)):
            return self.expr(node.value, ctx)
        if isinstance(node, nodes.IfExp):
            return self.expr(node.body, ctx) + self.expr(node.orelse, ctx)
        if isinstance(node, nodes.BoolOp):  # `self._client or OpenAI()`
            return [v for value in node.values for v in self.expr(value, ctx)]
        return []

    def _call(self, node: nodes.Call, ctx: Fn | None) -> list[InstalledValue]:
        funcs = self.expr(node.func, ctx)
        if "builtins.super" in funcs and ctx is not None:
            owner = ctx.node.parent
            if isinstance(owner, nodes.ClassDef):
                defining = self.cls(owner)
                return [InstalledSuper(ctx.receiver or defining, defining)]
        if "builtins.getattr" in funcs and len(node.args) >= 2:
            name = fold_string(node.args[1])
            if name is not None:
                return [v for base in self.expr(node.args[0], ctx) for v in self.member(base, name)]
        args = call_args(node)
        return [v for func in funcs for v in self.result(func, args)]

    def _name(self, node: nodes.Name, ctx: Fn | None) -> list[InstalledValue]:
        scope, stmts = node.lookup(node.name)
        if isinstance(scope, nodes.Module) and scope.name == "builtins" or not stmts:
            info = self.modules.get(node.root().name)
            starred = self._star(info, node.name) if info is not None else []
            return starred or [f"builtins.{node.name}"]
        return [v for stmt in stmts for v in self._binding(stmt, node.name, ctx)]

    def _binding(self, stmt: nodes.NodeNG, name: str, ctx: Fn | None) -> list[InstalledValue]:
        if isinstance(stmt, nodes.Import):
            for orig, alias in stmt.names:
                if alias == name:
                    return [orig]
                if alias is None and orig.split(".")[0] == name:
                    return [name]  # `import a.b` binds `a`
            return []
        if isinstance(stmt, nodes.ImportFrom):
            root = stmt.root()
            assert isinstance(root, nodes.Module)
            base = absolute_name(root.name, root.package, stmt.modname, stmt.level)
            for orig, alias in stmt.names:
                if (alias or orig) == name:
                    return [f"{base}.{orig}" if base else orig]
            return []
        if isinstance(stmt, nodes.FunctionDef):
            parent = stmt.parent
            if isinstance(parent, nodes.ClassDef):
                return [self.function(stmt, self.cls(parent))]
            # A nested function closes over the enclosing method's `self`; a module's does not.
            nested = isinstance(parent.frame(), (nodes.FunctionDef, nodes.Lambda))
            return [self.function(stmt, ctx.receiver if ctx is not None and nested else None)]
        if isinstance(stmt, nodes.ClassDef):
            return [self.cls(stmt)]
        if isinstance(stmt, nodes.AssignName):
            if isinstance(stmt.parent, nodes.Arguments):
                return self._parameter(stmt, stmt.parent, ctx)
            value = assigned_value(stmt)
            return self.expr(value, ctx) if value is not None else []
        return []

    def _parameter(
        self, target: nodes.AssignName, args: nodes.Arguments, ctx: Fn | None
    ) -> list[InstalledValue]:
        func = args.parent
        first = [*(args.posonlyargs or []), *(args.args or [])][:1]
        if isinstance(func, nodes.FunctionDef) and isinstance(func.parent, nodes.ClassDef):
            kind = method_kind(func)
            if first and first[0] is target and kind != "static":
                owner = self.cls(func.parent)
                receiver = owner
                if ctx is not None and ctx.receiver is not None and owner in self.mro(ctx.receiver):
                    receiver = ctx.receiver  # an inherited method, reached through a subclass
                return [receiver] if kind == "class" else [Inst(receiver)]
        annotation, default = parameter_parts(args, target)
        values: list[InstalledValue] = []
        if annotation is not None:  # `client: anthropic.Anthropic` is an instance of it
            for kind_of in self._annotation(annotation, ctx):
                if isinstance(kind_of, str):
                    values.append(f"{kind_of}()")
                elif isinstance(kind_of, Cls):
                    values.append(Inst(kind_of))
        if default is not None:  # `def f(now=time.time)`: called without it, the default runs
            values += self.expr(default, ctx)
        return values

    def _annotation(self, node: nodes.NodeNG, ctx: Fn | None) -> list[InstalledValue]:
        if isinstance(node, nodes.BinOp) and node.op == "|":
            return self._annotation(node.left, ctx) + self._annotation(node.right, ctx)
        if isinstance(node, nodes.Subscript):
            outer = self.expr(node.value, ctx)
            if any(isinstance(v, str) and v.endswith(("Optional", "Union")) for v in outer):
                inner = node.slice.elts if isinstance(node.slice, nodes.Tuple) else [node.slice]
                return [v for part in inner for v in self._annotation(part, ctx)]
            return []
        if isinstance(node, (nodes.Name, nodes.Attribute)):
            return [v for v in self.expr(node, ctx) if v != "builtins.None"]
        return []

    def _star(self, info: InstalledModule, name: str) -> list[InstalledValue]:
        for module in info.star_imports:
            if self._followed(module):
                star = self.modules.get(module)
                if star is not None and not name.startswith("_") and name in star.tree.locals:
                    return self.member(Mod(module), name)
            elif self._catalog.has_members(f"{module}.{name}"):
                return [f"{module}.{name}"]  # `from openai import *` then `OpenAI()`
        return []

    # ------------------------------------------------------------------ members and calls

    def member(self, value: InstalledValue, name: str) -> list[InstalledValue]:
        if isinstance(value, str):
            if self._followed(value) and not self._catalog.has_members(value):
                resolved = self.resolve(value)
                if resolved != [value]:
                    return unique(v for r in resolved for v in self._member_text(r, name))
            return [f"{value}.{name}"]
        if isinstance(value, Mod):
            return self._module_member(value.name, name)
        if isinstance(value, Cls):
            return self._class_member(value, name, instance=False)
        if isinstance(value, Inst):
            return self._class_member(value.cls, name, instance=True)
        if isinstance(value, InstalledSuper):
            return self._class_member(value.receiver, name, instance=True, after=value.after)
        return []

    def result(self, value: InstalledValue, args: CallArgs) -> list[InstalledValue]:
        """What calling the value returns."""
        if isinstance(value, str):
            resolved = self.resolve(value) if self._followed(value) else [value]
            # What resolve leaves as a path is final: the catalog says what calling it returns.
            return unique(
                v
                for r in resolved
                for v in (
                    self._catalog.classify_call(r, args)[1:]
                    if isinstance(r, str)
                    else self.result(r, args)
                )
                if v is not None
            )
        if isinstance(value, Fn):
            return self.returns(value)
        if isinstance(value, Cls):
            return [Inst(value)]
        if isinstance(value, Inst):
            calls = self._class_member(value.cls, "__call__", instance=True)
            return unique(v for f in calls if isinstance(f, Fn) for v in self.returns(f))
        return []

    def returns(self, fn: Fn) -> list[InstalledValue]:
        if fn in self._returns:
            return self._returns[fn]
        if not self._enter(("returns", fn)):
            return []
        try:
            found = [
                v
                for ret in own_nodes(
                    fn.node, nodes.Return, (nodes.FunctionDef, nodes.ClassDef, nodes.Lambda)
                )
                if isinstance(ret, nodes.Return) and ret.value is not None
                for v in self.expr(ret.value, fn)
            ]
        finally:
            self._leave(("returns", fn))
        self._returns[fn] = unique(found)
        return self._returns[fn]

    def _module_member(self, module: str, name: str) -> list[InstalledValue]:
        sub = f"{module}.{name}"
        info = self.modules.get(module) if self._followed(module) else None
        if info is None:  # not followed, missing or opaque: only its submodules are known
            return [Mod(sub)] if self.modules.exists(sub) else [sub]
        stmts = info.tree.locals.get(name)
        if stmts:
            return unique(v for stmt in stmts for v in self._binding(stmt, name, None))
        if info.tree.package and self.modules.exists(sub):
            return [Mod(sub)]
        return self._star(info, name) or [sub]

    def _class_member(
        self, cls: Cls, name: str, *, instance: bool, after: Cls | None = None
    ) -> list[InstalledValue]:
        order = self.mro(cls)
        if after is not None and after in order:
            order = order[order.index(after) + 1 :]
        found: list[InstalledValue] = []
        if instance and after is None:
            for owner in order:
                if isinstance(owner, Cls):
                    for method, value in self.self_assignments(owner).get(name, ()):
                        found += self.expr(value, self.function(method, cls))
        external: list[InstalledValue] = []
        for owner in order:
            if isinstance(owner, str):
                # An SDK class built on a catalog client (`class Chat(OpenAI)`) is that client;
                # a definition in a followed base still wins over it.
                external.append(f"{owner}().{name}" if instance else f"{owner}.{name}")
                continue
            stmts = owner.node.locals.get(name)
            if not stmts:
                continue
            for stmt in stmts:
                if isinstance(stmt, nodes.FunctionDef):
                    kind = method_kind(stmt)
                    if kind == "property" and instance:
                        found += self.returns(self.function(stmt, cls))
                    elif kind != "accessor":
                        found.append(self.function(stmt, None if kind == "static" else cls))
                elif isinstance(stmt, nodes.ClassDef):
                    found.append(self.cls(stmt))
                elif isinstance(stmt, nodes.AssignName):
                    value = assigned_value(stmt)
                    found += self.expr(value, None) if value is not None else []
            return unique(found)
        return unique(found + external)

    def self_assignments(self, cls: Cls) -> dict[str, list[tuple[nodes.FunctionDef, nodes.NodeNG]]]:
        if cls not in self._selfs:
            self._selfs[cls] = self_assignments(cls.node)
        return self._selfs[cls]

    def mro(self, cls: Cls) -> tuple[Cls | str, ...]:
        """C3 order over followed bases; a base outside followed code is a path, opaque."""
        if cls in self._mros:
            return self._mros[cls]
        if not self._enter(("mro", cls)):
            return (cls,)
        try:
            bases: list[Cls | str] = []
            for base in cls.node.bases:
                for value in self.expr(base, None):
                    if isinstance(value, str) and self._followed(value):
                        found = [v for v in self.resolve(value) if isinstance(v, Cls)]
                        bases += found or [value]
                    elif isinstance(value, Cls) or (
                        isinstance(value, str) and value != "builtins.object"
                    ):
                        bases.append(value)
            sequences: list[list[Cls | str]] = [
                list(self.mro(b)) if isinstance(b, Cls) else [b] for b in bases
            ]
            order = c3(cls, [*sequences, list(bases)])
        finally:
            self._leave(("mro", cls))
        self._mros[cls] = order
        return order
