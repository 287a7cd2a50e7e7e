"""Expands command-line paths into the Python files to check; never parses anything."""

from __future__ import annotations

import fnmatch
import os
from typing import Iterable

from replaylint.gitignore import IgnoreStack, stack_for

# Directories never worth walking into: VCS data, caches, build output, dependencies.
DEFAULT_EXCLUDES = frozenset(
    {".git", ".hg", ".svn", ".tox", ".nox", ".venv", "venv", ".mypy_cache", ".pytest_cache",
     ".ruff_cache", "__pycache__", "build", "dist", "node_modules", "site-packages", ".eggs"}
)


def python_files(
    paths: Iterable[str],
    exclude: tuple[str, ...] = (),
    default_excludes: bool = True,
    respect_gitignore: bool = True,
    base: str | None = None,
) -> tuple[list[str], list[str]]:
    """(files to check, errors for paths that do not exist), in a stable sorted order.

    A file named explicitly is always checked; exclusions (globs relative to `base`, the
    configuration's folder, or to the walked folder) and .gitignore apply to what a walk finds.
    Plain strings and os.scandir keep this cheap: on a tree of thousands of ordinary files the
    walk and the byte scan are the whole cost of a run.
    """
    paths = list(paths)
    names = DEFAULT_EXCLUDES if default_excludes else frozenset()
    patterns = tuple(exclude)
    files: list[str] = []
    errors: list[str] = []
    for raw in paths:
        if os.path.isfile(raw):
            files.append(raw)
        elif os.path.isdir(raw):
            found: list[str] = []
            ignores = stack_for(raw) if respect_gitignore else None
            _walk(base or raw, raw, names, patterns, found, ignores)
            found.sort()
            files.extend(found)
        else:
            errors.append(f"{raw}: no such file or directory")
    if len(paths) <= 1:
        return files, errors
    seen: set[str] = set()
    unique = []
    for file in files:
        key = os.path.realpath(file)
        if key not in seen:
            seen.add(key)
            unique.append(file)
    return unique, errors


def _walk(
    root: str,
    directory: str,
    names: frozenset[str],
    patterns: tuple[str, ...],
    out: list[str],
    ignores: IgnoreStack | None,
) -> None:
    try:
        entries = os.scandir(directory)
    except OSError:
        return
    with entries:
        for entry in entries:
            name = entry.name
            if name in names:
                continue
            if patterns and _matches(root, entry.path, name, patterns):
                continue
            is_dir = entry.is_dir(follow_symlinks=False)
            if ignores is not None and ignores.layers and ignores.ignored(entry.path, is_dir):
                continue
            if is_dir:
                if os.path.exists(os.path.join(entry.path, "pyvenv.cfg")):
                    continue  # a virtual environment
                inner = ignores.entering(entry.path) if ignores is not None else None
                _walk(root, entry.path, names, patterns, out, inner)
            elif name.endswith(".py") and entry.is_file():
                out.append(entry.path)


def _matches(root: str, path: str, name: str, patterns: tuple[str, ...]) -> bool:
    relative = os.path.relpath(path, root).replace(os.sep, "/")
    return any(
        fnmatch.fnmatch(name, p) or fnmatch.fnmatch(relative, p) or fnmatch.fnmatch(relative, p.rstrip("/") + "/*")
        for p in patterns
    )
