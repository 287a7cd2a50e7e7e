"""What one run produced, before filtering and formatting (no heavy imports: see prefilter.py)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from replaylint.discovery import printable
from replaylint.findings import Finding, ModuleResult


@dataclass
class Outcome:
    findings: list[Finding] = field(default_factory=list)
    modules: list[ModuleResult] = field(default_factory=list)
    files: int = 0
    errors: list[str] = field(default_factory=list)
    directives: dict[str, list] = field(default_factory=dict)  # path -> suppressions.Directive


def display_path(path: str | os.PathLike[str]) -> str:
    """Paths in reports: relative to the working directory, with `/`."""
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        relative = os.fspath(path)
    return printable(relative.replace(os.sep, "/"))
