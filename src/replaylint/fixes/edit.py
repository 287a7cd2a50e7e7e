"""Fixes one module: finds each finding's node by its span, picks the first template whose
conditions hold there, and applies the chosen edits with LibCST, adding each import once."""

from __future__ import annotations

import logging
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from replaylint.core.codes import Code
from replaylint.core.findings import Finding, FixRef
from replaylint.fixes.data import FixData, Template
from replaylint.fixes.names import BLOCKED, Names, with_imports
from replaylint.fixes.ordering import known_orderable, wrapped_part
from replaylint.fixes.reach import OutsideWorkflow
from replaylint.fixes.template import Parts, free_names, render
from replaylint.fixes.unused_imports import (
    may_leave_unused,
    used_imports,
    without_unused_imports,
)
from replaylint.parse.children import parent_map
from replaylint.presets.records import presets

log = logging.getLogger("replaylint")

UTC = frozenset({"datetime.timezone.utc", "datetime.UTC"})
_COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)
Fixed = tuple[cst.Module, list[Finding]]  # a module with fixes made, and the findings fixed


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

    def __init__(self, module: cst.Module, data: FixData) -> None:
        self.data = data
        wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
        self.module = wrapper.module
        self.parents = parent_map(self.module)
        self.names = Names(wrapper)
        self.imports_runtime = any(
            name == "replaylint" or name.startswith("replaylint.")
            for name in _imported_modules(self.module)
        )
        self.outside_workflow = OutsideWorkflow(self.module, self.parents, self.names)
        self._by_span: dict[tuple[int, int, int, int], list[cst.CSTNode]] = {}
        self.planned: dict[int, cst.CSTNode] = {}  # the node of each plan, by id as plans are
        for node, found in wrapper.resolve(PositionProvider).items():
            key = (found.start.line, found.start.column, found.end.line, found.end.column)
            self._by_span.setdefault(key, []).append(node)

    @cached_property
    def used_imports(self) -> dict[str, int]:
        """The module's imports and how often each is read, for every attempt at the edits
        (the imports they leave unused): counted once, in the scopes Names resolved."""
        return used_imports(self.module, self.names.scopes)

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


class _Apply(cst.CSTTransformer):
    """Replaces each planned node, built from its updated children (so nested fixes compose),
    and puts parentheses around an `await` that became the object of `.x`, `[i]` or `(...)`."""

    def __init__(self, fixer: ModuleFixer, plans: dict[int, Plan]) -> None:
        self.fixer = fixer
        self.plans = plans
        self.applied: list[Plan] = []
        # The planned nodes and their ancestors: every other subtree is kept as it is, not
        # rebuilt node by node (on a large module that was most of each attempt's time).
        self.on_path: set[int] = set()
        for key in plans:
            node: cst.CSTNode | None = fixer.planned[key]
            while node is not None and id(node) not in self.on_path:
                self.on_path.add(id(node))
                node = fixer.parents.get(node)

    def on_visit(self, node: cst.CSTNode) -> bool:
        return id(node) in self.on_path

    def on_leave(  # type: ignore[override]  # replaces an expression by another kind of one
        self, original_node: cst.CSTNode, updated_node: cst.CSTNode
    ) -> cst.CSTNode:
        updated = _parenthesize_awaits(updated_node)
        plan = self.plans.get(id(original_node))
        if plan is None or not isinstance(updated, cst.BaseExpression):
            return updated
        parts = self.fixer.parts(plan, updated)
        replacement = render(plan.template.template, plan.template.wraps, parts)
        if replacement is None:
            return updated
        self.applied.append(plan)
        return replacement


def _parenthesize_awaits(node: cst.CSTNode) -> cst.CSTNode:
    def bare(value: cst.BaseExpression) -> bool:
        return isinstance(value, cst.Await) and not value.lpar

    def wrapped(value: cst.BaseExpression) -> cst.BaseExpression:
        return value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])

    if isinstance(node, (cst.Attribute, cst.Subscript)) and bare(node.value):
        return node.with_changes(value=wrapped(node.value))
    if isinstance(node, cst.Call) and bare(node.func):
        return node.with_changes(func=wrapped(node.func))
    return node


def fix_module(
    module: cst.Module, findings: Iterable[Finding], data: FixData, *, unsafe: bool
) -> tuple[cst.Module, list[Finding]]:
    """The module with every applicable fix made, and the findings fixed.

    Unsafe fixes only when `unsafe`. The result always compiles: if the edits together do not
    (a case the conditions missed), they are tried one by one and only those that keep the
    module compiling are kept."""
    fixer = ModuleFixer(module, data)
    chosen = [(finding, fixer.choose(finding)) for finding in findings]
    return _fixed(fixer, _plans(chosen, unsafe=unsafe))


def fix_module_both_ways(
    module: cst.Module, findings: Iterable[Finding], data: FixData
) -> tuple[Fixed, Fixed]:
    """fix_module's answers without and with unsafe fixes, from one analysis of the module:
    each finding's fix is chosen once, and the edits are made once when every fix chosen is
    safe (the two answers are then one). What the [*] marks need, at the cost of one fix."""
    fixer = ModuleFixer(module, data)
    chosen = [(finding, fixer.choose(finding)) for finding in findings]
    every = _plans(chosen, unsafe=True)
    safe = _plans(chosen, unsafe=False)
    every_fixed = _fixed(fixer, every)
    if {k: p.findings for k, p in safe.items()} == {k: p.findings for k, p in every.items()}:
        return every_fixed, every_fixed  # the same findings on each node: the same plans
    return _fixed(fixer, safe), every_fixed


def _plans(
    chosen: Iterable[tuple[Finding, tuple[cst.CSTNode, Plan] | None]], *, unsafe: bool
) -> dict[int, Plan]:
    """The plan of each node a fix edits, with the findings it fixes (the first finding's
    plan, copied: the same choices make the plans of both ways)."""
    plans: dict[int, Plan] = {}
    for finding, found in chosen:
        if found is None:
            continue
        node, plan = found
        if not plan.safe and not unsafe:
            continue
        if id(node) in plans:
            plans[id(node)].findings.append(finding)
        else:
            plans[id(node)] = replace(plan, findings=[finding])
    return plans


def _fixed(fixer: ModuleFixer, plans: dict[int, Plan]) -> Fixed:
    if not plans:
        return fixer.module, []
    result = _attempt(fixer, plans)
    if result is None:
        kept: dict[int, Plan] = {}
        for key, plan in plans.items():
            if _attempt(fixer, {**kept, key: plan}) is not None:
                kept[key] = plan
        result = _attempt(fixer, kept) if kept else (fixer.module, [])
    assert result is not None
    return result


def _attempt(fixer: ModuleFixer, plans: dict[int, Plan]) -> tuple[cst.Module, list[Finding]] | None:
    apply = _Apply(fixer, plans)
    edited = fixer.module.visit(apply)
    imports: list[str] = []
    for plan in apply.applied:
        imports += [s for s in plan.imports if s not in imports]
    edited = with_imports(edited, imports, fixer.names.import_index)
    edited_nodes = [fixer.planned[key] for key in plans]
    if may_leave_unused(fixer.module, fixer.names.scopes, edited_nodes):
        edited = without_unused_imports(fixer.module, edited, fixer.used_imports)
    if not _compiles(edited.code):
        log.debug("fixes together do not compile; trying them one by one")
        return None
    fixed = [finding for plan in apply.applied for finding in plan.findings]
    return edited, fixed


def _compiles(code: str) -> bool:
    """Compiled as an import would (nothing runs): `await` outside `async def` fails here."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(code, "<fixed module>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


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
