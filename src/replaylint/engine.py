"""Per file: prefilter, one parse, one walk; per project: local imports, helper chains, findings."""

from __future__ import annotations

import ast
import logging
import sys
import threading
from pathlib import Path
from typing import Iterable

import libcst as cst

from replaylint import positions, suppressions
from replaylint.codes import RULES, Code
from replaylint.config import Config
from replaylint.findings import ChainLink, Finding, Span
from replaylint.graph.callgraph import Step, UnsafeHelpers
from replaylint.graph.imports import STDLIB, classify
from replaylint.outcome import ModuleResult, Outcome, display_path
from replaylint.resolve.catalog import Catalog, default_catalog
from replaylint.resolve.evaluator import Evaluator
from replaylint.resolve.frameworks import Frameworks
from replaylint.resolve.scopes import FunctionInfo, ModuleInfo
from replaylint.resolve.workflows import MARKER, is_marked
from replaylint.rules import rule_for

log = logging.getLogger("replaylint")

_PROJECT_ROOT_FILES = ("pyproject.toml", "setup.py", "setup.cfg", ".git")


class ParseFailure(Exception):
    def __init__(self, reason: str, line: int, column: int = 0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line
        self.column = column


# LibCST's parser slows down sharply on very long single expressions, and overflows its stack on
# the longest; CPython refuses those anyway. Files with a line this long are pre-checked with
# CPython's parser so that what cannot be compiled is reported at once.
_LONG_LINE = 10_000
_DEFAULT_RECURSION_LIMIT = 1_000


def _has_long_line(source: bytes) -> bool:
    if len(source) <= _LONG_LINE:
        return False
    start = 0
    while True:
        end = source.find(b"\n", start)
        if end == -1:
            return len(source) - start > _LONG_LINE
        if end - start > _LONG_LINE:
            return True
        start = end + 1


def parse(source: bytes) -> cst.Module:
    if _has_long_line(source):
        # At the interpreter's default recursion limit, as a worker importing the module would be.
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(_DEFAULT_RECURSION_LIMIT)
        try:
            ast.parse(source)
        except (SyntaxError, ValueError) as error:
            line = getattr(error, "lineno", None) or 1
            raise ParseFailure(f"syntax error: {getattr(error, 'msg', error)} (line {line})", line) from None
        except (RecursionError, MemoryError):
            raise ParseFailure("too deeply nested for Python to compile", 1) from None
        finally:
            sys.setrecursionlimit(limit)
    try:
        return cst.parse_module(source)
    except cst.ParserSyntaxError as error:
        # CPython's parser names the cause and the line more precisely than LibCST's message;
        # it only parses, nothing is executed.
        try:
            ast.parse(source)
        except SyntaxError as precise:
            line = precise.lineno or error.raw_line
            raise ParseFailure(
                f"syntax error: {precise.msg} (line {line})", line, max((precise.offset or 1) - 1, 0)
            ) from None
        except (ValueError, UnicodeDecodeError):
            pass
        message = str(error).strip().splitlines()[0] if str(error).strip() else "syntax error"
        raise ParseFailure(f"syntax error: {message}", error.raw_line, error.raw_column) from None
    except (UnicodeDecodeError, LookupError, SyntaxError) as error:
        raise ParseFailure(f"cannot decode the file: {error}", 1) from None
    except (ValueError, TypeError, RecursionError) as error:
        raise ParseFailure(f"cannot parse the file: {error}", 1) from None


class Project:
    """The modules read during one run, local helper modules included, each read at most once."""

    def __init__(
        self,
        catalog: Catalog | None = None,
        markers: frozenset[str] = frozenset({MARKER}),
        activity_decorators: Iterable[str] = (),
        safe: frozenset[str] = frozenset(),
        frameworks: Frameworks | None = None,
    ) -> None:
        self.catalog = catalog or default_catalog()
        self.frameworks = frameworks or Frameworks()
        self.markers = markers
        self.extra_activities = set(activity_decorators)
        self.safe = safe
        self.modules: dict[Path, ModuleInfo | None] = {}
        self._roots: dict[Path, list[Path]] = {}
        self._found: dict[tuple[Path, str], Path | None] = {}

    # ------------------------------------------------------------------ loading

    def load(self, path: Path, source: bytes, display: str | None = None, name: str | None = None) -> ModuleInfo:
        """Parse and walk one module (raises ParseFailure)."""
        key = path.resolve() if path.exists() else path
        cached = self.modules.get(key)
        if cached is not None:
            return cached
        tree = parse(source)
        info = ModuleInfo(
            path=key,
            display=display or display_path(path),
            name=name or self._module_name(key),
            source=source,
            tree=tree,
            marked=is_marked(tree, self.markers),
        )
        self.modules[key] = info  # registered before the walk, so import cycles end here
        Evaluator(self, info, self.catalog).run()
        log.debug("%s walked: %d functions, marked=%s", info.display, len(info.functions), info.marked)
        return info

    def forget(self, path: Path) -> None:
        """Drop a module whose walk failed, so nothing half-read is reported or followed."""
        key = path.resolve() if path.exists() else path
        if key in self.modules:
            self.modules[key] = None

    def _module_name(self, path: Path) -> str:
        parts = [path.stem] if path.stem != "__init__" else []
        directory = path.parent
        while (directory / "__init__.py").exists() and directory.parent != directory:
            parts.append(directory.name)
            directory = directory.parent
        return ".".join(reversed(parts)) or path.stem

    # ------------------------------------------------------------------ local imports

    def absolute_name(self, name: str, level: int, importer: ModuleInfo) -> str:
        if level == 0:
            return name
        package = importer.name.split(".")
        if importer.path.name != "__init__.py":
            package = package[:-1]
        package = package[: len(package) - (level - 1)] if level > 1 else package
        return ".".join([*package, name] if name else package)

    def _search_roots(self, directory: Path) -> list[Path]:
        roots = self._roots.get(directory)
        if roots is None:
            roots = []
            current = directory
            for _ in range(8):
                roots.append(current)
                if (current / "src").is_dir():
                    roots.append(current / "src")
                if any((current / marker).exists() for marker in _PROJECT_ROOT_FILES):
                    break
                if current.parent == current:
                    break
                current = current.parent
            self._roots[directory] = roots
        return roots

    def _find_file(self, base: Path, parts: list[str]) -> Path | None:
        key = (base, ".".join(parts))
        if key in self._found:
            return self._found[key]
        found = None
        stem = base.joinpath(*parts) if parts else base
        for candidate in (stem.with_name(stem.name + ".py") if parts else None, stem / "__init__.py"):
            if candidate is not None and candidate.is_file():
                found = candidate
                break
        self._found[key] = found
        return found

    def resolve_module(self, name: str, level: int, importer: ModuleInfo) -> ModuleInfo | None:
        """The local module a dotted import names, read and walked; None when it is not local."""
        parts = [p for p in name.split(".") if p]
        if level == 0:
            if not parts or parts[0] in STDLIB or parts[0] == "replaylint":
                return None
            bases = self._search_roots(importer.path.parent)
        else:
            base = importer.path.parent
            for _ in range(level - 1):
                base = base.parent
            bases = [base]
        for base in bases:
            found = self._find_file(base, parts)
            if found is None:
                continue
            if found.resolve() == importer.path:
                return None
            module_name = self.absolute_name(name, level, importer) if level else name
            return self._load_local(found, module_name)
        return None

    def _load_local(self, path: Path, name: str) -> ModuleInfo | None:
        key = path.resolve()
        if key in self.modules:
            return self.modules[key]
        try:
            source = path.read_bytes()
            return self.load(path, source, name=name)
        except (OSError, ParseFailure) as error:
            log.debug("%s not read as a local module: %s", path, error)
            self.modules[key] = None
            return None

    def activity_kind(self, decorators: Iterable[str]) -> str | None:
        for path in decorators:
            if path in self.catalog.recorded_activities:
                return "recorded"
            if path in self.extra_activities:
                return "recorded"  # declared in the configuration: the project's own recorder
            if path in self.catalog.inline_activities:
                return "inline"
        return None

    # ------------------------------------------------------------------ findings

    def declared_safe(self, function: FunctionInfo) -> bool:
        """A helper the configuration declares deterministic (`safe = ["app.clock.now_utc"]`)."""
        return bool(self.safe) and f"{function.module.name}.{function.qualname}" in self.safe

    def safe_paths(self, module: ModuleInfo) -> frozenset[str]:
        return self.frameworks.safe_paths(module.frameworks)

    def findings_for(self, module: ModuleInfo, helpers: UnsafeHelpers) -> list[tuple[Code, ModuleInfo, cst.CSTNode, str, list[Step]]]:
        """Raw findings of one workflow module: (code, module, node, call, chain)."""
        raw: list[tuple[Code, ModuleInfo, cst.CSTNode, str, list[Step]]] = []
        safe = self.safe_paths(module)
        for function in module.workflow_path():
            if function.is_exempt() or self.declared_safe(function):
                continue
            where = function.module  # a reached helper's own line is reported in its own file
            for hit in function.hits:
                if hit.governed and hit.path not in safe:
                    raw.append((hit.code, where, hit.node, hit.call, [], module))
            for call in function.calls:
                if call.governed and call.reported:
                    chain = helpers.chain(call.target)
                    if chain is not None:
                        log.debug("%s: %s unsafe: %s", where.display, call.call, " -> ".join(s.call for s in chain))
                        raw.append((Code.W005, where, call.node, call.call, chain, module))
        return raw


def project_for(config: Config) -> Project:
    """A Project with a configuration's markers, catalog additions, safe names and presets."""
    catalog = default_catalog()
    if config.unsafe or config.safe:
        catalog = catalog.extend(config.unsafe, config.safe)
    return Project(
        catalog,
        markers=frozenset({MARKER, *config.markers}),
        activity_decorators=config.activity_decorators,
        safe=frozenset(config.safe),
        frameworks=Frameworks(config.frameworks),
    )


def check_candidates(candidates: Iterable[tuple[str, str, bytes]], project: Project) -> Outcome:
    """Parse and check files that passed the prefilter: (path, display name, bytes) each.

    The work runs on a thread with a large stack and a raised recursion limit: generated code
    (hundreds of `elif`s, long operator chains) is valid Python that a recursive walk and LibCST's
    code generation must be able to follow.
    """
    result: list[Outcome] = []
    errors: list[BaseException] = []

    def work() -> None:
        try:
            result.append(_check_candidates(list(candidates), project))
        except BaseException as error:  # re-raised on the calling thread
            errors.append(error)

    previous_limit = sys.getrecursionlimit()
    previous_stack = threading.stack_size()
    try:
        threading.stack_size(_STACK_BYTES)
        sys.setrecursionlimit(max(previous_limit, _RECURSION_LIMIT))
        worker = threading.Thread(target=work, name="replaylint-check")
        worker.start()
        worker.join()
    finally:
        threading.stack_size(previous_stack)
        sys.setrecursionlimit(previous_limit)
    if errors:
        raise errors[0]
    return result[0]


_STACK_BYTES = 512 * 1024 * 1024  # reserved address space; only the pages used are touched
_RECURSION_LIMIT = 60_000


def _check_candidates(candidates: list[tuple[str, str, bytes]], project: Project) -> Outcome:
    outcome = Outcome()
    workflow_modules: list[ModuleInfo] = []
    failures: list[Finding] = []
    for path, display, data in candidates:
        try:
            module = project.load(Path(path), data, display=display)
        except ParseFailure as failure:
            span = Span(failure.line, failure.column, failure.line, failure.column)
            failures.append(Finding(Code.E001, display, span, failure.reason, RULES[Code.E001].remedy))
            continue
        except RecursionError:
            # Deeper than even the enlarged stack allows: report it, check the other files.
            project.forget(Path(path))
            span = Span(1, 0, 1, 0)
            reason = "too deeply nested to check"
            failures.append(Finding(Code.E001, display, span, reason, RULES[Code.E001].remedy))
            continue
        if module.is_workflow and module not in workflow_modules:
            workflow_modules.append(module)
    for module in project.modules.values():
        # A local module whose functions another file registers as workflows
        # (`worker.add_orchestrator(nightly)`) is workflow code even without a framework import.
        if module is not None and not module.marked and module.entries() and module not in workflow_modules:
            workflow_modules.append(module)
    functions = [f for m in project.modules.values() if m is not None for f in m.functions]
    # A framework's safe APIs are safe in everything its workflow code reaches, helper modules
    # included, so helper chains are computed once per set of frameworks in force.
    chains: dict[frozenset[str], UnsafeHelpers] = {}
    raw = []
    per_module: dict[int, int] = {}
    for module in workflow_modules:
        allowed = project.safe_paths(module)
        helpers = chains.get(allowed)
        if helpers is None:
            helpers = chains[allowed] = UnsafeHelpers(
                functions,
                project.safe,
                lambda m, extra=allowed: extra | project.safe_paths(m),
                frozenset(p.name for p in project.frameworks.presets if p.child_workflows),
            )
        found = project.findings_for(module, helpers)
        per_module[id(module)] = len(found)
        raw.extend(found)
    try:
        outcome.findings = _materialize(raw, project) + failures
    except RecursionError:
        outcome.findings = _materialize_per_module(raw, project) + failures
    reported = {id(item[1]): item[1] for item in raw}
    for module in [*workflow_modules, *reported.values()]:
        if module.display not in outcome.directives:
            directives = suppressions.parse(module.source, module.tree)
            if directives:
                outcome.directives[module.display] = directives
    for module in workflow_modules:
        coverage = classify(module, per_module[id(module)] > 0)
        outcome.modules.append(ModuleResult(module.display, coverage.coverage, coverage.identity))
    return outcome


def _materialize_per_module(raw: list, project: Project) -> list[Finding]:
    """Positions module by module, so one module too deep for code generation loses only its own."""
    findings: list[Finding] = []
    by_module: dict[int, list] = {}
    for item in raw:
        by_module.setdefault(id(item[1]), []).append(item)
    for items in by_module.values():
        try:
            findings.extend(_materialize(items, project))
        except RecursionError:
            module = items[0][1]
            span = Span(1, 0, 1, 0)
            findings.append(
                Finding(Code.E001, module.display, span, "too deeply nested to locate findings", RULES[Code.E001].remedy)
            )
    return findings


def _materialize(raw: list, project: Project) -> list[Finding]:
    """Positions for every node that needs one, one code generation pass per module."""
    wanted: dict[int, tuple[ModuleInfo, set]] = {}
    for code, module, node, call, chain, _context in raw:
        wanted.setdefault(id(module), (module, set()))[1].add(node)
        for step in chain:
            wanted.setdefault(id(step.module), (step.module, set()))[1].add(step.node)
    spans: dict[int, dict] = {key: positions.spans(module.tree, nodes) for key, (module, nodes) in wanted.items()}
    findings: dict[tuple, Finding] = {}
    for code, module, node, call, chain, context in raw:
        span = spans[id(module)][node]
        links = tuple(
            ChainLink(step.module.display, spans[id(step.module)][step.node].line, step.call)
            for step in chain
        )
        rule = rule_for(code)
        finding = Finding(code, module.display, span, call, rule.remedy(context, project.frameworks), links)
        findings.setdefault((module.display, span, code, call), finding)
    return list(findings.values())
