"""One run of the guard, in named phases: the files named, grouped by the settings that apply to
each, each group through the index and the engine, then a module read from stdin."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from replaylint.api.needles import needles_for
from replaylint.core.outcome import Outcome
from replaylint.core.owners import finding_key
from replaylint.core.paths import display_path, printable
from replaylint.project.config import Config, ConfigError, Resolver
from replaylint.project.discovery import python_files
from replaylint.project.prefilter import is_candidate
from replaylint.project.roots import find_project

if TYPE_CHECKING:
    from replaylint.engine.project import Project
    from replaylint.index.cache import Cache

Progress = Callable[[int, int], None]
Groups = dict[int, tuple[Config, list[str]]]


def run(
    paths: Sequence[str | os.PathLike[str]],
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

    `cache`: reuse what an earlier run learnt of unchanged files (see index/); `jobs`: the
    processes that check the rest (the output is the same for any number).

    `progress(done, total)` is called as the engine finishes each candidate file (for a
    progress bar); `total` grows as each group's candidates are known.
    """
    resolver = resolver or Resolver(explicit=config)
    paths = _not_force_excluded([os.fspath(p) for p in paths], resolver)
    walked, focus = _with_dependents(paths) if dependents else (list(paths), None)
    groups, errors = _grouped(walked, resolver, focus)
    outcome, unreadable = _check_groups(groups, focus, _Counter(progress), cache, jobs, project)
    if focus is not None:  # checked: the files named and the workflows that reach them
        outcome.files = len(focus | {Path(m.path).resolve() for m in outcome.modules})
    if stdin is not None:
        _check_stdin(outcome, stdin, resolver.for_path(stdin[0]), project)
    # The engine's are one line per file too.
    outcome.errors = [*errors, *unreadable, *outcome.errors]
    return outcome


def files_to_check(paths: Sequence[str], resolver: Resolver) -> tuple[list[str], list[str]]:
    """Every Python file a run of `paths` would look at (`check --show-files`), and one line
    per path that could not be looked at."""
    groups, errors = _grouped(_not_force_excluded(paths, resolver), resolver)
    return [file for _, files in groups.values() for file in files], errors


def _not_force_excluded(paths: Sequence[str], resolver: Resolver) -> list[str]:
    """Paths named on the command line, less those their settings exclude with force-exclude
    (pre-commit names every changed file, excluded or not)."""
    return [path for path in paths if not resolver.for_path(path).excludes_named(path)]


def _with_dependents(paths: Sequence[str]) -> tuple[list[str], frozenset[Path] | None]:
    """Files named one by one (a commit's, an editor's) bring in their project: it is walked,
    so a workflow that reaches a changed helper is checked too and reported with them. A file
    that belongs to no project is checked alone, with the modules it imports."""
    if not paths or not all(os.path.isfile(p) for p in paths):
        return list(paths), None
    focus = frozenset(Path(p).resolve() for p in paths)
    walked = set()
    for path in paths:
        home = find_project(Path(path).resolve().parent)
        if home is not None:
            walked.add(str(home))
    # The files themselves too, after their projects: one the walk skips (excluded) is still
    # checked, as ruff checks a file it is given; one the walk found is not read twice.
    return [*sorted(walked), *paths], focus


def python_files_under(path: str, resolver: Resolver) -> tuple[list[str], list[str]]:
    """The Python files a walk of `path` finds under the settings that govern it (their
    exclusions, relative to their own folder, and .gitignore), and the paths it could not read."""
    top = resolver.for_path(path)
    return python_files(
        [path],
        exclude=(top.exclude or ()) + top.extend_exclude,
        default_excludes=top.exclude is None,
        respect_gitignore=top.respect_gitignore,
        base=top.base if top.sources else None,
    )


