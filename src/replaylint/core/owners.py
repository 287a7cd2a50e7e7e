"""Which workflow modules each finding belongs to. A root in a helper module, or a helper that
cannot be parsed, is a result of every workflow module that reaches it: a CI report with one
test case per workflow module fails (or errs) those cases, not a case of the helper's own."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from replaylint.core.codes import Code
from replaylint.core.findings import Finding, FindingOwners, Span

FindingKey = tuple[str, Span, Code, str]


def finding_key(finding: Finding) -> FindingKey:
    """A finding's identity across the records that hold it (a helper two workflows reach)."""
    return (finding.path, finding.span, finding.code, finding.call)


@dataclass
class Owners:
    """For each finding, and for each file holding findings or ignore comments, the workflow
    modules (as reports spell them) whose check produced them."""

    by_finding: dict[FindingKey, set[str]] = field(default_factory=dict)
    by_path: dict[str, set[str]] = field(default_factory=dict)

    def add(self, module: str, findings: Iterable[Finding], paths: Iterable[str] = ()) -> None:
        """`module`'s check found `findings` and read the ignore comments of `paths`."""
        for finding in findings:
            self.by_finding.setdefault(finding_key(finding), set()).add(module)
            self.by_path.setdefault(finding.path, set()).add(module)
        for path in paths:
            self.by_path.setdefault(path, set()).add(module)

    def update(self, other: Owners) -> None:
        for key, modules in other.by_finding.items():
            self.by_finding.setdefault(key, set()).update(modules)
        for path, modules in other.by_path.items():
            self.by_path.setdefault(path, set()).update(modules)

    def of(self, finding: Finding) -> frozenset[str]:
        """The workflow modules `finding` belongs to; a finding made after the check (an
        unused ignore comment, a versioning change) belongs to those that read its file."""
        found = self.by_finding.get(finding_key(finding)) or self.by_path.get(finding.path)
        return frozenset(found or ())


def cases(
    findings: Iterable[Finding], modules: Iterable[str], owners: FindingOwners
) -> dict[str, list[Finding]]:
    """One entry per workflow module, with the findings it answers for, plus one per file
    holding a finding no workflow module answers for: a module that could not be read or
    parsed at all (ADK-E001), or whose worker died, is a workflow module nobody checked."""
    result: dict[str, list[Finding]] = {module: [] for module in modules}
    checked = frozenset(result)
    for finding in findings:
        answering = sorted(owners.of(finding) & checked)
        if not answering:
            answering = [finding.path]
        for module in answering:
            result.setdefault(module, []).append(finding)
    return result
