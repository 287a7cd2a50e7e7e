"""Per run: parse and walk the candidates, then helper chains, findings and their positions."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from replaylint.core.codes import RULES, Code
from replaylint.core.findings import Finding, ModuleResult, Span
from replaylint.core.outcome import Outcome
from replaylint.engine.confirm import Verdicts
from replaylint.engine.located import locate
from replaylint.engine.project import Project, module_key
from replaylint.engine.raw import Raw, findings_for
from replaylint.engine.records import ERROR, FAILED, HELPERS, PLAIN, WORKFLOW, Record, assemble
from replaylint.engine.registrations import Registrations, reads, summary
from replaylint.graph.callgraph import UnsafeHelpers
from replaylint.graph.imports import classify, reached_modules
from replaylint.graph.suspends import settle
from replaylint.parse import stacks
from replaylint.parse.parsing import ParseFailure
from replaylint.resolve.model import ModuleInfo
from replaylint.suppressions import directives as suppressions

log = logging.getLogger("replaylint")

Candidate = tuple[str, str, bytes]  # (path, display name, bytes)


def check_candidates(
    candidates: Iterable[Candidate],
    project: Project,
    focus: frozenset[Path] | None = None,
    tick: Callable[[], None] | None = None,
) -> Outcome:
    """Parse and check files that passed the prefilter: (path, display name, bytes) each;
    `tick()` after each one (a progress bar's count)."""
    return assemble(check_records(candidates, project, focus, tick), focus)


def check_records(
    candidates: Iterable[Candidate],
    project: Project,
    focus: frozenset[Path] | None = None,
    tick: Callable[[], None] | None = None,
    registrations: Registrations | None = None,
) -> list[Record]:
    """What is known of each candidate once checked: one Record per candidate (and per module
    another file's registration made workflow code), in candidate order.

    The work runs on a thread of its own, created with a large stack, because LibCST's parser
    recurses natively (on the thread's C stack) through deeply nested code that CPython accepts.
    The stack size is set only while that thread is created, under a lock, and the recursion
    limit is never changed: the walk, its positions and CPython's verdict all fit in the limit
    the caller has, so concurrent callers share nothing and no other thread sees a new setting.
    """
    project.registrations = registrations
    work = partial(_check_records, list(candidates), project, focus, tick)
    return stacks.on_fresh_stack(work, 256 * stacks.MIB, "replaylint-check")


def check_registrars(
    candidates: Iterable[Candidate], project: Project, tick: Callable[[], None] | None = None
) -> tuple[list[Record], Registrations]:
    """The records of the files that register other files' functions, checked together, and
    the summary of what they register that every other batch applies (registrations.py)."""
    found: list[Registrations] = []
    work = partial(_check_records, list(candidates), project, None, tick, found)
    records = stacks.on_fresh_stack(work, 256 * stacks.MIB, "replaylint-check")
    return records, found[0]


def check_before_registrations(
    candidates: Iterable[Candidate], project: Project, tick: Callable[[], None] | None = None
) -> tuple[list[Record], Registrations]:
    """A batch checked while the registrars' summary is not known yet (as with none), and what
    it read: its records stand when the summary is not affected_by() that."""
    records = check_records(candidates, project, None, tick, None)
    return records, reads(m for m in project.modules.values() if m is not None)


def _failed(path: str, display: str, data: bytes, span: Span, reason: str) -> Record:
    finding = Finding(Code.E001, display, span, reason, RULES[Code.E001].remedy)
    return Record(str(module_key(Path(path))), display, _sha(data), FAILED, findings=[finding])


@dataclass
class _Loaded:
    """What reading the candidates gave: the records of those that failed, and the modules."""

    records: list[Record] = field(default_factory=list)
    modules: list[ModuleInfo] = field(default_factory=list)  # the candidates read, in order
    workflows: list[ModuleInfo] = field(default_factory=list)
    plain: list[ModuleInfo] = field(default_factory=list)
    registered: list[ModuleInfo] = field(default_factory=list)  # made workflow code elsewhere


def _check_records(
    candidates: list[Candidate],
    project: Project,
    focus: frozenset[Path] | None,
    tick: Callable[[], None] | None = None,
    summaries: list[Registrations] | None = None,
) -> list[Record]:
    """`focus`: the files a user named (a commit's, an editor's); the workflow modules that do
    not reach them are read for what they reach, and get no record. `summaries`: given when
    the candidates are the registrars, to hold what they register."""
    loaded = _load_candidates(candidates, project, tick)
    read = [m for m in project.modules.values() if m is not None]
    if summaries is not None:
        summaries.append(summary(project.touched, read, project.frameworks))
    if project.registrations is not None:
        project.registrations.apply(read)  # where the registrars would have been walked
    # Every module is read: the functions replayed only because they suspend are known now.
    settle(read, project.frameworks)
    _classify(loaded)
    _add_registered(loaded, project)
    checked = loaded.workflows
    if focus is not None:
        checked = [m for m in loaded.workflows if _reaches(m, focus)]
    modules_read = [m for m in project.modules.values() if m is not None]
    directives = suppressions.vouch(modules_read)  # before the chains: a vouched root stops there
    raw = _raw_findings(checked, modules_read, project)
    located = locate(raw)
    records = loaded.records
    records += _workflow_records(checked, raw, located, directives, project, loaded.registered)
    for module in loaded.plain:
        records.append(
            Record(str(module.path), module.display, _sha(module.source), PLAIN, deps=_deps(module))
        )
    if project.failed_helpers:
        records.append(Record("", "", "", HELPERS, errors=sorted(set(project.failed_helpers))))
    return records


def _load_candidates(
    candidates: list[Candidate], project: Project, tick: Callable[[], None] | None
) -> _Loaded:
    """Read and walk each candidate; one that cannot be read is a record of its own."""
    loaded = _Loaded()
    for path, display, data in candidates:
        if tick is not None:
            tick()
        result = _load_one(path, display, data, project)
        if isinstance(result, Record):
            loaded.records.append(result)
        elif result not in loaded.modules:
            loaded.modules.append(result)
    return loaded


def _classify(loaded: _Loaded) -> None:
    for module in loaded.modules:
        (loaded.workflows if module.is_workflow else loaded.plain).append(module)


def _load_one(path: str, display: str, data: bytes, project: Project) -> ModuleInfo | Record:
    """The module, or the record that says why it cannot be checked."""
    if len(data) > project.max_module_size:
        reason = f"{len(data):,} bytes, over the max-module-size of {project.max_module_size:,}"
        return _failed(path, display, data, Span(1, 0, 1, 0), reason)
    try:
        return project.load(Path(path), data, display=display)
    except ParseFailure as failure:
        span = Span(failure.line, failure.column, failure.line, failure.column)
        return _failed(path, display, data, span, failure.reason)
    except RecursionError:
        # Deeper than even the enlarged stack allows: report it, check the other files.
        project.forget(Path(path))
        return _failed(path, display, data, Span(1, 0, 1, 0), "too deeply nested to check")
    except Exception as error:  # a bug of ours: say where, check the other files, exit 2
        project.forget(Path(path))
        log.debug("%s: internal error", display, exc_info=True)
        line = f"{display}: internal error: {type(error).__name__}: {error}"
        return Record(str(module_key(Path(path))), display, _sha(data), ERROR, errors=[line])


def _add_registered(loaded: _Loaded, project: Project) -> None:
    """A local module whose functions another file registers as workflows
    (`worker.add_orchestrator(nightly)`) is workflow code even without a framework import."""
    for module in project.modules.values():
        if (
            module is not None
            and not module.marked
            and module.entries()
            and module not in loaded.workflows
        ):
            loaded.workflows.append(module)
            loaded.registered.append(module)


def _raw_findings(
    checked: list[ModuleInfo], modules_read: list[ModuleInfo], project: Project
) -> list[Raw]:
    """Every workflow module's raw findings. A framework's safe APIs are safe in everything its
    workflow code reaches, helper modules included, so helper chains are computed once per set
    of frameworks in force."""
    functions = [f for m in modules_read for f in m.functions]
    children = frozenset(p.name for p in project.frameworks.presets if p.child_workflows)
    chains: dict[frozenset[str], UnsafeHelpers] = {}
    raw: list[Raw] = []
    verdicts = Verdicts(checked, modules_read, project)
    for module in checked:
        allowed = project.safe_paths(module)
        helpers = chains.get(allowed)
        if helpers is None:
            with_framework = partial(_with_framework_safe, project, allowed)
            helpers = UnsafeHelpers(
                functions, project.safe, with_framework, children, verdicts.dropped
            )
            chains[allowed] = helpers
        raw.extend(findings_for(project, module, helpers, verdicts))
    return raw


def _workflow_records(
    checked: list[ModuleInfo],
    raw: list[Raw],
    located: list[Finding],
    directives: dict[int, list],
    project: Project,
    registered: list[ModuleInfo],
) -> list[Record]:
    """One record per checked workflow module: its findings (from whichever module they sit
    in), its coverage and identity, and the suppressions of the modules holding its findings."""
    found: dict[int, list[Finding]] = {id(m): [] for m in checked}
    hosts: dict[int, dict[int, ModuleInfo]] = {id(m): {id(m): m} for m in checked}
    for item, finding in zip(raw, located, strict=True):
        found[id(item.context)].append(finding)
        hosts[id(item.context)][id(item.where)] = item.where
    clean = not project.failed_helpers
    records = []
    for module in checked:
        findings = _unique(found[id(module)] + _broken_helpers(module, project))
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
                extra=module in registered,
            )
        )
    return records