def _grouped(
    paths: Sequence[str], resolver: Resolver, focus: frozenset[Path] | None = None
) -> tuple[Groups, list[str]]:
    """The files under `paths`, grouped by the settings that apply to each, and one line per
    path that could not be looked at. A file reached twice (overlapping paths, a link to a file
    of the tree) is checked once. With `focus` (files named one by one), a file read only for
    the workflows that may reach them is left out when its own folder's settings are broken:
    settings that do not govern the named files never stop their check."""
    groups: Groups = {}
    errors: list[str] = []
    seen: set[str] = set()
    for path in paths:
        top = resolver.for_path(path)
        files, problems = python_files_under(path, resolver)
        errors.extend(problems)
        real = os.path.realpath(path)
        for file in files:
            key = _identity(file, path, real)
            if key in seen:
                continue
            seen.add(key)
            try:
                own = resolver.for_file(file)
            except ConfigError:
                if focus is not None and Path(file).resolve() not in focus:
                    continue
                raise
            if own is not top and file != path and own.excludes(file, walking=True):
                continue  # a nested configuration excludes it
            groups.setdefault(id(own), (own, []))[1].append(file)
    return groups, errors


def _identity(file: str, path: str, real: str) -> str:
    """The real path of a file a walk of `path` (real path `real`) found. Directory links are
    never followed, so only a file that is itself a link can repeat another: the others skip
    realpath's lstat per folder."""
    prefix = path if path.endswith(os.sep) else path + os.sep
    if file == path:
        return real
    if os.path.islink(file):
        return os.path.realpath(file)
    if file.startswith(prefix):  # the walk joins each name onto its folder's path
        return real + os.sep + file[len(prefix) :]
    return os.path.join(real, os.path.relpath(file, path))


def _check_groups(
    groups: Groups,
    focus: frozenset[Path] | None,
    counter: _Counter,
    cache: Cache | None,
    jobs: int,
    project: Project | None,
) -> tuple[Outcome, list[str]]:
    """Each group through the index and the engine, merged into one outcome; and one line per
    file that could not be read."""
    outcome = Outcome()
    unreadable_files: list[str] = []
    for own, files in groups.values():
        from replaylint.index.batches import check_group

        needles = partial(needles_for, own)  # asked only if some file must be read
        part, unreadable = check_group(
            files, own, needles, focus, counter.tick, cache, jobs, project, counter.expect
        )
        outcome.files += len(files)
        unreadable_files.extend(f"{display_path(p)}: cannot read: {why}" for p, why in unreadable)
        merge(outcome, part)
    return outcome, unreadable_files


def _check_stdin(
    outcome: Outcome, stdin: tuple[str, bytes], own: Config, project: Project | None
) -> None:
    """A module read from stdin, checked under its name (its imports resolve beside it)."""
    name, data = stdin
    markers, imports = needles_for(own)
    outcome.files += 1
    if not is_candidate(data, markers, imports):
        return
    from replaylint.engine.check import check_candidates
    from replaylint.engine.project import project_for

    shown = printable(name.replace(os.sep, "/"))
    candidates = [(name, shown, data)]
    merge(outcome, check_candidates(candidates, project or project_for(own), None, None))


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


def merge(into: Outcome, part: Outcome) -> None:
    """One run's outcome into the whole: a helper two groups reach is reported once."""
    seen = {finding_key(f) for f in into.findings}
    into.findings.extend(f for f in part.findings if finding_key(f) not in seen)
    into.owners.update(part.owners)
    known = {m.path for m in into.modules}
    into.modules.extend(m for m in part.modules if m.path not in known)
    for path, directives in part.directives.items():
        into.directives.setdefault(path, directives)
    into.errors.extend(e for e in part.errors if e not in into.errors)
    for path, entries in part.marks.items():
        into.marks.setdefault(path, []).extend(entries)
    into.afresh += part.afresh


def named_files(paths: Sequence[str]) -> frozenset[str]:
    """The files among `paths`, as reports spell them (a report keeps them even if excluded)."""
    return frozenset(display_path(p) for p in paths if os.path.isfile(p))
