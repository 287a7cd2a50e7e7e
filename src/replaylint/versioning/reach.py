"""Which local modules a module imports, however indirectly, read with CPython's `ast` (no
walk): what tells an unchanged workflow, whose module and helpers are the same bytes on both
sides, from one that must be compared."""

from __future__ import annotations

import ast
import warnings
from collections.abc import Iterator, Set
from functools import lru_cache
from pathlib import Path

from replaylint.project.roots import Roots


def reached(start: Path, roots: Roots, known: Set[Path] = frozenset()) -> Iterator[Path]:
    """`start`, then the local modules it reaches by imports (resolved as the walk resolves
    them: the import roots, then beside the importer; relative imports in their package), each
    once, less those in `known` and what only they reach (the caller knows them already).
    Lazily: a caller that stops at the first changed module reads no further imports (a module
    that changed itself is never parsed here)."""
    if start in known:
        return
    seen = {start}
    queue = [start]
    yield start
    while queue:
        path = queue.pop()
        for found in _imports(path, roots):
            if found not in seen and found not in known:
                seen.add(found)
                queue.append(found)
                yield found


def _imports(path: Path, roots: Roots) -> list[Path]:
    try:
        source = path.read_bytes()
    except OSError:
        return []
    found: list[Path] = []
    for name, level in _imported_names(source):
        found += _resolve(name, level, path, roots)
    return found


@lru_cache(maxsize=4096)
def _imported_names(source: bytes) -> tuple[tuple[str, int], ...]:
    """The names a module's imports may load, with their levels, by its bytes: a module the
    same on both sides (or read from several workflows) is parsed once."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return ()
    found: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, 0) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            for alias in node.names:  # `from pkg import mod` may name a module
                found.append((f"{module}.{alias.name}" if module else alias.name, node.level))
            if module:
                found.append((module, node.level))
    return tuple(found)


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
