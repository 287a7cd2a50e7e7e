"""The Python API: guard(paths) and guard_source(text, source=...) return a ReplayReport."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from replaylint.core.outcome import Outcome
from replaylint.core.paths import display_path, printable
from replaylint.presets.records import presets
from replaylint.project.config import Config, Resolver
from replaylint.project.discovery import python_files
from replaylint.project.gate import names_pattern
from replaylint.project.prefilter import (
    Needles,
    entry_pattern,
    import_pattern,
    is_candidate,
)
from replaylint.project.roots import project_root
from replaylint.report.replay_report import ReplayReport
from replaylint.report.selection import Selection, report_from

if TYPE_CHECKING:
    from replaylint.engine.project import Project
    from replaylint.index.cache import Cache

Progress = Callable[[int, int], None]
MARKER_NEEDLES = (b"__adk_workflow__",)


def needles_for(config: Config) -> Needles:
    """(marker needles, (framework needle, import pattern, entry pattern, entry names) per
    framework):
    the prefilter's byte tests, in the order they are tried. A file that imports a framework is
    parsed only when it also spells one of *that* framework's entries (or aliases it), so a
    Temporal test module that mentions a `Context` is not read as a Restate handler."""
    markers = MARKER_NEEDLES + tuple(m.encode() for m in config.markers)
    records = presets()
    names = tuple(records) if config.frameworks is None else config.frameworks
    # One substring per package (Cheap.needle), shared where names overlap.
    grouped: dict[str, tuple[list[str], list[bytes], list[str], list[str]]] = {}
    for name in names:
        cheap = records[name].cheap
        for package in records[name].packages:
            packages, spelled, chosen, _ = grouped.setdefault(
                cheap.needle(package), ([], [], [], [])
            )
            packages.append(package)
            spelled.extend(cheap.needles)
            chosen.append(name)
    # A declared workflow decorator's package counts as a framework's, and its name as an entry.
    for declared in config.workflow_decorators:
        package = declared.split(".")[0]
        needle = next(
            (r.cheap.needle(package) for r in records.values() if package in r.packages),
            package.split(".")[-1],
        )
        packages, spelled, _, decorators = grouped.setdefault(needle, ([], [], [], []))
        packages.append(package)
        spelled.append(rb"\b" + re.escape(declared.rsplit(".", 1)[-1].encode()) + rb"\b")
        decorators.append(declared)
    tests = []
    for needle in sorted(grouped):
        packages, spelled, chosen, decorators = grouped[needle]
        unique = sorted(set(packages))
        pattern = import_pattern(unique)
        if pattern is not None:
            entries = entry_pattern(sorted(set(spelled)), unique)
            in_code = names_pattern(chosen, decorators)
            tests.append((needle.encode(), pattern, entries, in_code))
    return markers, tuple(tests)


def run(
    paths: Sequence[str],
    stdin: tuple[str, bytes] | None = None,
    project: Project | None = None,
    config: Config | None = None,
    resolver: Resolver | None = None,
    dependents: bool = True,
    progress: Progress | None = None,
    cache: Cache | None = None,
    jobs: int = 1,
) -> Outcome:
    """Discovery, the byte prefilter, then the engine for the candidates only.

    Each file is checked with the settings that apply to it (`resolver`; `config` applies to
    every file instead): files are grouped by those settings and each group is one engine run,
    so one service's settings never reach another's files. The engine (and LibCST with it) is
    imported only when some file passes the prefilter, so a tree with no workflow module costs
    a walk and a read per file.

    `cache`: reuse what an earlier run learnt of unchanged files (see index.py); `jobs`: the
    processes that check the rest (the output is the same for any number).

    `progress(done, total)` is called as the engine finishes each candidate file (for a
    progress bar); `total` grows as each group's candidates are known.
    """
    resolver = resolver or Resolver(explicit=config)
    focus: frozenset[Path] | None = None
    if dependents and paths and all(os.path.isfile(p) for p in paths):
        # Files named one by one (a commit's, an editor's): their whole project is read, so a
        # workflow that reaches a changed helper is checked too, and reported with it.
        focus = frozenset(Path(p).resolve() for p in paths)
        paths = sorted({str(project_root(Path(p).resolve().parent)) for p in paths})
    groups: dict[int, tuple[Config, list[str]]] = {}
    errors: list[str] = []
    seen: set[str] = set()
    for path in paths:
        # A file reached twice (two overlapping paths, or a link to a file of the tree) is
        # checked once. Directory links are never followed, so within one path only a file
        # that is itself a link can repeat another: the others skip realpath's lstat per folder.
        real = os.path.realpath(path)
        prefix = path if path.endswith(os.sep) else path + os.sep
        top = resolver.for_path(path)
        files, problems = python_files(
            [path],
            exclude=(top.exclude or ()) + top.extend_exclude,
            default_excludes=top.exclude is None,
            respect_gitignore=top.respect_gitignore,
            base=top.base if top.sources else None,
        )
        errors.extend(problems)
        for file in files:
            if file == path:
                key = real
            elif os.path.islink(file):
                key = os.path.realpath(file)
            elif file.startswith(prefix):  # the walk joins each name onto its folder's path
                key = real + os.sep + file[len(prefix) :]
            else:
                key = os.path.join(real, os.path.relpath(file, path))
            if key in seen:
                continue
            seen.add(key)
            own = resolver.for_file(file)
            if own is not top and file != path and own.excludes(file, walking=True):
                continue  # a nested configuration excludes it
            groups.setdefault(id(own), (own, []))[1].append(file)
    outcome = Outcome()
    counter = _Counter(progress)
    for own, files in groups.values():
        from replaylint.index.batches import check_group

        needles = needles_for(own)
        part, unreadable = check_group(
            files, own, needles, focus, counter.tick, cache, jobs, project, counter.expect
        )
        outcome.files += len(files)
        errors.extend(f"{display_path(p)}: cannot read: {reason}" for p, reason in unreadable)
        _merge(outcome, part)
    if focus is not None:  # checked: the files named and the workflows that reach them
        outcome.files = len(focus | {Path(m.path).resolve() for m in outcome.modules})
    if stdin is not None:
        name, data = stdin
        own = resolver.for_path(name)
        markers, imports = needles_for(own)
        outcome.files += 1
        if is_candidate(data, markers, imports):
            shown = printable(name.replace(os.sep, "/"))
            _merge(outcome, _check([(name, shown, data)], project, own))
    outcome.errors = [*errors, *outcome.errors]  # the engine's are one line per file too
    return outcome


def _check(
    candidates: list[tuple[str, str, bytes]],
    project: Project | None,
    config: Config,
    focus: frozenset[Path] | None = None,
    tick: Callable[[], None] | None = None,
) -> Outcome:
    if not candidates:
        return Outcome()
    from replaylint.engine.check import check_candidates
    from replaylint.engine.project import project_for

    return check_candidates(candidates, project or project_for(config), focus, tick)


class _Counter:
    """Turns the engine's per-file ticks into `progress(done, total)`: `total` grows as each
    group's candidates are known (groups are checked one after another)."""

    def __init__(self, progress: Progress | None) -> None:
        self.progress, self.total, self.done = progress, 0, 0

    def expect(self, count: int) -> None:
        self.total += count

    def tick(self) -> None:
        self.done += 1
        if self.progress is not None:
            self.progress(self.done, max(self.total, self.done))


