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
