"""ReplayReport: what one check returns to the API's callers, and its forms (reporters/)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from replaylint import reporters
from replaylint.core.findings import Finding, Fixable, ModuleResult
from replaylint.core.owners import Owners, cases

if TYPE_CHECKING:
    from replaylint.index.cache import Cache


@dataclass(frozen=True)
class ReplayReport:
    findings: tuple[Finding, ...]
    modules: tuple[ModuleResult, ...] = ()
    files: int = 0
    errors: tuple[str, ...] = field(default=())  # bad input: one line each, naming the file
    owners: Owners = field(default_factory=Owners, compare=False)
    # Where the [*] marks of unchanged files are remembered (the run's cache, when it has one).
    cache: Cache | None = field(default=None, compare=False, repr=False)
    # The processes the [*] marks may use when files' fixes must be worked out.
    jobs: int = field(default=1, compare=False, repr=False)
    # The [*] marks the workers worked out as they checked (core/marks.py entries, by path).
    marks: Mapping[str, list[Any]] = field(default_factory=dict, compare=False, repr=False)

    @property
    def workflow_modules(self) -> int:
        """The modules checked, and those that could not be (ADK-E001 on a module itself, not
        on a helper some workflow reaches): JUnit's test cases are these."""
        return len(cases(self.findings, (m.path for m in self.modules), self.owners))

    @cached_property
    def fixable(self) -> Fixable:
        """The findings a fix of rules/fixes.toml applies to, as `--fix` would find them in the
        files now (worked out when first asked: the text formats mark them)."""
        if not any(finding.fix is not None for finding in self.findings):
            return Fixable()  # LibCST is not even imported
        from replaylint.report.fix_marks import fixable_marks

        return fixable_marks(self.findings, self.cache, self.jobs, self.marks)

    @property
    def exit_code(self) -> int:
        """0 clean, 1 findings, 2 when some input could not be checked at all."""
        if self.errors:
            return 2
        return 1 if self.findings else 0

    def summary(self) -> str:
        """The text report, exactly as `replaylint check` prints it."""
        return reporters.render("text", self)

    def to_json(self) -> str:
        """The `replaylint/findings@2` object (reporters/findings-2.schema.json)."""
        return reporters.render("json", self)

    def render(self, output_format: str, *, color: bool = False) -> str:
        """The report in any `--output-format` (a key of reporters.REPORTERS)."""
        return reporters.render(output_format, self, color=color)