def _broken_helpers(module: ModuleInfo, project: Project) -> list[Finding]:
    """ADK-E001 on each local module `module` imports, however indirectly, that cannot be read
    or parsed: nothing of it was checked (and `module`'s coverage is unproven)."""
    findings = []
    for reached in reached_modules(module):
        for edge in reached.imports:
            if edge.broken is None or edge.broken not in project.broken_reasons:
                continue
            display, reason, line, column = project.broken_reasons[edge.broken]
            span = Span(line, column, line, column)
            findings.append(Finding(Code.E001, display, span, reason, RULES[Code.E001].remedy))
    return findings


def _unique(findings: list[Finding]) -> list[Finding]:
    kept: dict[tuple, Finding] = {}
    for finding in findings:
        kept.setdefault((finding.path, finding.span, finding.code, finding.call), finding)
    return list(kept.values())


def _deps(module: ModuleInfo) -> list[tuple[str, str]]:
    """(path, sha256) of every local module `module` reaches: what its record depends on."""
    reached = reached_modules(module)
    deps = [(str(m.path), _sha(m.source)) for m in reached[1:]]
    broken = sorted({e.broken for m in reached for e in m.imports if e.broken is not None})
    for path in [*broken, *module.settings_files]:
        try:  # a module that could not be parsed, a settings file that chose the engine
            deps.append((str(path), _sha(path.read_bytes())))
        except OSError:
            continue
    return deps


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _reaches(module: ModuleInfo, focus: frozenset[Path]) -> bool:
    """Is `module` one of the focus files, or does it import one, however indirectly?"""
    return any(reached.path in focus for reached in reached_modules(module))


def _with_framework_safe(
    project: Project, allowed: frozenset[str], module: ModuleInfo
) -> frozenset[str]:
    return allowed | project.safe_paths(module)
