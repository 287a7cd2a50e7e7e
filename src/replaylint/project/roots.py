"""Where an import finds its module, as Python 3 would: the import roots of a file, the file an
absolute or relative import names, and the dotted name a file is imported by.

A local folder never stands in for the standard library or for a preset framework's package:
a `temporalio/` folder in Temporal's own repository (or in an app) leaves `temporalio.workflow`
the framework's, so its APIs keep their meaning and its source is not walked as helpers.
"""

from __future__ import annotations

import os
import sys
from functools import lru_cache
from pathlib import Path

from replaylint.core.paths import PROJECT_FILES, REPOSITORY_MARKERS, project_folder
from replaylint.presets.shipped import preset_packages

STDLIB = frozenset(getattr(sys, "stdlib_module_names", ())) | {"__future__"}


@lru_cache(maxsize=1)
def framework_tops() -> frozenset[str]:
    """A preset framework's own package is never the project's, even inside its own repository.
    Top-level names: `azure.durable_functions` lives in the `azure` namespace of Microsoft's SDKs.
    Read when first asked (the records are not read by a warm run that parses nothing)."""
    return frozenset(p.split(".")[0] for ps in preset_packages().values() for p in ps)


@lru_cache(maxsize=1)
def _never_local() -> frozenset[str]:
    return STDLIB | framework_tops() | {"replaylint"}


_UNMARKED_DEPTH = 8  # folders searched above a file that belongs to no project at all


def project_root(folder: Path) -> Path:
    """The outermost project folder holding `folder`: its repository root when it has one."""
    return find_project(folder) or folder


def find_project(folder: Path) -> Path | None:
    """The repository root holding `folder`, else the outermost folder with a pyproject.toml,
    setup.py or setup.cfg above it; None when `folder` belongs to no project at all."""
    found = project_folder(os.fspath(folder))
    return Path(found) if found is not None else None


def never_local(dotted: str) -> bool:
    return dotted.split(".")[0] in _never_local()


class Roots:
    """The import roots of the files of one run. `src` (absolute folders, from the `src`
    setting) replaces the default roots: every project folder from the file up to the repository
    root (one with a pyproject.toml, setup.py or setup.cfg, and the repository root itself),
    each with its `src/`. The importing file's own folder is always the last resort, as for a
    script run beside its modules (`from workflows import X` next to `worker.py`)."""

    def __init__(self, src: tuple[Path, ...] = ()) -> None:
        self._src = src
        self._by_folder: dict[Path, tuple[list[Path], bool]] = {}
        self._search: dict[Path, list[Path]] = {}
        self._found: dict[tuple[Path, str], Path | None] = {}
        self._listed: dict[Path, frozenset[str] | None] = {}

    def for_folder(self, folder: Path) -> list[Path]:
        """Where an absolute import from a file in `folder` looks, in order: the project roots,
        the file's own folder, then each folder above it up to the outermost project root (an
        app run from a folder with no project file of its own, `python -m app.main`)."""
        cached = self._search.get(folder)
        if cached is None:
            roots = self._project_roots(folder)[0]
            outermost = roots[-1] if roots else folder
            above = [p for p in folder.parents if p == outermost or outermost in p.parents]
            cached = list(dict.fromkeys([*roots, folder, *above]))
            self._search[folder] = cached
        return cached

    def _project_roots(self, folder: Path) -> tuple[list[Path], bool]:
        """(roots nearest first, whether they come from a project rather than a guess)."""
        cached = self._by_folder.get(folder)
        if cached is not None:
            return cached
        if self._src:
            found: tuple[list[Path], bool] = (list(self._src), True)
        else:
            roots: list[Path] = []
            current = folder
            repository = False
            while True:
                repository = any((current / m).exists() for m in REPOSITORY_MARKERS)
                if repository or any((current / m).is_file() for m in PROJECT_FILES):
                    roots.append(current)
                    if (current / "src").is_dir():
                        roots.append(current / "src")
                if repository or current.parent == current:
                    break
                current = current.parent
            if roots:
                found = (roots, True)
            else:  # no project anywhere above: the folders above stand in
                found = (_stand_ins(folder), False)
        self._by_folder[folder] = found
        return found

    def module_name(self, path: Path) -> str:
        """The dotted name `path` is imported by: relative to the deepest project root holding
        it (namespace packages included); for a file of no project, its `__init__.py` chain."""
        roots, real = self._project_roots(path.parent)
        if real:
            holding = [r for r in roots if r == path.parent or r in path.parents]
            if holding:
                root = max(holding, key=lambda r: len(r.parts))
                parts = [*path.relative_to(root).parent.parts, path.stem]
                if parts[-1] == "__init__":
                    parts.pop()
                if parts and all(p.isidentifier() for p in parts):
                    return ".".join(parts)
        parts = [path.stem] if path.stem != "__init__" else []
        directory = path.parent
        while (directory / "__init__.py").exists() and directory.parent != directory:
            parts.append(directory.name)
            directory = directory.parent
        return ".".join(reversed(parts)) or path.stem

    def find(self, base: Path, parts: list[str]) -> Path | None:
        """The module file `parts` names under `base`: `a/b.py` or the package `a/b/__init__.py`
        (the folders on the way may be namespace packages, without an `__init__.py`)."""
        key = (base, ".".join(parts))
        if key in self._found:
            return self._found[key]
        found = None
        if parts and not self._may_hold(base, parts[0]):
            self._found[key] = None  # most imports name no local module: no stat for them
            return None
        stem = base.joinpath(*parts) if parts else base
        for candidate in (
            stem.with_name(stem.name + ".py") if parts else None,
            stem / "__init__.py",
        ):
            if candidate is not None and _is_file(candidate):
                found = candidate
                break
        self._found[key] = found
        return found

    def _may_hold(self, base: Path, first: str) -> bool:
        """Does `base` list `first` or `first.py`, as the import system's own directory caches
        tell (None: the folder cannot be listed, so ask stat as before)."""
        if base not in self._listed:
            try:
                self._listed[base] = frozenset(os.listdir(base))
            except OSError:
                self._listed[base] = None
        names = self._listed[base]
        return names is None or first in names or f"{first}.py" in names


def _stand_ins(folder: Path) -> list[Path]:
    """The import roots of a file of no project (no repository, no pyproject.toml: an exported
    tree, an Azure Functions app): every folder above it up to the working directory, where
    such an app is run from, however deep; or, outside it, the nearest few."""
    above = [folder, *folder.parents]
    here = Path.cwd()
    depth = above.index(here) + 1 if here in above else 0
    return above[: max(depth, _UNMARKED_DEPTH)]


def _is_file(path: Path) -> bool:
    """Path.is_file, except that a folder on the way that may not be searched (EACCES) counts
    as holding the module: reading it then fails, and that module is ADK-E001 "cannot read"
    rather than the importing file an internal error."""
    try:
        return path.is_file()
    except PermissionError:
        return True
