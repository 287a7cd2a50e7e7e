"""`check --base REF`: the workflows of REF and of the working tree read, paired and compared;
what an old run would trip on, as findings (ADK-V001..V004)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from replaylint.api import needles_for
from replaylint.core.findings import Finding
from replaylint.core.outcome import Outcome
from replaylint.core.paths import display_path
from replaylint.graph.imports import reached_modules
from replaylint.index.pools import default_jobs, pool_context
from replaylint.project.config import Config, Resolver
from replaylint.project.discovery import python_files
from replaylint.project.prefilter import Needles, is_candidate
from replaylint.project.roots import Roots
from replaylint.resolve.model import ModuleInfo
from replaylint.versioning.entries import HOST_FILE, folder_of
from replaylint.versioning.findings import Comparisons
from replaylint.versioning.git import GitError, Repository, blob_id, copy_of, wanted
from replaylint.versioning.model import Workflow
from replaylint.versioning.models import Models
from replaylint.versioning.pairing import Pairs, pair
from replaylint.versioning.places import Places
from replaylint.versioning.reach import reached
from replaylint.versioning.side import Module, read_side


@dataclass
class Versioned:
    """The findings of a comparison with the base, and the problems met (each one line)."""

    findings: list[Finding] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    compared: int = 0  # workflows found at the base and in the working tree


def check_against(
    base: str,
    paths: Sequence[str] = (),
    resolver: Resolver | None = None,
    overlay: Mapping[Path, bytes] | None = None,
) -> Versioned:
    """Compare every workflow of the working tree (under `paths`, default: the current folder)
    with its version at `base` (anything `git rev-parse` accepts). Files named one by one bring
    in the workflows that reach them, as `check` does. Nothing is checked out. `overlay`: real
    path -> the bytes an editor holds for that file, read in place of the file on disk."""
    resolver = resolver or Resolver()
    overlay = overlay or {}
    paths = list(paths) or ["."]
    outcome = Versioned()
    folder = Path(paths[0]) if os.path.isdir(paths[0]) else Path(paths[0]).parent
    try:
        repository = Repository((folder if str(folder) else Path(".")).resolve())
        tree = repository.tree(repository.commit(base))
    except GitError as error:
        outcome.errors.append(str(error))
        return outcome
    focus: set[str] | None = None
    if all(os.path.isfile(p) for p in paths):
        focus = {_relative(repository.root, Path(p)) for p in paths}
        paths = [str(repository.root)]
    models = Models(resolver)
    current = _working_tree(paths, resolver, repository.root, models, outcome.errors, overlay)
    scopes = [_relative(repository.root, Path(p)) for p in paths]
    changes = Changes(repository.root, tree, overlay)
    with tempfile.TemporaryDirectory(prefix="replaylint-base-") as folder_name:
        copy = Path(folder_name) / repository.root.name
        kept = {path: blob for path, blob in tree.items() if wanted(path)}
        contents = repository.blobs(kept.values())
        copy_of(kept, contents, copy)
        earlier = resolver.fresh()
        old_modules = _base_modules(kept, contents, copy, repository.root, scopes, earlier)
        # Only a workflow whose module or helpers changed can differ: the others are not read.
        old_modules = [m for m in old_modules if changes.touch(m, copy, earlier)]
        dirty = [m for m in current if changes.touch(m, repository.root, resolver)]
        places = Places()  # the working tree's; the base's positions are never reported
        with _beside(len(old_modules) + len(dirty)) as pool:
            # The base is read in a process of its own while this one reads the working tree.
            later = pool.submit(_read_base, old_modules, earlier) if pool is not None else None
            new, walked = read_side(dirty, resolver.for_file, outcome.errors, places)
            old, read, errors = later.result() if later else _read_base(old_modules, earlier)
        outcome.errors += errors
    new = changes.hosted(new)
    pairs = pair(*_readable(old_modules, old, read, dirty, new, walked))
    clean = [m for m in current if m not in dirty]
    if (pairs.removed or pairs.renamed) and clean:
        # A name that seems gone may live on in an unchanged module: read those too.
        more, also = read_side(clean, resolver.for_file, outcome.errors, places)
        walked.update(also)
        dirty += clean
        pairs = pair(*_readable(old_modules, old, read, dirty, new + changes.hosted(more), walked))
    if focus is not None:
        pairs = _focused(pairs, focus, walked, repository.root)
    outcome.compared = len(pairs.same) + len(pairs.renamed)
    verdicts = Comparisons(models, places, repository.root)
    outcome.findings = verdicts.findings(pairs)
    return outcome


def _base_modules(
    kept: dict[str, str],
    contents: dict[str, bytes],
    copy: Path,
    root: Path,
    scopes: list[str],
    resolver: Resolver,
) -> list[Module]:
    """The base's workflow candidates under `scopes`, in its copy."""
    return [
        Module(copy / path, path, _shown(root, path), contents[blob])
        for path, blob in sorted(kept.items())
        if path.endswith(".py")
        and _in_scope(path, scopes)
        and _candidate(contents[blob], resolver.for_file(str(copy / path)))
    ]


