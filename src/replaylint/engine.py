"""Per run: parse and walk the candidates, then helper chains, findings and their positions."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import NamedTuple

import libcst as cst

from replaylint import positions, stacks, suppressions
from replaylint.codes import RULES, Code
from replaylint.findings import ChainLink, Finding, Span
from replaylint.graph.callgraph import Step, UnsafeHelpers
from replaylint.graph.imports import classify, reached_modules
from replaylint.outcome import ModuleResult, Outcome
from replaylint.parsing import ParseFailure
from replaylint.project import Project
from replaylint.resolve.model import FunctionInfo, ModuleInfo
from replaylint.rules import UNSAFE_HELPER, rule_for

log = logging.getLogger("replaylint")


class Raw(NamedTuple):
    """A finding before positions: `where` holds `node` in its innermost `statement`;
    `context` is the workflow module it was found for (its frameworks pick the remedy)."""

    code: Code
    where: ModuleInfo
    node: cst.CSTNode
    statement: cst.CSTNode | None
    call: str
    chain: list[Step]
    context: ModuleInfo
    tail: tuple[tuple[str, int, str], ...] = ()  # hops inside followed installed code
    remedy: str = ""  # when the finding's own case has a better one than its rule's


def findings_for(project: Project, module: ModuleInfo, helpers: UnsafeHelpers) -> list[Raw]:
    """Raw findings of one workflow module: (code, where, node, call, chain, workflow module).

    What the rules reported on each function of its workflow path, less what is exempt or safe in
    its frameworks, then the calls of helpers that reach a root (read from the call graph).
    """
    raw: list[Raw] = []
    safe = project.safe_paths(module)
    for function in module.workflow_path():
        if function.is_exempt() or project.declared_safe(function):
            continue
        where = function.module  # a reached helper's own line is reported in its own file
        for hit in function.hits:
            if hit.governed and hit.path not in safe:
                raw.append(
                    Raw(hit.code, where, hit.node, hit.statement, hit.call, [], module, hit.tail)
                )
        for call, chain in UNSAFE_HELPER.findings(function, helpers):
            raw.append(
                Raw(
                    UNSAFE_HELPER.code,
                    where,
                    call.node,
                    call.statement,
                    call.call,
                    chain,
                    module,
                    chain[-1].tail if chain else (),
                    _inline_activity_remedy(call.target, module, project),
                )
            )
    return raw


def _inline_activity_remedy(target: FunctionInfo, module: ModuleInfo, project: Project) -> str:
    """An activity called directly runs inline: it is already an activity, so the remedy is to
    run it as one (its framework's way), not to move it into one."""
    if target.activity != "inline":
        return ""
    for name in module.frameworks:
        preset = project.frameworks.get(name)
        if preset is not None and preset.inline_activity_remedy:
            return preset.inline_activity_remedy
    return ""


def check_candidates(
    candidates: Iterable[tuple[str, str, bytes]],
    project: Project,
    focus: frozenset[Path] | None = None,
    tick: Callable[[], None] | None = None,
) -> Outcome:
    """Parse and check files that passed the prefilter: (path, display name, bytes) each;
    `tick()` after each one (a progress bar's count).

    The work runs on a thread of its own, created with a large stack, because LibCST's parser
    recurses natively (on the thread's C stack) through deeply nested code that CPython accepts.
    The stack size is set only while that thread is created, under a lock, and the recursion
    limit is never changed: the walk, its positions and CPython's verdict all fit in the limit
    the caller has, so concurrent callers share nothing and no other thread sees a new setting.
    """
    work = partial(_check_candidates, list(candidates), project, focus, tick)
    return stacks.on_fresh_stack(work, 256 * stacks.MIB, "replaylint-check")


def _check_candidates(
    candidates: list[tuple[str, str, bytes]],
    project: Project,
    focus: frozenset[Path] | None,
    tick: Callable[[], None] | None = None,
) -> Outcome:
    """`focus`: the files a user named (a commit's, an editor's); only they and the workflow
    modules that reach them are reported, the rest of the project read for what it reaches."""
    outcome = Outcome()
    workflow_modules: list[ModuleInfo] = []
    failures: list[Finding] = []
    for path, display, data in candidates:
        if tick is not None:
            tick()
        if len(data) > project.max_module_size:
            reason = f"{len(data):,} bytes, over the max-module-size of {project.max_module_size:,}"
            failures.append(
                Finding(Code.E001, display, Span(1, 0, 1, 0), reason, RULES[Code.E001].remedy)
            )
            continue
        try:
            module = project.load(Path(path), data, display=display)
        except ParseFailure as failure:
            span = Span(failure.line, failure.column, failure.line, failure.column)
            failures.append(
                Finding(Code.E001, display, span, failure.reason, RULES[Code.E001].remedy)
            )
            continue
        except RecursionError:
            # Deeper than even the enlarged stack allows: report it, check the other files.
            project.forget(Path(path))
            span = Span(1, 0, 1, 0)
            reason = "too deeply nested to check"
            failures.append(Finding(Code.E001, display, span, reason, RULES[Code.E001].remedy))
            continue
        except Exception as error:  # a bug of ours: say where, check the other files, exit 2
            project.forget(Path(path))
            log.debug("%s: internal error", display, exc_info=True)
            outcome.errors.append(f"{display}: internal error: {type(error).__name__}: {error}")
            continue
        if module.is_workflow and module not in workflow_modules:
            workflow_modules.append(module)
    for loaded in project.modules.values():
        # A local module whose functions another file registers as workflows
        # (`worker.add_orchestrator(nightly)`) is workflow code even without a framework import.
        if (
            loaded is not None
            and not loaded.marked
            and loaded.entries()
            and loaded not in workflow_modules
        ):
            workflow_modules.append(loaded)
    if focus is not None:
        workflow_modules = [m for m in workflow_modules if _reaches(m, focus)]
        failures = [f for f in failures if Path(f.path).resolve() in focus]
    modules_read = [m for m in project.modules.values() if m is not None]
    directives = suppressions.vouch(modules_read)  # before the chains: a vouched root stops there
    functions = [f for m in modules_read for f in m.functions]
    # A framework's safe APIs are safe in everything its workflow code reaches, helper modules
    # included, so helper chains are computed once per set of frameworks in force.
    chains: dict[frozenset[str], UnsafeHelpers] = {}
    raw: list[Raw] = []
    per_module: dict[int, int] = {}
    for module in workflow_modules:
        allowed = project.safe_paths(module)
        helpers = chains.get(allowed)
        if helpers is None:
            helpers = chains[allowed] = UnsafeHelpers(
                functions,
                project.safe,
                partial(_with_framework_safe, project, allowed),
                frozenset(p.name for p in project.frameworks.presets if p.child_workflows),
            )
        found = findings_for(project, module, helpers)
        per_module[id(module)] = len(found)
        raw.extend(found)
    outcome.errors.extend(sorted(set(project.failed_helpers)))
    try:
        outcome.findings = _materialize(raw, project) + failures
    except RecursionError:
        outcome.findings = _materialize_per_module(raw, project) + failures
    reported = {id(item.where): item.where for item in raw}
    for module in [*workflow_modules, *reported.values()]:
        if module.display not in outcome.directives and id(module) in directives:
            outcome.directives[module.display] = directives[id(module)]
    for module in workflow_modules:
        coverage = classify(module, per_module[id(module)] > 0)
        outcome.modules.append(
            ModuleResult(module.display, coverage.coverage, coverage.identity, coverage.missing)
        )
    return outcome


def _reaches(module: ModuleInfo, focus: frozenset[Path]) -> bool:
    """Is `module` one of the focus files, or does it import one, however indirectly?"""
    return any(reached.path in focus for reached in reached_modules(module))


def _with_framework_safe(
    project: Project, allowed: frozenset[str], module: ModuleInfo
) -> frozenset[str]:
    return allowed | project.safe_paths(module)


def _materialize_per_module(raw: list[Raw], project: Project) -> list[Finding]:
    """Positions module by module, so one module too deep for code generation loses only its own."""
    findings: list[Finding] = []
    by_module: dict[int, list[Raw]] = {}
    for item in raw:
        by_module.setdefault(id(item.where), []).append(item)
    for items in by_module.values():
        try:
            findings.extend(_materialize(items, project))
        except RecursionError:
            module = items[0].where
            span = Span(1, 0, 1, 0)
            findings.append(
                Finding(
                    Code.E001,
                    module.display,
                    span,
                    "too deeply nested to locate findings",
                    RULES[Code.E001].remedy,
                )
            )
    return findings


def _materialize(raw: list[Raw], project: Project) -> list[Finding]:
    """Positions for every node that needs one: code generation over only the innermost
    statements that hold one (the whole module where the parsers' statements did not pair up)."""
    wanted: dict[int, tuple[ModuleInfo, dict[cst.CSTNode, cst.CSTNode | None]]] = {}
    for item in raw:
        wanted.setdefault(id(item.where), (item.where, {}))[1][item.node] = item.statement
        for step in item.chain:
            wanted.setdefault(id(step.module), (step.module, {}))[1][step.node] = step.statement
    spans: dict[int, dict[cst.CSTNode, Span]] = {
        key: positions.spans_in_statements(module.tree, nodes, module.first_lines, module.source)
        for key, (module, nodes) in wanted.items()
    }
    findings: dict[tuple, Finding] = {}
    for code, module, node, _top, call, chain, context, tail, remedy in raw:
        span = spans[id(module)][node]
        links = tuple(
            ChainLink(step.module.display, spans[id(step.module)][step.node].line, step.call)
            for step in chain
        ) + tuple(ChainLink(path, line, hop) for path, line, hop in tail)
        rule = rule_for(code)
        root = chain[-1].code if chain else None
        if root is Code.W005:  # a call into followed installed code: no catalog code of its own
            root = None
        remedy = remedy or rule.remedy(context, project.frameworks)
        finding = Finding(code, module.display, span, call, remedy, links, root)
        findings.setdefault((module.display, span, code, call), finding)
    return list(findings.values())
