"""The names a file's projects are published under: the `[project] name` of each pyproject.toml
from the file's folder up to its repository root, normalized as package indexes compare them
(lower case, runs of `-`, `_` and `.` as one `-`). A model SDK's own repository is known by
them (rules/catalog.toml [repositories])."""

from __future__ import annotations

import re
from pathlib import Path

from replaylint.core.paths import REPOSITORY_MARKERS
from replaylint.project.settings_files import project_table

_SEPARATORS = re.compile(r"[-_.]+")
_BY_FOLDER: dict[Path, frozenset[str]] = {}


def published_names(folder: Path) -> frozenset[str]:
    """Each folder's answer is its own pyproject.toml's name with its parent's answer, up to a
    repository root: every file is read once per run, however many folders ask."""
    found = _BY_FOLDER.get(folder)
    if found is None:
        own = _declared_name(folder / "pyproject.toml")
        names = {own} if own else set()
        top = folder.parent == folder or any((folder / m).exists() for m in REPOSITORY_MARKERS)
        if not top:
            names |= published_names(folder.parent)
        found = _BY_FOLDER[folder] = frozenset(names)
    return found


def _declared_name(candidate: Path) -> str:
    project = project_table(candidate)
    name = project.get("name") if project is not None else None
    return _SEPARATORS.sub("-", name).lower() if isinstance(name, str) else ""
