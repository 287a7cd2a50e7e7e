"""Making the edits chosen for one module (ModuleFixer, edit.py): all of them at once, or one
by one when together they do not compile; each attempt adds the imports its edits need and
removes those they left unused, and is compiled before it counts."""

from __future__ import annotations

import logging
import warnings
from collections.abc import Iterable
from dataclasses import replace

import libcst as cst

from replaylint.core.findings import Finding
from replaylint.fixes.data import FixData
from replaylint.fixes.edit import ModuleFixer, Plan
from replaylint.fixes.names import with_imports
from replaylint.fixes.template import render
from replaylint.fixes.unused_imports import may_leave_unused, without_unused_imports

log = logging.getLogger("replaylint")

# A module with fixes made, the findings fixed, and the module's code (None when nothing was
# fixed): generated once, to see that it compiles, and not again by whoever compares it.
Fixed = tuple[cst.Module, list[Finding], "str | None"]


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
    module: cst.Module,
    findings: Iterable[Finding],
    data: FixData,
    *,
    unsafe: bool,
    source: bytes | str | None = None,
) -> tuple[cst.Module, list[Finding]]:
    """The module with every applicable fix made, and the findings fixed.

    Unsafe fixes only when `unsafe`. The result always compiles: if the edits together do not
    (a case the conditions missed), they are tried one by one and only those that keep the
    module compiling are kept. `source`: what `module` was parsed from, when at hand."""
    edited, fixed, _ = fix_module_with_code(module, findings, data, unsafe=unsafe, source=source)
    return edited, fixed


def fix_module_with_code(
    module: cst.Module,
    findings: Iterable[Finding],
    data: FixData,
    *,
    unsafe: bool,
    source: bytes | str | None = None,
) -> Fixed:
    """fix_module, with the fixed module's code (None when no fix is made)."""
    findings = list(findings)
    fixer = ModuleFixer(module, data, _lines(findings), source)
    chosen = [(finding, fixer.choose(finding)) for finding in findings]
    return _fixed(fixer, _plans(chosen, unsafe=unsafe))


def fix_module_both_ways(
    module: cst.Module,
    findings: Iterable[Finding],
    data: FixData,
    source: bytes | str | None = None,
) -> tuple[Fixed, Fixed]:
    """fix_module's answers without and with unsafe fixes, from one analysis of the module:
    each finding's fix is chosen once, and the edits are made once when every fix chosen is
    safe (the two answers are then one). What the [*] marks need, at the cost of one fix."""
    findings = list(findings)
    fixer = ModuleFixer(module, data, _lines(findings), source)
    chosen = [(finding, fixer.choose(finding)) for finding in findings]
    every = _plans(chosen, unsafe=True)
    safe = _plans(chosen, unsafe=False)
    every_fixed = _fixed(fixer, every)
    if {k: p.findings for k, p in safe.items()} == {k: p.findings for k, p in every.items()}:
        return every_fixed, every_fixed  # the same findings on each node: the same plans
    return _fixed(fixer, safe), every_fixed


def _lines(findings: Iterable[Finding]) -> set[int]:
    return {line for f in findings for line in (f.span.line, f.span.end_line)}


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
        return fixer.module, [], None
    result = _attempt(fixer, plans)
    if result is None:
        kept: dict[int, Plan] = {}
        for key, plan in plans.items():
            if _attempt(fixer, {**kept, key: plan}) is not None:
                kept[key] = plan
        result = _attempt(fixer, kept) if kept else (fixer.module, [], None)
    assert result is not None
    return result


def _attempt(fixer: ModuleFixer, plans: dict[int, Plan]) -> Fixed | None:
    apply = _Apply(fixer, plans)
    edited = fixer.module.visit(apply)
    imports: list[str] = []
    for plan in apply.applied:
        imports += [s for s in plan.imports if s not in imports]
    edited = with_imports(edited, imports, fixer.names.import_index)
    edited_nodes = [fixer.planned[key] for key in plans]
    scopes = fixer.names.scopes
    # An edit outside the analysed part (none is: the part holds every finding) is treated
    # as one that may leave an import unused: the edited module is then analysed whole.
    held = all(scopes.holds(node) for node in edited_nodes)
    if not held or may_leave_unused(scopes.part, scopes.of_part, edited_nodes):
        edited = without_unused_imports(fixer.module, edited, fixer.used_imports)
    code = edited.code
    if not _compiles(code):
        log.debug("fixes together do not compile; trying them one by one")
        return None
    fixed = [finding for plan in apply.applied for finding in plan.findings]
    return edited, fixed, code


def _compiles(code: str) -> bool:
    """Compiled as an import would (nothing runs): `await` outside `async def` fails here."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(code, "<fixed module>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True
