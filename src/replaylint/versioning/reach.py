"""Which local modules a module imports, however indirectly, read with CPython's `ast` (no
walk): what tells an unchanged workflow, whose module and helpers are the same bytes on both
sides, from one that must be compared."""

from __future__ import annotations

import ast
import warnings
from collections.abc import Iterator
from pathlib import Path

from replaylint.project.roots import Roots


def reached(start: Path, roots: Roots) -> Iterator[Path]:
    """`start`, then the local modules it reaches by imports (resolved as the walk resolves
    them: the import roots, then beside the importer; relative imports in their package), each
    once. Lazily: a caller that stops at the first changed module reads no further imports
    (a module that changed itself is never parsed here)."""
    seen = {start}
    queue = [start]
    yield start
    while queue:
        path = queue.pop()
        for found in _imports(path, roots):
            if found not in seen:
                seen.add(found)
                queue.append(found)
                yield found


def _imports(path: Path, roots: Roots) -> list[Path]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(path.read_bytes())
    except (OSError, SyntaxError, ValueError):
        return []
    found: list[Path] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found += _resolve(alias.name, 0, path, roots)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            for alias in node.names:  # `from pkg import mod` may name a module
                found += _resolve(
                    f"{module}.{alias.name}" if module else alias.name, node.level, path, roots
                )
            if module:
                found += _resolve(module, node.level, path, roots)
    return found


def _resolve(name: str, level: int, importer: Path, roots: Roots) -> list[Path]:
    parts = [p for p in name.split(".") if p]
    if not parts:
        return []
    if level:
        bases = [importer.parent.parents[level - 2] if level > 1 else importer.parent]
    else:
        bases = [*roots.for_folder(importer.parent), importer.parent]
    for base in bases:
        found = roots.find(base, parts)
        if found is not None:
            return [found.resolve()]
    return []
