"""The CI report formats on real reports: GitLab code quality and JUnit XML."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from test_reporters import write_project

from replaylint import guard, guard_source
from replaylint.reporters import render


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    write_project(tmp_path)
    return tmp_path


def test_gitlab_issues_locate_each_finding_with_unique_fingerprints(project: Path) -> None:
    report = guard(".")
    issues = json.loads(render("gitlab", report))
    assert [(i["check_name"], i["location"]["path"], i["location"]["lines"]) for i in issues] == [
        ("ADK-W003", "wf.py", {"begin": 13, "end": 13}),
        ("ADK-W005", "wf.py", {"begin": 17, "end": 17}),
        ("ADK-W005", "wf.py", {"begin": 18, "end": 18}),
        ("ADK-W001", "wf.py", {"begin": 19, "end": 21}),
        ("ADK-W005", "wf.py", {"begin": 22, "end": 22}),
    ]
    fingerprints = [i["fingerprint"] for i in issues]
    assert len(set(fingerprints)) == 5
    assert issues[1] == {
        "description": "a helper that is itself unsafe is called on the workflow path (make_key): "
        "make_key -> new_id (helpers.py:5) -> uuid.uuid4 (util/ids.py:5)",
        "check_name": "ADK-W005",
        "fingerprint": fingerprints[1],
        "severity": "major",
        "location": {"path": "wf.py", "lines": {"begin": 17, "end": 17}},
    }
    # The same fingerprints as SARIF's, so both reports track one finding the same way.
    sarif = json.loads(render("sarif", report))["runs"][0]["results"]
    assert fingerprints == [r["partialFingerprints"]["replaylint/v1"] for r in sarif]


def test_gitlab_severities_and_an_empty_report() -> None:
    broken = guard_source("__adk_workflow__ = True\ndef run(:\n", source="wf.py")
    [issue] = json.loads(render("gitlab", broken))
    assert (issue["check_name"], issue["severity"]) == ("ADK-E001", "critical")
    stale = guard_source("__adk_workflow__ = True\nx = 1  # replaylint: ignore[ADK-W003]\n")
    assert [i["severity"] for i in json.loads(render("gitlab", stale))] == ["minor"]
    assert render("gitlab", guard_source("__adk_workflow__ = True\n")) == "[]\n"


def test_junit_has_one_failing_case_per_finding(project: Path) -> None:
    report = guard(".")
    root = ET.fromstring(render("junit", report))
    assert root.tag == "testsuites"
    [suite] = root
    assert suite.attrib == {
        "name": "replaylint",
        "tests": "5",
        "failures": "5",
        "errors": "0",
        "skipped": "0",
    }
    cases = suite.findall("testcase")
    assert [(c.get("classname"), c.get("name"), c.get("line")) for c in cases] == [
        ("wf.py", "ADK-W003 line 13 column 12", "13"),
        ("wf.py", "ADK-W005 line 17 column 13", "17"),
        ("wf.py", "ADK-W005 line 18 column 14", "18"),
        ("wf.py", "ADK-W001 line 19 column 13", "19"),
        ("wf.py", "ADK-W005 line 22 column 27", "22"),
    ]
    failures = [c.find("failure") for c in cases]
    assert all(f is not None for f in failures)
    last = failures[4]
    assert last is not None
    assert last.attrib == {
        "message": "a helper that is itself unsafe is called on the workflow path (stamp)",
        "type": "ADK-W005",
    }
    assert last.text == (
        "wf.py:22: ADK-W005 a helper that is itself unsafe is called on the workflow path (stamp)\n"
        "    stamp -> time.time (line 13)\n"
        "    move the helper behind an activity"
    )


def test_junit_of_a_clean_run_lists_each_module_as_passing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("a.py", "b.py"):
        (tmp_path / name).write_text("__adk_workflow__ = True\n")
    (tmp_path / "plain.py").write_text("x = 1\n")
    [suite] = ET.fromstring(render("junit", guard(".")))
    assert (suite.get("tests"), suite.get("failures")) == ("2", "0")
    cases = suite.findall("testcase")
    assert [(c.get("classname"), c.get("name"), list(c)) for c in cases] == [
        ("a.py", "replay safe", []),
        ("b.py", "replay safe", []),
    ]
    [nothing] = ET.fromstring(render("junit", guard("plain.py")))
    assert [c.get("name") for c in nothing] == ["no workflow modules"]


def test_junit_reports_unreadable_input_as_errors(project: Path) -> None:
    [suite] = ET.fromstring(render("junit", guard(["wf.py", "missing.py"])))
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("6", "5", "1")
    last = suite.findall("testcase")[-1]
    assert last.get("name") == "missing.py: no such file or directory"
    error = last.find("error")
    assert error is not None
    assert error.attrib == {
        "message": "missing.py: no such file or directory",
        "type": "input-error",
    }


def test_junit_stays_well_formed_with_characters_xml_cannot_hold() -> None:
    # An unfoldable access is named as written, a raw control character in its string included.
    report = guard_source(
        '__adk_workflow__ = True\nimport time\nT = getattr(time, n + "\x01")()\n', source="wf.py"
    )
    [finding] = report.findings
    assert "\x01" in finding.call
    [case] = ET.fromstring(render("junit", report)).iter("testcase")
    failure = case.find("failure")
    assert failure is not None
    assert failure.get("message") == (
        'an access the guard cannot fold is on the workflow path (getattr(time, n + "\ufffd"))'
    )
