"""Fixes one module: finds each finding's node by its span and picks the first template whose
conditions hold there (attempts.py makes the chosen edits with LibCST)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import libcst as cst

from replaylint.core.codes import Code
from replaylint.core.findings import Finding, FixRef
from replaylint.fixes.data import FixData, Template
from replaylint.fixes.located import located
from replaylint.fixes.names import BLOCKED, Names
from replaylint.fixes.ordering import known_orderable, wrapped_part
from replaylint.fixes.reach import OutsideWorkflow
from replaylint.fixes.scopes import Scopes
from replaylint.fixes.template import Parts, free_names, render
from replaylint.fixes.unused_imports import used_imports
from replaylint.parse.children import parent_map
from replaylint.presets.records import presets

UTC = frozenset({"datetime.timezone.utc", "datetime.UTC"})
_COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)


@dataclass
class Plan:
    """The edit chosen for one node, and the findings it fixes."""

    template: Template
    name: str
    context: str
    spellings: dict[str, str]
    imports: list[str]  # the import statements this edit needs added
    findings: list[Finding] = field(default_factory=list)
    # False for a safe template in a helper that code outside the workflow runs too
    safe: bool = True


@dataclass(frozen=True)
class _Where:
    """The innermost function-like scope holding a node, as far as a fix cares."""

    function: cst.FunctionDef | None  # None: a lambda, a class body or the module is innermost
    comprehension: bool  # a comprehension or generator lies between the node and that scope
    in_fstring: bool  # inside an f-string, where a quote of the template may end the string
    top: int  # index of the module-level statement holding the node


class ModuleFixer:
    """The fixes that apply to one parsed module (metadata computed once)."""

    def __init__(
        self,
        module: cst.Module,
        data: FixData,
        lines: Iterable[int] | None = None,
        source: bytes | str | None = None,
    ) -> None:
        """`lines`: where the findings to fix sit; positions and scopes are worked out for the
        top-level statements holding them (None: for the whole module). `source`: what
        `module` was parsed from (its code, generated again, when not given)."""
        self.data = data
        self.module = module
        self.parents = parent_map(self.module)
        where = located(module, lines, module.code if source is None else source)
        positions = where.positions
        self.names = Names(self.module, Scopes(self.module, where.holding, self.parents))
        self.imports_runtime = any(
            name == "replaylint" or name.startswith("replaylint.")
            for name in _imported_modules(self.module)
        )
        self.outside_workflow = OutsideWorkflow(self.module, self.parents, self.names)
        self._by_span: dict[tuple[int, int, int, int], list[cst.CSTNode]] = {}
        self.planned: dict[int, cst.CSTNode] = {}  # the node of each plan, by id as plans are
        for node, found in positions.items():
            key = (found.start.line, found.start.column, found.end.line, found.end.column)
            self._by_span.setdefault(key, []).append(node)

    @cached_property
    def used_imports(self) -> dict[str, int]:
        """The module's imports and how often each is read, for every attempt at the edits
        (the imports they leave unused): counted once, in the scopes Names resolved."""
        return used_imports(self.module, self.names.scopes.whole)

    def choose(self, finding: Finding) -> tuple[cst.CSTNode, Plan] | None:
        """The node a finding is on and the fix that applies there (None: no fix applies)."""
        ref = finding.fix
        if ref is None or finding.code is Code.W005:
            return None
        span = finding.span
        nodes = self._by_span.get((span.line, span.column, span.end_line, span.end_column), [])
        for template in self.data.candidates(ref.framework, ref.path, finding.code):
            node = self._node_for(template, nodes, finding)
            if node is None:
                continue
            plan = self._fit(template, node, ref)
            if plan is not None:
                plan.findings.append(finding)
                self.planned[id(node)] = node
                return node, plan
        return None

    def _node_for(
        self, template: Template, nodes: Sequence[cst.CSTNode], finding: Finding
    ) -> cst.BaseExpression | None:
        for node in nodes:
            if template.wraps:
                parent = self.parents.get(node)
                if isinstance(parent, (cst.For, cst.CompFor)) and parent.iter is node:
                    return wrapped_part(parent.iter)
            elif isinstance(node, cst.Call):
                # The callee as written is the finding's `call`: a file edited since the check
                # has other code at this span, and is left alone.
                written = "".join(self.module.code_for_node(node.func).split())
                if written == "".join(finding.call.split()):
                    return node
        return None

    def _fit(self, template: Template, node: cst.BaseExpression, ref: FixRef) -> Plan | None:
        """The plan when every condition of `template` holds at `node`, else None."""
        if isinstance(node, cst.Call) and not _args_fit(template.args, node, self.names):
            return None
        parent = self.parents.get(node)
        if template.position == "statement" and not isinstance(parent, cst.Expr):
            return None
        if template.position == "awaited" and not isinstance(parent, cst.Await):
            return None
        where = self._where(node)
        if where.in_fstring and ("'" in template.template or '"' in template.template):
            return None  # before Python 3.12 an f-string cannot hold its own quote
        function = where.function
        if template.function or template.awaits or template.uses_context:
            if function is None:
                return None
            is_async = function.asynchronous is not None
            if template.function == "async" and not is_async:
                return None
            if template.function == "sync" and is_async:
                return None
            if template.awaits and (not is_async or where.comprehension):
                return None
        if template.entry and not ref.entry:
            return None
        if template.elements == "orderable" and not known_orderable(node, function):
            return None
        if template.runtime and not (ref.framework == "runtime" or self.imports_runtime):
            return None
        context = ""
        if template.uses_context:
            assert function is not None
            context = self._context(function, ref, node)
            if not context:
                return None
        names = self._names(template, node, where)
        if names is None:
            return None
        spellings, imports = names
        name = ref.path.rsplit(".", 1)[-1]
        safe = template.safe and (ref.entry or not self.outside_workflow(function))
        plan = Plan(template, name, context, spellings, imports, safe=safe)
        if render(template.template, template.wraps, self.parts(plan, node)) is None:
            return None
        return plan

    def _names(
        self, template: Template, node: cst.BaseExpression, where: _Where
    ) -> tuple[dict[str, str], list[str]] | None:
        """How each name of the template is spelled at `node`, and the imports to add; None
        when a name is bound to something else there, or its import would come too late."""
        spellings: dict[str, str] = {}
        imports: list[str] = []
        requirements = {r.local: r for r in template.imports}
        for name in sorted(free_names(template.template)):
            requirement = requirements.get(name)
            if requirement is None:
                if not self.names.is_builtin(name, node):
                    return None
                continue
            spelled = self.names.spelling(requirement, node)
            if spelled is BLOCKED:
                return None
            if spelled == "":
                if where.top < self.names.import_index:
                    return None  # the import would come after the code that needs it
                imports.append(requirement.statement)
                spelled = name
            spellings[name] = spelled
        return spellings, imports

    def parts(self, plan: Plan, node: cst.BaseExpression) -> Parts:
        return Parts(node, plan.name, plan.context, plan.spellings)

    def _where(self, node: cst.CSTNode) -> _Where:
        comprehension = in_fstring = False
        child, parent = node, self.parents.get(node)
        function: cst.FunctionDef | None = None
        while parent is not None and not isinstance(parent, cst.Module):
            if isinstance(parent, _COMPREHENSIONS):
                comprehension = True
            if isinstance(parent, cst.FormattedString):
                in_fstring = True
            # A default, an annotation or a decorator is evaluated where the def is, not in it.
            if isinstance(parent, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
                if child is parent.body:
                    function = parent if isinstance(parent, cst.FunctionDef) else None
                    break
            child, parent = parent, self.parents.get(parent)
        top = node
        while not isinstance(self.parents.get(top), (cst.Module, type(None))):
            top = self.parents[top]
        index = next((i for i, s in enumerate(self.module.body) if s is top), -1)
        return _Where(function, comprehension, in_fstring, index)

    def _context(self, function: cst.FunctionDef, ref: FixRef, at: cst.CSTNode) -> str:
        """The run-context parameter's name at `at`, when it means that parameter there."""
        params = function.params
        everything = [*params.posonly_params, *params.params, *params.kwonly_params]
        types = self.data.contexts.get(ref.framework)
        if types is not None:  # the runtime: the first parameter, annotated as the context
            positional = [*params.posonly_params, *params.params]
            if self._is_method(function):
                positional = positional[1:]
            param = positional[0] if positional else None
            wanted = set(types)
            if param is None or param.annotation is None:
                return ""
            if not self.names.names_of(param.annotation.annotation) & wanted:
                return ""
        else:
            preset = presets().get(ref.framework)
            param = next((p for p in everything if p.name.value == ref.context), None)
            if preset is None or not ref.entry or not ref.context or param is None:
                return ""
            if param.annotation is not None:
                named = self.names.names_of(param.annotation.annotation)
                if not any(preset.context_types.matches(n) for n in named):
                    return ""
        name = param.name.value
        return name if self.names.is_parameter(name, param, at) else ""

    def _is_method(self, function: cst.FunctionDef) -> bool:
        block = self.parents.get(function)
        return isinstance(block, cst.IndentedBlock) and isinstance(
            self.parents.get(block), cst.ClassDef
        )


def _args_fit(kind: str, call: cst.Call, names: Names) -> bool:
    args = call.args
    if kind == "any":
        return True
    if kind == "none":
        return not args
    if len(args) != 1 or args[0].star:
        return False
    keyword = args[0].keyword
    if kind == "one":
        return keyword is None
    if keyword is not None and keyword.value != "tz":
        return False
    if kind == "tz":
        return True
    named = names.names_of(args[0].value)
    return len(named) == 1 and named <= UTC


def _imported_modules(module: cst.Module) -> list[str]:
    """The modules the module's top-level imports name."""
    found: list[str] = []
    for statement in module.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if isinstance(small, cst.Import):
                found += [alias.evaluated_name for alias in small.names]
            elif isinstance(small, cst.ImportFrom) and small.module is not None:
                found.append(cst.Module([]).code_for_node(small.module))
    return found
