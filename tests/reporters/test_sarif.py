"""The SARIF 2.1.0 report: valid against the official schema, one result per finding, chains as
code flows and related locations, fingerprints that survive edits above a finding."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from test_reporters import write_project

from replaylint import guard, guard_source
from replaylint.core.codes import RULES, Code
from replaylint.core.findings import Report
from replaylint.reporters import render, sarif

SCHEMA_PATH = Path(__file__).parents[1] / "data" / "sarif-schema-2.1.0.json"


@pytest.fixture(scope="module")
def validator() -> jsonschema.protocols.Validator:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    write_project(tmp_path)
    return tmp_path


def sarif_of(report: Report) -> dict[str, Any]:
    log: dict[str, Any] = json.loads(render("sarif", report))
    return log


def test_the_log_is_valid_sarif_with_one_result_per_finding(
    project: Path, validator: jsonschema.protocols.Validator
) -> None:
    report = guard(".")
    log = sarif_of(report)
    validator.validate(log)
    assert jsonschema.validators.validator_for(validator.schema) is jsonschema.Draft4Validator
    broken = json.loads(json.dumps(log))
    broken["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
    assert not validator.is_valid(broken)  # the schema does check regions
    assert log["version"] == "2.1.0"
    [run] = log["runs"]
    assert run["columnKind"] == "unicodeCodePoints"
    results = run["results"]
    assert [(r["ruleId"], r["level"]) for r in results] == [
        (f.code.value, "error") for f in report.findings
    ]
    rules = run["tool"]["driver"]["rules"]
    assert [rules[r["ruleIndex"]]["id"] for r in results] == [r["ruleId"] for r in results]
    regions = [r["locations"][0]["physicalLocation"]["region"] for r in results]
    assert regions[0] == {"startLine": 13, "startColumn": 12, "endLine": 13, "endColumn": 23}
    assert regions[3] == {"startLine": 19, "startColumn": 13, "endLine": 21, "endColumn": 6}
    assert results[0]["message"]["text"] == (
        "the wall clock is used on the workflow path (time.time)\n"
        "use WorkflowClock, whose instants come from the run's own state"
    )


def test_a_chain_is_a_code_flow_and_related_locations(project: Path) -> None:
    result = sarif_of(guard("."))["runs"][0]["results"][1]
    assert result["message"]["text"] == (
        "a helper that is itself unsafe is called on the workflow path (make_key)\n"
        "make_key -> [new_id](1) -> [uuid.uuid4](2)\n"
        "move the helper behind an activity"
    )
    [flow] = result["codeFlows"]
    [thread] = flow["threadFlows"]
    steps = [
        (
            step["location"]["physicalLocation"]["artifactLocation"]["uri"],
            step["location"]["physicalLocation"]["region"]["startLine"],
            step["location"]["message"]["text"],
        )
        for step in thread["locations"]
    ]
    assert steps == [
        ("wf.py", 17, "the workflow calls make_key"),
        ("helpers.py", 5, "calls new_id"),
        ("util/ids.py", 5, "calls uuid.uuid4"),
    ]
    assert result["relatedLocations"] == [
        {
            "id": 1,
            "physicalLocation": {
                "artifactLocation": {"uri": "helpers.py"},
                "region": {"startLine": 5},
            },
            "message": {"text": "calls new_id"},
        },
        {
            "id": 2,
            "physicalLocation": {
                "artifactLocation": {"uri": "util/ids.py"},
                "region": {"startLine": 5},
            },
            "message": {"text": "calls uuid.uuid4"},
        },
    ]
    others = [r for r in sarif_of(guard("."))["runs"][0]["results"] if r["ruleId"] != "ADK-W005"]
    assert others and all("codeFlows" not in r and "relatedLocations" not in r for r in others)


def test_one_rule_per_code_with_its_page(project: Path) -> None:
    rules = sarif_of(guard("."))["runs"][0]["tool"]["driver"]["rules"]
    assert [(r["id"], r["name"]) for r in rules] == [(c.value, m.slug) for c, m in RULES.items()]
    clock = rules[list(RULES).index(Code.W003)]
    assert clock["shortDescription"] == {"text": "the wall clock is used on the workflow path"}
    page = (Path(__file__).parents[2] / "rules" / "ADK-W003.md").read_text(encoding="utf-8")
    assert clock["help"] == {"text": page, "markdown": page}
    assert clock["fullDescription"]["text"].startswith("Flags ")
    assert "\n" not in clock["fullDescription"]["text"]
    levels = {r["id"]: r["defaultConfiguration"]["level"] for r in rules}
    assert levels["ADK-S001"] == levels["ADK-S002"] == "warning"
    assert levels["ADK-W005"] == levels["ADK-E001"] == "error"


def test_a_code_without_a_page_falls_back_to_its_registry_text(
    validator: jsonschema.protocols.Validator,
) -> None:
    report = guard_source("import time\n__adk_workflow__ = True\nT = time.time()\n", source="wf.py")
    log = json.loads(sarif.render(report, pages={}))
    validator.validate(log)
    clock = log["runs"][0]["tool"]["driver"]["rules"][list(RULES).index(Code.W003)]
    assert clock["fullDescription"] == {"text": "the wall clock is used on the workflow path"}
    assert clock["help"] == {
        "text": "use WorkflowClock, whose instants come from the run's own state"
    }


def test_section_reads_the_prose_under_one_heading() -> None:
    page = "# t (X)\n\n## What it does\nFlags a\nthing.\n\nMore.\n\n## Why\nno\n"
    assert sarif.section(page, "What it does") == "Flags a thing. More."
    assert sarif.section(page, "Example") == ""


def test_fingerprints_are_unique_and_survive_lines_added_above(project: Path) -> None:
    def fingerprints() -> list[str]:
        results = sarif_of(guard("."))["runs"][0]["results"]
        return [r["partialFingerprints"]["replaylint/v1"] for r in results]

    before = fingerprints()
    assert len(set(before)) == len(before) == 5  # the two make_key calls differ by ordinal
    wf = project / "wf.py"
    wf.write_text(wf.read_text().replace("import time\n", "import time\n\n# moved down\n"))
    (project / "util" / "ids.py").write_text(
        "# the root moves too\n" + (project / "util" / "ids.py").read_text()
    )
    assert fingerprints() == before


def test_unreadable_input_is_a_failed_invocation(
    project: Path, validator: jsonschema.protocols.Validator
) -> None:
    log = sarif_of(guard(["wf.py", "missing.py"]))
    validator.validate(log)
    assert log["runs"][0]["invocations"] == [
        {
            "executionSuccessful": False,
            "toolExecutionNotifications": [
                {
                    "level": "error",
                    "message": {"text": "missing.py: no such file or directory"},
                    "locations": [
                        {"physicalLocation": {"artifactLocation": {"uri": "missing.py"}}}
                    ],
                }
            ],
        }
    ]
    clean = sarif_of(guard_source("__adk_workflow__ = True\n", source="wf.py"))
    validator.validate(clean)
    assert clean["runs"][0]["results"] == []
    assert clean["runs"][0]["invocations"][0]["executionSuccessful"] is True


def test_uris_are_relative_and_percent_encoded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, validator: jsonschema.protocols.Validator
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my flows").mkdir()
    (tmp_path / "my flows" / "wf.py").write_text(
        "import time\n__adk_workflow__ = True\nT = time.time()\n"
    )
    log = sarif_of(guard("."))
    validator.validate(log)
    [result] = log["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": "my%20flows/wf.py"
    }
