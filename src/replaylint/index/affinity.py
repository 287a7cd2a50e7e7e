"""Batches that keep together the candidates that read the same local modules.

Each batch is checked on a Project of its own, which parses every local module its candidates
import: a helper imported by candidates of two batches is parsed twice. So before the batches
are cut, each candidate's local imports are found cheaply (the import lines of its bytes and of
the local modules they name, resolved as the engine resolves them, nothing parsed), candidates
that reach a common module are put in one group, and the groups are packed into batches in path
order. Only a group larger than a batch is cut, and only what its parts share is parsed again.

The grouping decides where a module is checked, never what its record says (a record does not
depend on its batch), and it depends on the files alone, so `--jobs` never changes the output.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from replaylint.project.config import Config
from replaylint.project.roots import Roots, never_local

Candidate = tuple[str, str, bytes]
BATCH = 48  # candidates per batch at most
# Bytes of candidates' source per batch at most: a batch keeps every tree it reads until it ends,
# some 45 bytes per byte of source (bench/parse_memory.py); a module larger is a batch alone.
BUDGET = 256 * 1024

# `import a.b, c as d` and `from ..a.b import (x, y)`: the module, and the names that may be
# submodules. A line inside a string may match too: at worst two groups become one.
_IMPORT = re.compile(
    rb"^[ \t]*(?:from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\r\n#;]*)"
    rb"|import[ \t]+([^\r\n#;]+))",
    re.MULTILINE,
)
_NAME = re.compile(rb"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")


def batches(candidates: list[Candidate], config: Config) -> list[list[Candidate]]:
    """`candidates` (in path order) cut into batches of at most BATCH candidates and BUDGET
    bytes, each group of candidates that reach a common local module in as few batches as it
    fits in."""
    if len(candidates) <= BATCH and sum(len(c[2]) for c in candidates) <= BUDGET:
        return [candidates] if candidates else []
    return _packed(groups(candidates, config))


def parts(candidates: list[Candidate], config: Config) -> list[list[Candidate]]:
    """`candidates` (in path order) in groups that reach a common local module, each cut only
    where it is larger than a batch: not packed together, so that a change to one file makes
    only its own group's part stale (the registrars' parts, index/registrars.py)."""
    return [piece for group in groups(candidates, config) for piece in _packed([group])]


def groups(candidates: list[Candidate], config: Config) -> list[list[Candidate]]:
    """`candidates` (in path order) in groups of those that reach a common local module, by
    their first candidate's place."""
    if not candidates:
        return []
    reach = _Reach(Roots(tuple(Path(config.base, root).resolve() for root in config.src)))
    index = {os.path.realpath(path): i for i, (path, _, _) in enumerate(candidates)}
    parent = list(range(len(candidates)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[str, int] = {}
    for i, (path, _, data) in enumerate(candidates):
        for module in reach.closure(os.path.realpath(path), data):
            first = owner.setdefault(module, index.get(module, i))
            a, b = find(i), find(first)
            if a != b:
                parent[max(a, b)] = min(a, b)
    found: dict[int, list[Candidate]] = {}
    for i, candidate in enumerate(candidates):
        found.setdefault(find(i), []).append(candidate)
    return [found[key] for key in sorted(found)]


def _packed(groups: list[list[Candidate]]) -> list[list[Candidate]]:
    """Groups in order, filling each batch up to its limits; a group is cut only when it is
    larger than a batch (in path order)."""
    packed: list[list[Candidate]] = []
    current: list[Candidate] = []
    for group in groups:
        if current and not fits(current, group):
            packed.append(current)
            current = []
        if fits(current, group):
            current.extend(group)
            continue
        for candidate in group:  # larger than a batch: cut in path order
            if current and not fits(current, [candidate]):
                packed.append(current)
                current = []
            current.append(candidate)
    if current:
        packed.append(current)
    return packed


def fits(batch: list[Candidate], more: list[Candidate]) -> bool:
    """Would `more` join `batch` within a batch's limits (or be a batch alone)?"""
    size = sum(len(c[2]) for c in batch) + sum(len(c[2]) for c in more)
    alone = not batch and len(more) == 1  # a module larger than the budget is a batch alone
    return len(batch) + len(more) <= BATCH and (size <= BUDGET or alone)


class _Reach:
    """The local modules a file reaches through its imports, read once each."""

    def __init__(self, roots: Roots) -> None:
        self.roots = roots
        self._imports: dict[str, list[str]] = {}
        # Candidates of one folder import the same modules: each name is looked for once.
        self._found: dict[tuple[Path, int, str], str | None] = {}

    def closure(self, path: str, data: bytes) -> set[str]:
        seen: set[str] = {path}
        stack = [path]
        while stack:
            current = stack.pop()
            for module in self._imported(current, data if current == path else None):
                if module not in seen:
                    seen.add(module)
                    stack.append(module)
        return seen

    def _imported(self, path: str, data: bytes | None) -> list[str]:
        found = self._imports.get(path)
        if found is None:
            if data is None:
                try:
                    with open(path, "rb") as handle:
                        data = handle.read()
                except OSError:
                    data = b""
            found = self._imports[path] = self._resolved(Path(path).parent, data)
        return found

    def _resolved(self, folder: Path, data: bytes) -> list[str]:
        modules: list[str] = []
        for dots, source, names, plain in _IMPORT.findall(data):
            if plain:
                wanted = [(0, n.decode()) for n in _NAME.findall(plain)]
            else:
                level, base = len(dots), source.decode()
                wanted = [(level, base)] if base or level else []
                wanted += [(level, f"{base}.{n.decode()}".strip(".")) for n in _NAME.findall(names)]
            for level, dotted in wanted:
                found = self._find(folder, level, dotted)
                if found is not None:
                    modules.append(found)
        return modules

    def _find(self, folder: Path, level: int, dotted: str) -> str | None:
        key = (folder, level, dotted)
        if key not in self._found:
            self._found[key] = self._look_for(folder, level, dotted)
        return self._found[key]

    def _look_for(self, folder: Path, level: int, dotted: str) -> str | None:
        parts = [p for p in dotted.split(".") if p]
        if level == 0:
            if not parts or never_local(dotted):
                return None
            bases = self.roots.for_folder(folder)
        else:
            base = folder
            for _ in range(level - 1):
                base = base.parent
            bases = [base]
        for base in bases:
            found = self.roots.find(base, parts)
            if found is not None:
                return os.path.realpath(found)
        return None
