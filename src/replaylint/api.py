"""The Python API: guard(paths) and guard_source(text, source=...) return a ReplayReport."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from replaylint.config import PRESET_NAMES, PRESET_PACKAGES, Config, Resolver
from replaylint.discovery import printable, python_files
from replaylint.outcome import Outcome, display_path
from replaylint.prefilter import (
    PRESET_ENTRY_NEEDLES,
    entry_pattern,
    import_pattern,
    is_candidate,
    scan,
)
from replaylint.report import ReplayReport
from replaylint.roots import project_root
from replaylint.selection import Selection, report_from

if TYPE_CHECKING:
    from replaylint.project import Project

Progress = Callable[[int, int], None]
MARKER_NEEDLES = (b"__adk_workflow__",)
_NEEDLE_OF = {
    "durable_functions": "durable",
    "durabletask": "durable",
    "aws_durable_execution_sdk_python": "durable",
}


Needles = tuple[
    tuple[bytes, ...], tuple[tuple[bytes, re.Pattern[bytes]], ...], "re.Pattern[bytes] | None"
]


def needles_for(config: Config) -> Needles:
    """(marker needles, (framework needle, import pattern) pairs, entry pattern): the prefilter's
    byte tests, in the order they are tried."""
    markers = MARKER_NEEDLES + tuple(m.encode() for m in config.markers)
    names = PRESET_NAMES if config.frameworks is None else config.frameworks
    packages = [package for name in names for package in PRESET_PACKAGES[name]]
    # A declared workflow decorator's package counts as a framework's, and its name as an entry.
    declared = list(config.workflow_decorators)
    packages += sorted({d.split(".")[0] for d in declared} - set(packages))
    pattern = import_pattern(packages)
    if pattern is None:
        return markers, (), None
    # One substring per framework, shared where names overlap ("durable" covers three), since
    # each needle is one more pass over every byte of an ordinary tree.
    needles = sorted({_NEEDLE_OF.get(p.split(".")[-1], p.split(".")[-1]) for p in packages})
    spelled = [n for name in names for n in PRESET_ENTRY_NEEDLES[name]]
    spelled += [rb"\b" + re.escape(d.rsplit(".", 1)[-1].encode()) + rb"\b" for d in declared]
    entries = entry_pattern(spelled, packages)
    return markers, tuple((needle.encode(), pattern) for needle in needles), entries


def run(
    paths: Sequence[str],
    stdin: tuple[str, bytes] | None = None,
    project: Project | None = None,
    config: Config | None = None,
    resolver: Resolver | None = None,
    dependents: bool = True,
    progress: Progress | None = None,
) -> Outcome:
    """Discovery, the byte prefilter, then the engine for the candidates only.

    Each file is checked with the settings that apply to it (`resolver`; `config` applies to
    every file instead): files are grouped by those settings and each group is one engine run,
    so one service's settings never reach another's files. The engine (and LibCST with it) is
    imported only when some file passes the prefilter, so a tree with no workflow module costs
    a walk and a read per file.

    `progress(done, total)` is called as the engine finishes each candidate file (for a
    progress bar); `total` counts the candidates of every group, known once all are scanned.
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
            key = os.path.realpath(file)
            if key in seen:
                continue
            seen.add(key)
            own = resolver.for_file(file)
            if own is not top and file != path and own.excludes(file, walking=True):
                continue  # a nested configuration excludes it
            groups.setdefault(id(own), (own, []))[1].append(file)
    outcome = Outcome()
    scanned: list[tuple[Config, list[tuple[str, str, bytes]]]] = []
    for own, files in groups.values():
        needles, imports, entries = needles_for(own)
        count, found, unreadable = scan(files, needles, imports, entries)
        outcome.files += count
        errors.extend(f"{display_path(p)}: cannot read: {reason}" for p, reason in unreadable)
        scanned.append((own, [(p, display_path(p), data) for p, data in found]))
    counter = _Counter(progress, sum(len(c) for _, c in scanned))
    for own, candidates in scanned:
        _merge(outcome, _check(candidates, project, own, focus, counter.tick))
    if focus is not None:  # checked: the files named and the workflows that reach them
        outcome.files = len(focus | {Path(m.path).resolve() for m in outcome.modules})
    if stdin is not None:
        name, data = stdin
        own = resolver.for_path(name)
        needles, imports, entries = needles_for(own)
        outcome.files += 1
        if is_candidate(data, needles, imports, entries):
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
    from replaylint.engine import check_candidates
    from replaylint.project import project_for

    return check_candidates(candidates, project or project_for(config), focus, tick)


class _Counter:
    """Turns the engine's per-file ticks into `progress(done, total)` over the whole run."""

    def __init__(self, progress: Progress | None, total: int) -> None:
        self.progress, self.total, self.done = progress, total, 0

    def tick(self) -> None:
        self.done += 1
        if self.progress is not None:
            self.progress(self.done, self.total)


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
