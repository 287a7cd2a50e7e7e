"""Per run: parse and walk the candidates, then helper chains, findings and their positions."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import NamedTuple

import libcst as cst

from replaylint.core.codes import RULES, Code
from replaylint.core.findings import ChainLink, Finding, FixRef, ModuleResult, Span
from replaylint.core.outcome import Outcome
from replaylint.engine.project import Project, module_key
from replaylint.engine.records import ERROR, FAILED, HELPERS, PLAIN, WORKFLOW, Record, assemble
from replaylint.graph.callgraph import Step, UnsafeHelpers
from replaylint.graph.imports import classify, reached_modules
from replaylint.parse import positions, stacks
from replaylint.parse.parsing import ParseFailure
from replaylint.resolve.model import FunctionInfo, Hit, ModuleInfo
from replaylint.rules import UNSAFE_HELPER, rule_for
from replaylint.suppressions import directives as suppressions

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
    fix: FixRef | None = None  # a direct finding in workflow code: what a fix needs


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
                fix = _fix_ref(hit, function, project)
                place = (where, hit.node, hit.statement)
                raw.append(Raw(hit.code, *place, hit.call, [], module, hit.tail, fix=fix))
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


def _fix_ref(hit: Hit, function: FunctionInfo, project: Project) -> FixRef | None:
    """What a fix of a direct finding needs, when the module holding it is workflow code itself
    (a plain helper module that a workflow reaches is not: a framework's API may fail there).
    The same hit gets the same answer whichever workflow module reached it."""
    home = function.module
    if hit.code is Code.W005 or hit.tail or not home.is_workflow:
        return None
    if home.marked:
        return FixRef(hit.path, "runtime")
    framework = function.entry or next(iter(home.frameworks), "")
    if not framework:
        return None
    entry = function.entry is not None
    return FixRef(hit.path, framework, entry, _context_name(function, project))


def _context_name(function: FunctionInfo, project: Project) -> str:
    """The run-context parameter of a framework entry, as written (as resolve binds it)."""
    preset = project.frameworks.get(function.entry or "")
    node = function.node
    if preset is None or preset.context_param is None or not isinstance(node, cst.FunctionDef):
        return ""
    positional = [*node.params.posonly_params, *node.params.params]
    if function.cls is not None:
        positional = positional[1:]
    if len(positional) <= preset.context_param:
        return ""
    return positional[preset.context_param].name.value


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
    `tick()` after each one (a progress bar's count)."""
    return assemble(check_records(candidates, project, focus, tick), focus)


def check_records(
    candidates: Iterable[tuple[str, str, bytes]],
    project: Project,
    focus: frozenset[Path] | None = None,
    tick: Callable[[], None] | None = None,
) -> list[Record]:
    """What is known of each candidate once checked: one Record per candidate (and per module
    another file's registration made workflow code), in candidate order.

    The work runs on a thread of its own, created with a large stack, because LibCST's parser
    recurses natively (on the thread's C stack) through deeply nested code that CPython accepts.
    The stack size is set only while that thread is created, under a lock, and the recursion
    limit is never changed: the walk, its positions and CPython's verdict all fit in the limit
    the caller has, so concurrent callers share nothing and no other thread sees a new setting.
    """
    work = partial(_check_records, list(candidates), project, focus, tick)
    return stacks.on_fresh_stack(work, 256 * stacks.MIB, "replaylint-check")


def _failed(path: str, display: str, data: bytes, span: Span, reason: str) -> Record:
    finding = Finding(Code.E001, display, span, reason, RULES[Code.E001].remedy)
    return Record(str(module_key(Path(path))), display, _sha(data), FAILED, findings=[finding])


def _check_records(
    candidates: list[tuple[str, str, bytes]],
    project: Project,
    focus: frozenset[Path] | None,
    tick: Callable[[], None] | None = None,
) -> list[Record]:
    """`focus`: the files a user named (a commit's, an editor's); the workflow modules that do
    not reach them are read for what they reach, and get no record."""
    records: list[Record] = []
    workflow_modules: list[ModuleInfo] = []
    plain: list[ModuleInfo] = []
    for path, display, data in candidates:
        if tick is not None:
            tick()
        if len(data) > project.max_module_size:
            reason = f"{len(data):,} bytes, over the max-module-size of {project.max_module_size:,}"
            records.append(_failed(path, display, data, Span(1, 0, 1, 0), reason))
            continue
        try:
            module = project.load(Path(path), data, display=display)
        except ParseFailure as failure:
            span = Span(failure.line, failure.column, failure.line, failure.column)
            records.append(_failed(path, display, data, span, failure.reason))
            continue
        except RecursionError:
            # Deeper than even the enlarged stack allows: report it, check the other files.
            project.forget(Path(path))
            records.append(
                _failed(path, display, data, Span(1, 0, 1, 0), "too deeply nested to check")
            )
            continue
        except Exception as error:  # a bug of ours: say where, check the other files, exit 2
            project.forget(Path(path))
            log.debug("%s: internal error", display, exc_info=True)
            line = f"{display}: internal error: {type(error).__name__}: {error}"
            records.append(
                Record(str(module_key(Path(path))), display, _sha(data), ERROR, errors=[line])
            )
            continue
        if module.is_workflow:
            if module not in workflow_modules:
                workflow_modules.append(module)
        elif module not in plain:
            plain.append(module)
    extra: list[ModuleInfo] = []
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
            extra.append(loaded)
    checked = workflow_modules
    if focus is not None:
        checked = [m for m in workflow_modules if _reaches(m, focus)]
    modules_read = [m for m in project.modules.values() if m is not None]
    directives = suppressions.vouch(modules_read)  # before the chains: a vouched root stops there
    functions = [f for m in modules_read for f in m.functions]
    # A framework's safe APIs are safe in everything its workflow code reaches, helper modules
    # included, so helper chains are computed once per set of frameworks in force.
    chains: dict[frozenset[str], UnsafeHelpers] = {}
    raw: list[Raw] = []
    for module in checked:
        allowed = project.safe_paths(module)
        helpers = chains.get(allowed)
        if helpers is None:
            helpers = chains[allowed] = UnsafeHelpers(
                functions,
                project.safe,
                partial(_with_framework_safe, project, allowed),
                frozenset(p.name for p in project.frameworks.presets if p.child_workflows),
            )
        raw.extend(findings_for(project, module, helpers))
    try:
        located = _materialize(raw, project)
    except RecursionError:
        located = _materialize_per_module(raw, project)
    found: dict[int, list[Finding]] = {id(m): [] for m in checked}
    hosts: dict[int, dict[int, ModuleInfo]] = {id(m): {id(m): m} for m in checked}
    for item, finding in zip(raw, located, strict=True):
        found[id(item.context)].append(finding)
        hosts[id(item.context)][id(item.where)] = item.where
    clean = not project.failed_helpers
    for module in checked:
        findings = _unique(found[id(module)])
        coverage = classify(module, bool(findings))
        result = ModuleResult(
            module.display, coverage.coverage, coverage.identity, coverage.missing
        )
        shown = {
            host.display: directives[key]
            for key, host in hosts[id(module)].items()
            if key in directives
        }
        records.append(
            Record(
                str(module.path),
                module.display,
                _sha(module.source),
                WORKFLOW,
                findings=findings,
                module=result,
                directives=shown,
                deps=_deps(module),
                cacheable=clean and not coverage.missing,
                extra=module in extra,
            )
        )
    for module in plain:
        records.append(
            Record(str(module.path), module.display, _sha(module.source), PLAIN, deps=_deps(module))
        )
    if project.failed_helpers:
        records.append(Record("", "", "", HELPERS, errors=sorted(set(project.failed_helpers))))
    return records


def _unique(findings: list[Finding]) -> list[Finding]:
    kept: dict[tuple, Finding] = {}
    for finding in findings:
        kept.setdefault((finding.path, finding.span, finding.code, finding.call), finding)
    return list(kept.values())


def _deps(module: ModuleInfo) -> list[tuple[str, str]]:
    """(path, sha256) of every local module `module` reaches: what its record depends on."""
    return [(str(m.path), _sha(m.source)) for m in reached_modules(module)[1:]]


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _reaches(module: ModuleInfo, focus: frozenset[Path]) -> bool:
    """Is `module` one of the focus files, or does it import one, however indirectly?"""
    return any(reached.path in focus for reached in reached_modules(module))


def _with_framework_safe(
    project: Project, allowed: frozenset[str], module: ModuleInfo
) -> frozenset[str]:
    return allowed | project.safe_paths(module)


def _materialize_per_module(raw: list[Raw], project: Project) -> list[Finding]:
    """Positions module by module, so one module too deep for code generation loses only its
    own (each of its findings becomes that module's one ADK-E001); one finding per raw item."""
    located: dict[int, Finding] = {}
    by_module: dict[int, list[int]] = {}
    for index, item in enumerate(raw):
        by_module.setdefault(id(item.where), []).append(index)
    for indexes in by_module.values():
        items = [raw[i] for i in indexes]
        try:
            placed = _materialize(items, project)
        except RecursionError:
            module = items[0].where
            failure = Finding(
                Code.E001,
                module.display,
                Span(1, 0, 1, 0),
                "too deeply nested to locate findings",
                RULES[Code.E001].remedy,
            )
            placed = [failure] * len(items)
        located.update(zip(indexes, placed, strict=True))
    return [located[i] for i in range(len(raw))]


def _materialize(raw: list[Raw], project: Project) -> list[Finding]:
    """Positions for every node that needs one: code generation over only the innermost
    statements that hold one (the whole module where the parsers' statements did not pair up)."""
    wanted: dict[int, tuple[ModuleInfo, dict[cst.CSTNode, cst.CSTNode | None]]] = {}
    steps: dict[int, Step] = {}  # chains share their hops: each is placed once (C-level loops)
    for item in raw:
        wanted.setdefault(id(item.where), (item.where, {}))[1][item.node] = item.statement
        steps.update(zip(map(id, item.chain), item.chain, strict=True))
    for step in steps.values():
        wanted.setdefault(id(step.module), (step.module, {}))[1][step.node] = step.statement
    spans: dict[int, dict[cst.CSTNode, Span]] = {
        key: positions.spans_in_statements(module.tree, nodes, module.first_lines, module.source)
        for key, (module, nodes) in wanted.items()
    }
    link_of = {
        key: ChainLink(step.module.display, spans[id(step.module)][step.node].line, step.call)
        for key, step in steps.items()
    }
    findings: list[Finding] = []
    for code, module, node, _top, call, chain, context, tail, remedy, fix in raw:
        span = spans[id(module)][node]
        links = tuple(map(link_of.__getitem__, map(id, chain))) + tuple(
            ChainLink(path, line, hop) for path, line, hop in tail
        )
        rule = rule_for(code)
        root = chain[-1].code if chain else None
        if root is Code.W005:  # a call into followed installed code: no catalog code of its own
            root = None
        remedy = remedy or rule.remedy(context, project.frameworks)
        findings.append(Finding(code, module.display, span, call, remedy, links, root, fix))
    return findings
