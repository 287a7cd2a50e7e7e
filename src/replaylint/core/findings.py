"""Frozen value types for what the guard reports: spans, chain links, findings, module results,
and the shape of a whole report as reporters read it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from replaylint.core.codes import RULES, Code


@dataclass(frozen=True, order=True)
class Span:
    """Lines are 1-based, columns 0-based (LibCST's convention); reporters convert at the edges."""

    line: int
    column: int
    end_line: int
    end_column: int


@dataclass(frozen=True)
class ChainLink:
    """One hop of an ADK-W005 reason chain: the call made at path:line."""

    path: str
    line: int
    call: str


@dataclass(frozen=True)
class FixRef:
    """What a fix of a direct finding needs (replaylint.fixes reads it): the resolved name of
    its root (`time.time`; "" for a pattern rule), the framework governing the code it is in
    (a preset's name, or "runtime" in a module marked `__adk_workflow__`), whether the function
    holding it is that framework's entry itself, and the name the entry's run-context parameter
    has there ("" outside an entry, or for a framework without one)."""

    path: str
    framework: str
    entry: bool = False
    context: str = ""


@dataclass(frozen=True)
class Finding:
    code: Code
    path: str
    span: Span
    call: str
    remedy: str
    chain: tuple[ChainLink, ...] = field(default=())
    root: Code | None = None  # ADK-W005: the code of the root its chain ends in
    # Direct findings in workflow code: what a fix needs. Not part of a finding's identity.
    fix: FixRef | None = field(default=None, compare=False)
    # A decision-aware finding: what its value reaches ("it reaches the condition on line 12").
    decision: str = field(default="", compare=False)
    # ADK-W005: the chain's whole length when `chain` keeps only its first hops and its root
    # (a report bounds its chains: report/chains.py); 0 when `chain` is whole.
    hops: int = field(default=0, compare=False)

    @property
    def line(self) -> int:
        return self.span.line

    @property
    def message(self) -> str:
        text = RULES[self.code].finding.format(call=self.call)
        return f"{text}: {self.decision}" if self.decision else text

    @property
    def hops_left_out(self) -> int:
        """How many hops of the chain `chain` leaves out, between its first hops and its root:
        0 when the chain is whole."""
        return self.hops - len(self.chain) if self.hops else 0

    def sort_key(self) -> tuple[str, int, int, str, str]:
        return (self.path, self.span.line, self.span.column, self.code.value, self.call)


@dataclass(frozen=True)
class ModuleResult:
    """One workflow module's import-edge coverage class and source identity."""

    path: str
    coverage: str
    identity: str
    unresolved_imports: int = 0  # imports of project modules that are not there


@dataclass(frozen=True)
class Fixable:
    """Which findings `--fix` would fix (`safe`), and which only with `--unsafe-fixes`."""

    safe: frozenset[Finding] = frozenset()
    unsafe: frozenset[Finding] = frozenset()


class FindingOwners(Protocol):
    """Which workflow modules a finding is of (core/owners.py keeps the record)."""

    def of(self, finding: Finding) -> frozenset[str]: ...


class Report(Protocol):
    """What a reporter formats (replaylint.report.replay_report.ReplayReport is the one the API returns)."""

    @property
    def findings(self) -> tuple[Finding, ...]: ...

    @property
    def modules(self) -> tuple[ModuleResult, ...]: ...

    @property
    def files(self) -> int: ...

    @property
    def errors(self) -> tuple[str, ...]: ...

    @property
    def workflow_modules(self) -> int: ...

    @property
    def owners(self) -> FindingOwners: ...

    @property
    def exit_code(self) -> int: ...

    @property
    def fixable(self) -> Fixable: ...