def _merge(into: Outcome, part: Outcome) -> None:
    """One run's outcome into the whole: a helper two groups reach is reported once."""
    seen = {(f.path, f.span, f.code, f.call) for f in into.findings}
    into.findings.extend(f for f in part.findings if (f.path, f.span, f.code, f.call) not in seen)
    known = {m.path for m in into.modules}
    into.modules.extend(m for m in part.modules if m.path not in known)
    for path, directives in part.directives.items():
        into.directives.setdefault(path, directives)
    into.errors.extend(e for e in part.errors if e not in into.errors)


def guard(
    paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]] = ".",
    *,
    select: Sequence[str] | None = None,
    ignore: Sequence[str] | None = None,
    project: Project | None = None,
    config: Config | None = None,
    dependents: bool = True,
) -> ReplayReport:
    """Check files and directories; the CI step returns report.exit_code and prints report.summary().

    Files named one by one also bring in the workflow modules of their project that reach them
    (`dependents=False`: only the files themselves).

    Each file's settings come from the nearest `[tool.replaylint]` above it, as on the command
    line, unless `config` is given for all of them (pass `Config()` for the defaults).
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    resolver = Resolver(explicit=config)
    outcome = run(
        [os.fspath(p) for p in paths], project=project, resolver=resolver, dependents=dependents
    )
    return report_from(outcome, Selection(resolver, select or (), ignore or ()))


def guard_source(
    text: str | bytes,
    source: str = "<stdin>",
    *,
    select: Sequence[str] | None = None,
    ignore: Sequence[str] | None = None,
    project: Project | None = None,
    config: Config | None = None,
) -> ReplayReport:
    """Check one module given as text, named `source` (a path: local imports resolve beside it,
    and settings come from the nearest `[tool.replaylint]` above it unless `config` is given)."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    resolver = Resolver(explicit=config)
    outcome = run([], stdin=(source, data), project=project, resolver=resolver)
    return report_from(outcome, Selection(resolver, select or (), ignore or ()))
