"""What one run produced, before filtering and formatting (no heavy imports: see prefilter.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

from replaylint.core.findings import Finding, ModuleResult
from replaylint.core.owners import Owners


@dataclass
class Outcome:
    findings: list[Finding] = field(default_factory=list)
    modules: list[ModuleResult] = field(default_factory=list)
    files: int = 0
    errors: list[str] = field(default_factory=list)
    directives: dict[str, list] = field(default_factory=dict)  # path -> suppressions.Directive
    owners: Owners = field(default_factory=Owners)  # the workflow modules each finding is of
    marks: dict[str, list] = field(default_factory=dict)  # path -> core.marks entries handed
    afresh: int = 0  # modules checked by this run, rather than taken from the index
