"""Expands command-line paths into the Python files to check; never parses anything."""

from __future__ import annotations

import fnmatch
import os
from pathlib import Path
from typing import Iterable, Iterator

# Directories never worth walking into: VCS data, caches, build output, dependencies.
DEFAULT_EXCLUDES = (
    ".git", ".hg", ".svn", ".tox", ".nox", ".venv", "venv", ".mypy_cache", ".pytest_cache",
    ".ruff_cache", "__pycache__", "build", "dist", "node_modules", "site-packages", ".eggs",
)


def _excluded(name: str, relative: str, patterns: tuple[str, ...]) -> bool:
    return any(fnmatch.fnmatch(name, p) or fnmatch.fnmatch(relative, p) for p in patterns)


def python_files(
    paths: Iterable[str], exclude: tuple[str, ...] = (), default_excludes: bool = True
) -> tuple[list[Path], list[str]]:
    """(files to check, errors for paths that do not exist), in a stable sorted order.

    A file named explicitly is always checked; exclusion applies to what a directory walk finds.
    """
    patterns = (DEFAULT_EXCLUDES if default_excludes else ()) + tuple(exclude)
    files: list[Path] = []
    errors: list[str] = []
    for raw in paths:
        path = Path(raw)
        if path.is_file():
            files.append(path)
        elif path.is_dir():
            files.extend(sorted(_walk(path, patterns)))
        else:
            errors.append(f"{raw}: no such file or directory")
    seen: set[Path] = set()
    unique = []
    for file in files:
        key = file.resolve()
        if key not in seen:
            seen.add(key)
            unique.append(file)
    return unique, errors


def _walk(root: Path, patterns: tuple[str, ...]) -> Iterator[Path]:
    stack = [root]
    while stack:
        directory = stack.pop()
        try:
            entries = list(os.scandir(directory))
        except OSError:
            continue
        for entry in entries:
            relative = os.path.relpath(entry.path, root).replace(os.sep, "/")
            if _excluded(entry.name, relative, patterns):
                continue
            if entry.is_dir(follow_symlinks=False):
                if os.path.exists(os.path.join(entry.path, "pyvenv.cfg")):
                    continue  # a virtual environment
                stack.append(Path(entry.path))
            elif entry.name.endswith(".py") and entry.is_file():
                yield Path(entry.path)
