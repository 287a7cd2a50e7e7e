"""Which Python a project's code is for: `target-version` in its settings, else the lower bound
of its `requires-python`, else the interpreter replaylint runs on (ruff's order)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from replaylint.core.paths import REPOSITORY_MARKERS
from replaylint.project.settings_files import project_table

Version = tuple[int, int]
RUNNING: Version = (sys.version_info.major, sys.version_info.minor)
_SETTING = re.compile(r"py3(\d{1,2})")
_BOUND = re.compile(r"^\s*(>=|==|~=|\^|>|===)?\s*3\.(\d+)")


def parse_setting(text: str) -> Version | None:
    """`py311` -> (3, 11); None for anything else."""
    match = _SETTING.fullmatch(text.strip())
    return (3, int(match.group(1))) if match else None


def lower_bound(requires: str) -> Version | None:
    """The oldest Python a `requires-python` admits: `>=3.10` -> (3, 10), `==3.12.*` ->
    (3, 12), `~=3.11` -> (3, 11), `>3.9` -> (3, 9); None when it names no lower bound."""
    found: list[Version] = []
    for part in requires.split(","):
        match = _BOUND.match(part)
        if match and (match.group(1) or "==") in (">=", "==", "~=", "^", ">", "==="):
            found.append((3, int(match.group(2))))
    return max(found) if found else None


def target_version(setting: str, folder: Path) -> Version:
    """The version the code in `folder` is for."""
    chosen = parse_setting(setting) if setting else None
    return chosen or _required(folder.resolve()) or RUNNING


_REQUIRED: dict[Path, Version | None] = {}


def _required(folder: Path) -> Version | None:
    """The `requires-python` of the nearest pyproject.toml that has one, up to the repository
    (walked in a loop: a tree may be deeper than the recursion limit)."""
    walked: list[Path] = []
    found: Version | None = None
    current = folder
    while True:
        if current in _REQUIRED:
            found = _REQUIRED[current]
            break
        walked.append(current)
        declared = _declared(current / "pyproject.toml")
        if declared is not None:
            found = declared[0]
            break
        top = current.parent == current
        if top or any((current / m).exists() for m in REPOSITORY_MARKERS):
            break
        current = current.parent
    for place in walked:
        _REQUIRED[place] = found
    return found


def _declared(candidate: Path) -> tuple[Version | None] | None:
    """(the lower bound,) of a pyproject.toml's requires-python, None when it says none."""
    project = project_table(candidate)
    requires = project.get("requires-python") if project is not None else None
    return (lower_bound(requires),) if isinstance(requires, str) else None


def shown(version: Version) -> str:
    return f"{version[0]}.{version[1]}"