def _focused(pairs: Pairs, focus: set[str], walked: dict[str, ModuleInfo], root: Path) -> Pairs:
    """The workflows that reach a file named, and those removed from one."""

    def named(workflow: Workflow) -> bool:
        return _reaches(walked.get(workflow.module), focus, root)

    return Pairs(
        [p for p in pairs.same if named(p[1])],
        [p for p in pairs.renamed if named(p[1])],
        [w for w in pairs.removed if w.module in focus],
    )


def add_comparison(
    outcome: Outcome, base: str, paths: Sequence[str], resolver: Resolver | None = None
) -> None:
    """`check --base`: the comparison's findings and errors added to a check's outcome, before
    the selection (select, ignore, per-file ignores) is applied to them all."""
    versioned = check_against(base, paths, resolver)
    outcome.findings += versioned.findings
    outcome.errors += versioned.errors


def _read_base(
    modules: list[Module], resolver: Resolver
) -> tuple[list[Workflow], set[str], list[str]]:
    """The base's workflows, the modules read and the problems met (a pool's task: nothing
    returned refers to a syntax tree)."""
    errors: list[str] = []
    workflows, read = read_side(modules, resolver.for_file, errors, Places())
    return workflows, set(read), errors


@contextmanager
def _beside(modules: int) -> Iterator[ProcessPoolExecutor | None]:
    """A second process when there are cores for it and enough modules to pay its start."""
    if modules < _WORTH_A_PROCESS or default_jobs() < 2:
        yield None
        return
    with ProcessPoolExecutor(max_workers=1, mp_context=pool_context()) as pool:
        yield pool


_WORTH_A_PROCESS = 16  # modules of both sides; below, one process reads them sooner


def _readable(
    old_modules: list[Module],
    old: list[Workflow],
    read: set[str],
    new_modules: list[Module],
    new: list[Workflow],
    walked: dict[str, ModuleInfo],
) -> tuple[list[Workflow], list[Workflow]]:
    """Both sides' workflows, less those of a module one side cannot parse (the check reports
    it as ADK-E001): such a module is compared on neither side, never taken for removed."""
    unread = {m.relative for m in old_modules if m.relative not in read}
    unread |= {m.relative for m in new_modules if m.relative not in walked}
    return [w for w in old if w.module not in unread], [w for w in new if w.module not in unread]


