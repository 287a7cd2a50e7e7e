"""ReplayReport: what one check returns to the API's callers, and its text and JSON forms."""

from __future__ import annotations

from dataclasses import dataclass, field

from replaylint.findings import Finding, ModuleResult
from replaylint.reporters import json, text


@dataclass(frozen=True)
class ReplayReport:
    findings: tuple[Finding, ...]
    modules: tuple[ModuleResult, ...] = ()
    files: int = 0
    errors: tuple[str, ...] = field(default=())  # bad input: one line each, naming the file

    @property
    def workflow_modules(self) -> int:
        return len(self.modules)

    @property
    def exit_code(self) -> int:
        """0 clean, 1 findings, 2 when some input could not be checked at all."""
        if self.errors:
            return 2
        return 1 if self.findings else 0

    def summary(self) -> str:
        """The text report, exactly as `replaylint check` prints it."""
        return text.render(self)

    def to_json(self) -> str:
        return json.render(self)
