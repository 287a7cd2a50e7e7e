"""The CI report formats on real reports: GitLab code quality, and tool errors located on their
file in GitLab, GitHub and SARIF (JUnit: test_junit.py)."""

from __future__ import annotations

import json
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


def test_a_tool_error_is_an_issue_on_its_file_in_gitlab_and_an_annotation_in_github(
    project: Path,
) -> None:
    report = guard(["wf.py", "missing.py"])
    [line] = report.errors
    assert line.startswith("missing.py: ")
    issues = json.loads(render("gitlab", report))
    [error] = [i for i in issues if i["check_name"] == "replaylint"]
    assert error["severity"] == "blocker"
    assert error["location"] == {"path": "missing.py", "lines": {"begin": 1, "end": 1}}
    assert error["description"] == line
    assert len({i["fingerprint"] for i in issues}) == len(issues)
    annotations = render("github", report).splitlines()
    assert annotations[-1] == f"::error file=missing.py,title=replaylint::{line}"


def test_sarif_names_no_local_path_for_the_rules_and_locates_tool_errors(project: Path) -> None:
    log = json.loads(render("sarif", guard(["wf.py", "missing.py"])))
    driver = log["runs"][0]["tool"]["driver"]
    assert "informationUri" not in driver  # the project declares no [project.urls]: none
    [note] = log["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert note["locations"] == [{"physicalLocation": {"artifactLocation": {"uri": "missing.py"}}}]