class Changes:
    """Which files differ between the base and the working tree, by git's blob ids."""

    def __init__(
        self, root: Path, tree: dict[str, str], overlay: Mapping[Path, bytes] | None = None
    ) -> None:
        self.root = root
        self.tree = tree
        self.overlay = overlay or {}
        self._changed: dict[str, bool] = {}
        self._roots: dict[int, Roots] = {}

    def changed(self, relative: str) -> bool:
        found = self._changed.get(relative)
        if found is None:
            data = _read(self.root / relative, self.overlay)
            blob = self.tree.get(relative)
            if data is None or blob is None:
                found = (data is None) != (blob is None)
            else:
                found = blob_id(data) != blob
            self._changed[relative] = found
        return found

    def hosted(self, workflows: list[Workflow]) -> list[Workflow]:
        """The workflows of the working tree less those whose host file (function.json) the
        base had and the working tree lost: the host runs them no more."""
        return [
            w
            for w in workflows
            if w.host_file not in self.tree or (self.root / w.host_file).is_file()
        ]

    def touch(self, module: Module, root: Path, resolver: Resolver) -> bool:
        """Does the module, or a local module it reaches, or the host file beside it, differ
        between the two sides?"""
        if self.changed(_sibling(module.relative, HOST_FILE)):
            return True
        config = resolver.for_file(str(module.path))
        roots = self._roots.get(id(config))
        if roots is None:
            sources = tuple(Path(config.base, r).resolve() for r in config.src)
            roots = self._roots[id(config)] = Roots(sources)
        for path in reached(module.path.resolve(), roots):
            relative = _relative(root.resolve(), path)
            if not relative.startswith("..") and self.changed(relative):
                return True
        return False


def _working_tree(
    paths: list[str],
    resolver: Resolver,
    root: Path,
    models: Models,
    errors: list[str],
    overlay: Mapping[Path, bytes],
) -> list[Module]:
    """The workflow candidates of the working tree under `paths`; every file read also tells
    the models whether it switches a framework's versioning (DBOS's `enable_patching`)."""
    found: list[Module] = []
    for path in paths:
        top = resolver.for_path(path)
        files, problems = python_files(
            [path],
            exclude=(top.exclude or ()) + top.extend_exclude,
            default_excludes=top.exclude is None,
            respect_gitignore=top.respect_gitignore,
        )
        errors.extend(problems)
        for file in files:
            data = overlay.get(Path(file).resolve())
            try:
                data = data if data is not None else Path(file).read_bytes()
            except OSError as error:
                errors.append(f"{display_path(file)}: cannot read: {error.strerror}")
                continue
            models.scan(data, file)
            if _candidate(data, resolver.for_file(file)):
                relative = _relative(root, Path(file))
                found.append(Module(Path(file), relative, display_path(file), data))
    return found


def _read(path: Path, overlay: Mapping[Path, bytes]) -> bytes | None:
    """The file's bytes as the editor holds them, else as on disk; None when it is gone."""
    held = overlay.get(path.resolve()) if overlay else None
    if held is not None:
        return held
    try:
        return path.read_bytes()
    except OSError:
        return None


_NEEDLES: dict[int, tuple[Config, Needles]] = {}


def _candidate(data: bytes, config: Config) -> bool:
    """Does the prefilter of `check` read this file as a workflow candidate?"""
    cached = _NEEDLES.get(id(config))
    if cached is None or cached[0] is not config:
        cached = _NEEDLES[id(config)] = (config, needles_for(config))
    markers, imports = cached[1]
    return is_candidate(data, markers, imports)


def _relative(root: Path, path: Path) -> str:
    relative = os.path.relpath(path.resolve(), root)
    return "" if relative == "." else relative.replace(os.sep, "/")


def _shown(root: Path, relative: str) -> str:
    """A base module as reports show it: where it is (or would be) in the working tree."""
    return display_path(str(root / relative))


def _sibling(relative: str, name: str) -> str:
    folder = folder_of(relative)
    return f"{folder}/{name}" if folder else name


def _in_scope(path: str, scopes: list[str]) -> bool:
    return any(not scope or path == scope or path.startswith(scope + "/") for scope in scopes)


def _reaches(module: ModuleInfo | None, focus: set[str], root: Path) -> bool:
    if module is None:
        return False
    return any(_relative(root, m.path) in focus for m in reached_modules(module))


__all__ = ["Versioned", "check_against"]
