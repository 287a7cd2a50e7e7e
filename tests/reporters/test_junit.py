"""`--output-format junit`, read by junitparser as a CI would: one case per workflow module
whatever the result, failures for findings, errors for what was not fully checked."""

from __future__ import annotations

from pathlib import Path

import pytest
from junitparser import Error, Failure, JUnitXml

from replaylint import guard, guard_source
from replaylint.reporters import render

CLEAN = "__adk_workflow__ = True\n\n\ndef run():\n    return 1\n"
UNSAFE = "import time\n\n__adk_workflow__ = True\n\n\ndef run():\n    return time.time()\n"


def parsed(text: str) -> list[tuple[str, str, list[str]]]:
    """(name, file, result kinds) of every case, as junitparser reads the report."""
    xml = JUnitXml.fromstring(text)
    [suite] = list(xml)
    return [
        (case.name, case._elem.get("file"), [type(r).__name__ for r in case.result])
        for case in suite
    ]


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    for name in ("a.py", "b.py", "c.py"):
        (tmp_path / name).write_text(CLEAN)
    (tmp_path / "plain.py").write_text("x = 1\n")
    return tmp_path


def test_the_number_of_cases_does_not_move_with_the_result(project: Path) -> None:
    clean = render("junit", guard("."))
    assert parsed(clean) == [("a.py", "a.py", []), ("b.py", "b.py", []), ("c.py", "c.py", [])]
    (project / "b.py").write_text(UNSAFE)
    failing = render("junit", guard("."))
    assert parsed(failing) == [
        ("a.py", "a.py", []),
        ("b.py", "b.py", ["Failure"]),
        ("c.py", "c.py", []),
    ]
    [suite] = list(JUnitXml.fromstring(failing))
    assert (suite.tests, suite.failures, suite.errors) == (3, 1, 0)
    case = [c for c in suite if c.name == "b.py"][0]
    [failure] = case.result
    assert isinstance(failure, Failure)
    assert failure.message == "1 finding: ADK-W003"
    assert failure.text == (
        "b.py:7: ADK-W003 the wall clock is used on the workflow path (time.time)\n"
        "    use WorkflowClock, whose instants come from the run's own state"
    )


def test_a_module_not_checked_is_an_error_and_a_missing_path_names_its_file(
    project: Path,
) -> None:
    (project / "c.py").write_text("__adk_workflow__ = True\ndef run(:\n")
    report = guard([".", "missing.py"])
    assert parsed(render("junit", report)) == [
        ("a.py", "a.py", []),
        ("b.py", "b.py", []),
        ("c.py", "c.py", ["Error"]),
        ("missing.py", "missing.py", ["Error"]),
    ]
    [suite] = list(JUnitXml.fromstring(render("junit", report)))
    assert (suite.tests, suite.failures, suite.errors) == (4, 0, 2)
    missing = [c for c in suite if c.name == "missing.py"][0]
    [error] = missing.result
    assert isinstance(error, Error)
    assert error.message == "missing.py: no such file or directory"


def test_a_run_without_workflow_modules_still_shows_it_ran(project: Path) -> None:
    assert parsed(render("junit", guard("plain.py"))) == [("no workflow modules", None, [])]


def test_characters_xml_cannot_hold_are_replaced() -> None:
    # An unfoldable access is named as written, a raw control character in its string included.
    report = guard_source(
        '__adk_workflow__ = True\nimport time\nT = getattr(time, n + "\x01")()\n', source="wf.py"
    )
    [finding] = report.findings
    assert "\x01" in finding.call
    [suite] = list(JUnitXml.fromstring(render("junit", report)))
    [case] = list(suite)
    [failure] = case.result
    assert failure.text.startswith(
        'wf.py:3: ADK-W006 an access the guard cannot fold is on the workflow path (getattr(time, n + "\ufffd"))'
    )


TEMPORAL = """from temporalio import workflow

from helpers import stamp


@workflow.defn
class Flow:
    @workflow.run
    async def run(self) -> float:
        return {body}
"""
HELPERS = "import time\n\n\ndef stamp():\n    return time.time()\n"


def cases_and_count(report) -> tuple[dict[str, list], int]:
    """Each case's results (kind, message, text), and the count the text summary gives."""
    [suite] = list(JUnitXml.fromstring(render("junit", report)))
    found = {
        case.name: [(type(r).__name__, r.message, r.text) for r in case.result] for case in suite
    }
    assert suite.tests == len(found)
    return found, report.workflow_modules


def test_a_root_in_a_helper_fails_each_workflow_that_reaches_it_not_a_case_of_its_own(
    project: Path,
) -> None:
    (project / "helpers.py").write_text(HELPERS)
    (project / "calls.py").write_text(TEMPORAL.format(body="stamp()"))
    (project / "also.py").write_text(TEMPORAL.format(body="stamp()"))
    (project / "imports_only.py").write_text(TEMPORAL.format(body="1.0"))
    report = guard(".")
    assert "helpers.py:5: ADK-W003" in report.summary()  # the text report shows the root
    found, count = cases_and_count(report)
    assert sorted(found) == ["a.py", "also.py", "b.py", "c.py", "calls.py", "imports_only.py"]
    assert count == 6
    assert found["imports_only.py"] == [] and found["a.py"] == []
    for name in ("also.py", "calls.py"):
        [(kind, message, text)] = found[name]
        assert (kind, message) == ("Failure", "2 findings: ADK-W003, ADK-W005")
        headlines = sorted(line for line in text.splitlines() if not line.startswith(" "))
        assert headlines == sorted(
            [
                "helpers.py:5: ADK-W003 the wall clock is used on the workflow path (time.time)",
                f"{name}:10: ADK-W005 a helper that is itself unsafe is called on the workflow "
                "path (stamp)",
            ]
        )


def test_a_helper_that_cannot_be_parsed_is_an_error_of_the_workflow_that_reaches_it(
    project: Path,
) -> None:
    (project / "helpers.py").write_text("import time\n\ndef stamp(:\n    return time.time()\n")
    (project / "calls.py").write_text(TEMPORAL.format(body="stamp()"))
    report = guard(".")
    found, count = cases_and_count(report)
    assert sorted(found) == ["a.py", "b.py", "c.py", "calls.py"] and count == 4
    assert found["calls.py"] == [
        (
            "Error",
            "helpers.py: ADK-E001 the workflow module cannot be read or parsed (syntax error: "
            "invalid syntax (line 3))",
            "helpers.py: ADK-E001 the workflow module cannot be read or parsed (syntax error: "
            "invalid syntax (line 3))",
        )
    ]
    assert report.summary().endswith("1 finding in 4 workflow modules (6 files checked).\n")


def test_a_workflow_that_imports_a_missing_project_module_is_an_error(project: Path) -> None:
    (project / "pkg").mkdir()
    (project / "pkg" / "__init__.py").write_text("")
    (project / "pkg" / "flow.py").write_text(
        "from .gone import helper\n\n__adk_workflow__ = True\n\n\ndef run():\n    return 1\n"
    )
    found, count = cases_and_count(guard("."))
    assert count == 4
    assert found["pkg/flow.py"] == [
        (
            "Error",
            "1 import of project modules that are not there: what it runs was not checked",
            "1 import of project modules that are not there: what it runs was not checked",
        )
    ]
