"""Expands command-line paths into the Python files to check; never parses anything."""

from __future__ import annotations

import fnmatch
import os
from typing import Iterable

# Directories never worth walking into: VCS data, caches, build output, dependencies.
DEFAULT_EXCLUDES = frozenset(
    {".git", ".hg", ".svn", ".tox", ".nox", ".venv", "venv", ".mypy_cache", ".pytest_cache",
     ".ruff_cache", "__pycache__", "build", "dist", "node_modules", "site-packages", ".eggs"}
)


def python_files(
    paths: Iterable[str], exclude: tuple[str, ...] = (), default_excludes: bool = True
) -> tuple[list[str], list[str]]:
    """(files to check, errors for paths that do not exist), in a stable sorted order.

    A file named explicitly is always checked; exclusions apply to what a directory walk finds.
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
            _walk(raw, raw, names, patterns, found)
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


def _walk(root: str, directory: str, names: frozenset[str], patterns: tuple[str, ...], out: list[str]) -> None:
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
            if entry.is_dir(follow_symlinks=False):
                if os.path.exists(os.path.join(entry.path, "pyvenv.cfg")):
                    continue  # a virtual environment
                _walk(root, entry.path, names, patterns, out)
            elif name.endswith(".py") and entry.is_file():
                out.append(entry.path)


def _matches(root: str, path: str, name: str, patterns: tuple[str, ...]) -> bool:
    relative = os.path.relpath(path, root).replace(os.sep, "/")
    return any(fnmatch.fnmatch(name, p) or fnmatch.fnmatch(relative, p) for p in patterns)
