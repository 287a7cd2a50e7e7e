"""The code actions of a checked document: which are offered for a range, and the rule-fix
hook, which offers a fix only when `replaylint.fixes` answers one."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import pytest
from lsprotocol import types

from replaylint.core.findings import Finding
from replaylint.server import rule_fixes
from replaylint.server.actions import code_actions
from replaylint.server.analysis import Analyzer
from replaylint.server.diagnostics import to_diagnostic
from replaylint.server.ranges import UTF16

TEXT = """import time
import uuid

__adk_workflow__ = True


def run():
    ident = uuid.uuid4()
    return ident, time.time()
"""
WHOLE = types.Range(types.Position(0, 0), types.Position(9, 0))


@dataclass(frozen=True)
class StandIn:
    """What a `replaylint.fixes.fix_for` answers in these tests."""

    title: str
    safe: bool


def stand_in(fix_for, fix_source) -> SimpleNamespace:
    return SimpleNamespace(fix_for=fix_for, fix_source=fix_source)


def actions_for(
    tmp_path: Path, wanted: types.Range, shown: tuple[str, ...] = ()
) -> list[types.CodeAction]:
    """The actions for `wanted`, the client handing back its diagnostics of the codes `shown`
    (as it received them: they are matched by value)."""
    (tmp_path / ".git").mkdir(exist_ok=True)
    path = str(tmp_path / "flow.py")
    analysis = Analyzer().analyse(path, TEXT, 1)
    diagnosed = [
        (f, to_diagnostic(f, analysis.lines, lambda _: [], UTF16)) for f in analysis.findings
    ]
    given = [d for _, d in diagnosed if d.code in shown]
    return code_actions("file:///flow.py", analysis, diagnosed, wanted, UTF16, given)


def test_the_actions_of_the_findings_in_the_range(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(rule_fixes, "_fixes_module", lambda: None)
    line_start = types.Range(types.Position(8, 0), types.Position(8, 0))
    in_call = types.Range(types.Position(8, 20), types.Position(8, 20))
    expected = ["Ignore ADK-W003 on this line", "Ignore ADK-W003 in this file"]
    assert [a.title for a in actions_for(tmp_path, in_call)] == expected
    assert [a.title for a in actions_for(tmp_path, line_start, ("ADK-W003",))] == expected
    assert actions_for(tmp_path, line_start) == []  # neither touched nor handed back
    assert [a.title for a in actions_for(tmp_path, WHOLE)] == [
        "Ignore ADK-W002 on this line",
        "Ignore ADK-W002 in this file",
        "Ignore ADK-W003 on this line",
        "Ignore ADK-W003 in this file",
    ]


def test_a_rule_fix_is_offered_first_as_the_lines_it_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    def fix_for(finding: Finding, source: str) -> StandIn | None:
        return StandIn("Use the workflow's clock", False) if finding.call == "time.time" else None

    def fix_source(source: str, findings: list[Finding], unsafe: bool) -> tuple[str, tuple]:
        assert unsafe  # picked by a person in the editor: applied whatever its safety
        return source.replace("time.time()", "clock.now"), tuple(findings)

    monkeypatch.setattr(rule_fixes, "_fixes_module", lambda: stand_in(fix_for, fix_source))
    actions = actions_for(tmp_path, WHOLE)
    assert [a.title for a in actions][:2] == [
        "Use the workflow's clock",
        "Ignore ADK-W002 on this line",
    ]
    fix = actions[0]
    assert fix.is_preferred is None  # an unsafe fix is offered, never preferred
    assert fix.edit is not None and fix.edit.changes is not None
    assert fix.edit.changes["file:///flow.py"] == [
        types.TextEdit(
            range=types.Range(types.Position(8, 0), types.Position(9, 0)),
            new_text="    return ident, clock.now\n",
        )
    ]


def test_a_fix_that_fails_or_changes_nothing_is_not_offered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    def fix_for(finding: Finding, source: str) -> StandIn:
        if finding.call == "time.time":
            raise RuntimeError("no")
        return StandIn("Nothing", True)

    def fix_source(source: str, findings: list[Finding], unsafe: bool) -> tuple[str, tuple]:
        return source, ()

    monkeypatch.setattr(rule_fixes, "_fixes_module", lambda: stand_in(fix_for, fix_source))
    assert [a.title for a in actions_for(tmp_path, WHOLE)] == [
        "Ignore ADK-W002 on this line",
        "Ignore ADK-W002 in this file",
        "Ignore ADK-W003 on this line",
        "Ignore ADK-W003 in this file",
    ]


TEMPORAL = """import time

from temporalio import workflow


@workflow.defn
class Flow:
    @workflow.run
    async def run(self) -> float:
        return time.time()
"""


def test_the_catalogs_fix_is_the_first_action(tmp_path: Path):
    """With replaylint.fixes: its fix of a Temporal clock read, applied as the editor would."""
    from replaylint.fixes import fix_for

    (tmp_path / ".git").mkdir()
    path = str(tmp_path / "flow.py")
    analysis = Analyzer().analyse(path, TEMPORAL, 1)
    [finding] = analysis.findings
    diagnosed = [(finding, to_diagnostic(finding, analysis.lines, lambda _: [], UTF16))]
    everything = types.Range(types.Position(0, 0), types.Position(10, 0))
    actions = code_actions("file:///flow.py", analysis, diagnosed, everything, UTF16)
    info = fix_for(finding, TEMPORAL)
    assert info is not None and info.safe
    assert [a.title for a in actions] == [
        info.title,
        "Ignore ADK-W003 on this line",
        "Ignore ADK-W003 in this file",
    ]
    assert actions[0].is_preferred is True
    assert actions[0].edit is not None and actions[0].edit.changes is not None
    [edit] = actions[0].edit.changes["file:///flow.py"]
    lines = TEMPORAL.splitlines(keepends=True)
    edited = "".join(lines[: edit.range.start.line]) + edit.new_text
    edited += "".join(lines[edit.range.end.line :])
    # The fix's edit also takes out the import it left unused, as `check --fix` does.
    assert edited == TEMPORAL.replace("time.time()", "workflow.time()").replace(
        "import time\n\n", ""
    )
    assert Analyzer().analyse(path, edited, 2).findings == ()
