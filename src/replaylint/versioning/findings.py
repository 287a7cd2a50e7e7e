"""Paired workflows judged: the differences an old run meets (ADK-V001, ADK-V003) where the
model is patching, renamed or removed workflows (ADK-V002) and handlers (ADK-V004) in any
model, each with its framework's remedy."""

from __future__ import annotations

from pathlib import Path

from replaylint.core.codes import RULES, Code
from replaylint.core.findings import Finding, Span
from replaylint.core.paths import display_path
from replaylint.presets.records import presets
from replaylint.versioning.matching import differences
from replaylint.versioning.model import Where, Workflow
from replaylint.versioning.models import PATCHING, Models
from replaylint.versioning.pairing import Pairs, handler_changes
from replaylint.versioning.places import Places

_CODES = {"V001": Code.V001, "V003": Code.V003}


class Comparisons:
    def __init__(self, models: Models, places: Places, root: Path) -> None:
        self.models = models
        self.places = places  # the working tree's: what turns a placeholder into a position
        self.root = root

    def findings(self, pairs: Pairs) -> list[Finding]:
        """One finding per place and code for the commands (a helper's command that changed for
        several workflows is one change); one per workflow or handler named for V002 and V004,
        which may share a module's first line."""
        found: dict[tuple[str, int, Code, str], Finding] = {}
        for finding in self._all(pairs):
            named = finding.message if finding.code in (Code.V002, Code.V004) else ""
            found.setdefault((finding.path, finding.line, finding.code, named), finding)
        return sorted(found.values(), key=Finding.sort_key)

    def _all(self, pairs: Pairs) -> list[Finding]:
        findings: list[Finding] = []
        same = list(pairs.same)
        for old, new in pairs.renamed:
            if not new.named or not self._name_in_code(new.framework):
                # Runs find it by another name (the binding's), or by its place in its caller.
                same.append((old, new))
                continue
            detail = f"was: {old.name}, now: {new.name}"
            findings.append(self._finding(Code.V002, new.framework, new.where, detail))
            # A handler gone from a workflow of the base is reported, renamed workflow or not:
            # a client moved to the new name still sends the handler's old name.
            findings += self._handlers(old, new)
        for old, new in same:
            # Runs in flight keep the behaviour the old code declared for them, if it did.
            model = old.model or self.models.model(new.framework, new.where.path)
            if model == PATCHING:
                findings += self._replayed(old, new)
            findings += self._handlers(old, new)
        for old in pairs.removed:
            if not old.named:
                continue  # no run in flight looks it up by its name
            module = self._module_line(old)
            detail = f"{old.name} removed, and no workflow of that name is left"
            findings.append(self._finding(Code.V002, old.framework, module, detail))
        return findings

    def _replayed(self, old: Workflow, new: Workflow) -> list[Finding]:
        """V001/V003 for each replayed unit (the run, each handler) both versions have."""
        findings = []
        units = {u.member: u for u in old.units}
        for unit in new.units:
            before = units.get(unit.member)
            if before is None:
                continue
            label = f"{new.name}.{unit.member.split()[-1]}" if unit.member else new.name
            facts = self.models.facts[new.framework]
            for difference in differences(before.skeleton, unit.skeleton, unit.where, facts):
                code = _CODES[difference.code]
                detail = f"{label}: {difference.detail}"
                where = self.places.where(difference.where, difference.at_statement)
                findings.append(self._finding(code, new.framework, where, detail))
        return findings

    def _name_in_code(self, framework: str) -> bool:
        facts = self.models.facts.get(framework)
        return facts is None or facts.name_in_code

    def _handlers(self, old: Workflow, new: Workflow) -> list[Finding]:
        findings = []
        for change in handler_changes(old, new):
            kind = change.old.kind
            if change.new is not None:
                detail = f"{new.name}: {kind} was: {change.old.name}, now: {change.new.name}"
                findings.append(self._finding(Code.V004, new.framework, change.new.where, detail))
            else:
                where = Where(new.where.path, 1)
                detail = f"{new.name}: {kind} {change.old.name} removed"
                findings.append(self._finding(Code.V004, new.framework, where, detail))
        return findings

    def _module_line(self, workflow: Workflow) -> Where:
        """The first line of the module a workflow was removed from (as it is shown now)."""
        return Where(display_path(str(self.root / workflow.module)), 1)

    def _finding(self, code: Code, framework: str, where: Where, detail: str) -> Finding:
        where = self.places.where(where)
        preset = presets().get(framework)
        remedy = (preset.remedy(code.value) if preset is not None else None) or RULES[code].remedy
        end_line = where.end_line or where.line
        end_column = where.end_column if where.end_line else where.column
        span = Span(where.line, where.column, end_line, end_column)
        return Finding(code, where.path, span, detail, remedy)
