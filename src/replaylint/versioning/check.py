"""`check --base REF`: the workflows of REF and of the working tree read, paired and compared;
what an old run would trip on, as findings (ADK-V001..V004). Begun before the check of the
working tree, the base is read in a process of its own while the check runs."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

from replaylint.core.findings import Finding
from replaylint.core.outcome import Outcome
from replaylint.core.paths import application_folder
from replaylint.index.pools import default_jobs, pool_context
from replaylint.project.config import Resolver
from replaylint.resolve.model import ModuleInfo
from replaylint.versioning.files import (
    Changes,
    base_modules,
    reaches_any,
    relative_to,
    working_tree,
)
from replaylint.versioning.findings import Comparisons
from replaylint.versioning.git import GitError, Repository, copy_of, wanted
from replaylint.versioning.model import Workflow
from replaylint.versioning.models import Models
from replaylint.versioning.pairing import Pairs, pair
from replaylint.versioning.places import Places
from replaylint.versioning.side import Module, read_side

_BaseRead = tuple[list[Workflow], set[str], list[str]]


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
    beside: bool = True,
) -> Versioned:
    """Compare every workflow of the working tree (under `paths`, default: the current folder)
    with its version at `base` (anything `git rev-parse` accepts). Files named one by one bring
    in the workflows that reach them, as `check` does. Nothing is checked out. `overlay`: real
    path -> the bytes an editor holds for that file, read in place of the file on disk;
    `beside`: the base may be read in a forked process (not from a process with threads)."""
    with Comparison(base, paths, resolver, overlay, beside) as comparison:
        return comparison.finish()


class Comparison:
    """A comparison in two steps: begun (the git trees read, the changed workflow modules of
    both sides found, the base's being read in a second process where there are cores for
    it), then finished (the working tree's read here, both paired and compared). Used as a
    context, which removes the base's copy and stops its process."""

    def __init__(
        self,
        base: str,
        paths: Sequence[str] = (),
        resolver: Resolver | None = None,
        overlay: Mapping[Path, bytes] | None = None,
        beside: bool = True,
    ) -> None:
        self.resolver = resolver = resolver or Resolver()
        self.outcome = Versioned()
        self._stack = ExitStack()
        self._later: Future[_BaseRead] | None = None
        paths = list(paths) or ["."]
        folder = Path(paths[0]) if os.path.isdir(paths[0]) else Path(paths[0]).parent
        self.repository: Repository | None = None
        try:
            repository = Repository((folder if str(folder) else Path(".")).resolve())
            tree = repository.tree(repository.commit(base))
        except GitError as error:
            self.outcome.errors.append(str(error))
            return
        self.repository, root = repository, repository.root
        self.focus: set[str] | None = None
        if all(os.path.isfile(p) for p in paths):
            self.focus = {relative_to(root, Path(p)) for p in paths}
            paths = [str(root)]
        self.models = Models(resolver)
        errors = self.outcome.errors
        self.current = working_tree(paths, resolver, root, self.models, errors, overlay or {})
        self.changes = Changes(root, tree, overlay)
        copy = Path(self._stack.enter_context(tempfile.TemporaryDirectory())) / root.name
        kept = {path: blob for path, blob in tree.items() if wanted(path)}
        contents = repository.blobs(kept.values())
        for path, blob in kept.items():  # what the base fixes of each framework's version
            self.models.scan(contents[blob], str(root / path), base=True)
        copy_of(kept, contents, copy)
        self.earlier = resolver.fresh()
        scopes = [relative_to(root, Path(p)) for p in paths]
        old = base_modules(kept, contents, copy, root, scopes, self.earlier)
        # Only a workflow whose module or helpers changed can differ: the others are not read.
        self.old_modules = [m for m in old if self.changes.touch(m, copy, self.earlier)]
        self.dirty = [m for m in self.current if self.changes.touch(m, root, resolver)]
        worth = len(self.old_modules) + len(self.dirty) >= _WORTH_A_PROCESS
        if beside and worth and default_jobs() > 1:
            pool = ProcessPoolExecutor(max_workers=1, mp_context=pool_context())
            self._stack.callback(pool.shutdown, cancel_futures=True)
            self._later = pool.submit(_read_base, self.old_modules, self.earlier)

    def __enter__(self) -> Comparison:
        return self

    def __exit__(self, *exc: object) -> None:
        self._stack.close()

    def finish(self) -> Versioned:
        """The working tree's workflows read, paired with the base's and compared."""
        outcome, resolver = self.outcome, self.resolver
        if self.repository is None:
            return outcome
        places = Places()  # the working tree's; the base's positions are never reported
        new, walked = read_side(self.dirty, resolver.for_file, outcome.errors, places)
        later = self._later
        old, read, errors = later.result() if later else _read_base(self.old_modules, self.earlier)
        outcome.errors += errors
        old_modules, dirty, changes = self.old_modules, list(self.dirty), self.changes
        new = changes.hosted(new)
        application = _applications(self.repository.root)
        pairs = pair(*_readable(old_modules, old, read, dirty, new, walked), application)
        clean = [m for m in self.current if m not in dirty]
        if (pairs.removed or pairs.renamed) and clean:
            # A name that seems gone may live on in an unchanged module: read those too.
            more, also = read_side(clean, resolver.for_file, outcome.errors, places)
            walked.update(also)
            dirty += clean
            new += changes.hosted(more)
            pairs = pair(*_readable(old_modules, old, read, dirty, new, walked), application)
        root = self.repository.root
        if self.focus is not None:
            pairs = _focused(pairs, self.focus, walked, root)
        outcome.compared = len(pairs.same) + len(pairs.renamed)
        outcome.findings = Comparisons(self.models, places, root).findings(pairs)
        return outcome


def _applications(root: Path) -> Callable[[Workflow], str]:
    """A workflow's application: the nearest folder above its module, in the working tree,
    that holds a project file (one of a repository of several apps, each with its own)."""
    found: dict[str, str] = {}

    def application(workflow: Workflow) -> str:
        folder = os.path.dirname(os.path.join(root, workflow.module))
        if folder not in found:
            found[folder] = application_folder(folder) or ""
        return found[folder]

    return application


def _focused(pairs: Pairs, focus: set[str], walked: dict[str, ModuleInfo], root: Path) -> Pairs:
    """The workflows that reach a file named, and those removed from one."""

    def named(workflow: Workflow) -> bool:
        return reaches_any(walked.get(workflow.module), focus, root)

    return Pairs(
        [p for p in pairs.same if named(p[1])],
        [p for p in pairs.renamed if named(p[1])],
        [w for w in pairs.removed if w.module in focus],
    )


def add_comparison(outcome: Outcome, comparison: Comparison) -> None:
    """`check --base`: a begun comparison's findings and errors added to a check's outcome,
    before the selection (select, ignore, per-file ignores) is applied to them all."""
    versioned = comparison.finish()
    outcome.findings += versioned.findings
    outcome.errors += versioned.errors


def _read_base(modules: list[Module], resolver: Resolver) -> _BaseRead:
    """The base's workflows, the modules read and the problems met (a pool's task: nothing
    returned refers to a syntax tree)."""
    errors: list[str] = []
    workflows, read = read_side(modules, resolver.for_file, errors, Places())
    return workflows, set(read), errors


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


__all__ = ["Comparison", "Versioned", "add_comparison", "check_against"]
