"""The report formats on real reports: text with causes, concise, statistics, github, json@2,
json-lines, and the registry the command line reads."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from replaylint import guard, guard_source
from replaylint.reporters import REPORTERS, render, statistics
from replaylint.reporters import json as json_reporter
from replaylint.reporters.github import escape_data, escape_property

IDS = "import uuid\n\n\ndef new_id():\n    return uuid.uuid4()\n"
HELPERS = (
    "from util.ids import new_id\n\n\ndef make_key(prefix):\n    return prefix + str(new_id())\n"
)
# Two calls of a helper two hops from uuid.uuid4 (one root), a clock read and a same-file helper
# that reaches it (a second root), and a model call written over three lines (a third).
WORKFLOW = """import time

from openai import OpenAI

from helpers import make_key

__adk_workflow__ = True

client = OpenAI()


def stamp():
    return time.time()


def run(order):
    first = make_key("a")
    second = make_key("b")
    reply = client.chat.completions.create(
        model="m", messages=[order]
    )
    return first, second, stamp(), reply
"""
WALL_CLOCK = "the wall clock is used on the workflow path (time.time)"
CLOCK_REMEDY = "use WorkflowClock, whose instants come from the run's own state"
HELPER = "a helper that is itself unsafe is called on the workflow path"
HELPER_REMEDY = "move the helper behind an activity"
MODEL = "a model provider is called on the workflow path (client.chat.completions.create)"
MODEL_REMEDY = "call it through model_call_activity, which records its result in history"
KEY_CHAIN = "make_key -> new_id (helpers.py:5) -> uuid.uuid4 (util/ids.py:5)"
TAIL = "5 findings (from 3 causes) in 1 workflow module (3 files checked).\n"


def write_project(root: Path) -> None:
    (root / "util").mkdir()
    (root / "util" / "ids.py").write_text(IDS)
    (root / "helpers.py").write_text(HELPERS)
    (root / "wf.py").write_text(WORKFLOW)


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    write_project(tmp_path)
    return tmp_path


def test_text_keeps_the_finding_lines_and_counts_the_causes(project: Path) -> None:
    assert guard(".").summary() == (
        f"wf.py:13: ADK-W003 {WALL_CLOCK}\n"
        f"    {CLOCK_REMEDY}\n"
        f"wf.py:17: ADK-W005 {HELPER} (make_key)\n"
        f"    {KEY_CHAIN}\n"
        f"    {HELPER_REMEDY}\n"
        f"wf.py:18: ADK-W005 {HELPER} (make_key)\n"
        f"    {KEY_CHAIN}\n"
        f"    {HELPER_REMEDY}\n"
        f"wf.py:19: ADK-W001 {MODEL}\n"
        f"    {MODEL_REMEDY}\n"
        f"wf.py:22: ADK-W005 {HELPER} (stamp)\n"
        "    stamp -> time.time (line 13)\n"
        f"    {HELPER_REMEDY}\n"
        f"{TAIL}"
    )


def test_the_causes_are_left_out_when_every_finding_is_its_own() -> None:
    report = guard_source(
        "import time, uuid\n__adk_workflow__ = True\nA = time.time()\nB = uuid.uuid4()\n",
        source="wf.py",
    )
    assert report.summary().splitlines()[-1] == "2 findings in 1 workflow module (1 file checked)."


def test_one_cause_is_singular() -> None:
    report = guard_source(
        "import time\n__adk_workflow__ = True\n\n\ndef stamp():\n    return time.time()\n\n\n"
        "def run():\n    return stamp()\n",
        source="wf.py",
    )
    assert render("text", report).splitlines()[-1] == (
        "2 findings (from 1 cause) in 1 workflow module (1 file checked)."
    )


def test_concise_is_one_line_per_finding_with_a_one_based_column(project: Path) -> None:
    assert render("concise", guard(".")) == (
        f"wf.py:13:12: ADK-W003 {WALL_CLOCK}\n"
        f"wf.py:17:13: ADK-W005 {HELPER} (make_key)\n"
        f"wf.py:18:14: ADK-W005 {HELPER} (make_key)\n"
        f"wf.py:19:13: ADK-W001 {MODEL}\n"
        f"wf.py:22:27: ADK-W005 {HELPER} (stamp)\n"
        f"{TAIL}"
    )


def test_color_styles_path_code_and_remedy_in_text_and_concise_only() -> None:
    report = guard_source("import time\n__adk_workflow__ = True\nT = time.time()\n", source="wf.py")
    bold, red, dim, reset = "\x1b[1m", "\x1b[31m", "\x1b[2m", "\x1b[0m"
    tail = "1 finding in 1 workflow module (1 file checked).\n"
    assert render("text", report, color=True) == (
        f"{bold}wf.py{reset}:3: {red}ADK-W003{reset} {WALL_CLOCK}\n"
        f"    {dim}{CLOCK_REMEDY}{reset}\n{tail}"
    )
    assert render("concise", report, color=True) == (
        f"{bold}wf.py{reset}:3:5: {red}ADK-W003{reset} {WALL_CLOCK}\n{tail}"
    )
    for name in REPORTERS:
        assert "\x1b" not in render(name, report), name
        if name not in ("text", "concise", "full"):
            assert render(name, report, color=True) == render(name, report), name


def test_the_registry_names_every_format_and_refuses_others(project: Path) -> None:
    assert list(REPORTERS) == [
        "text", "concise", "full", "json", "json-lines", "sarif", "github", "gitlab", "junit",
    ]  # fmt: skip
    report = guard(".")
    assert render("text", report) == REPORTERS["text"](report) == report.summary()
    assert report.render("json") == report.to_json() == REPORTERS["json"](report)
    with pytest.raises(ValueError, match="unknown output format 'yaml'; choose from text, "):
        render("yaml", report)


def test_statistics_count_each_code_most_frequent_first(project: Path) -> None:
    assert statistics(guard(".")) == (
        "3  ADK-W005  unsafe-helper-call\n"
        "1  ADK-W001  model-call-in-workflow\n"
        "1  ADK-W003  wall-clock-in-workflow\n"
    )
    assert statistics(guard_source("__adk_workflow__ = True\n", source="wf.py")) == ""


def test_github_annotations_are_exact(project: Path) -> None:
    assert render("github", guard(".")) == (
        "::error file=wf.py,line=13,col=12,endLine=13,endColumn=23,title=ADK-W003::"
        f"{WALL_CLOCK}%0A{CLOCK_REMEDY}\n"
        "::error file=wf.py,line=17,col=13,endLine=17,endColumn=26,title=ADK-W005::"
        f"{HELPER} (make_key)%0A{KEY_CHAIN}%0A{HELPER_REMEDY}\n"
        "::error file=wf.py,line=18,col=14,endLine=18,endColumn=27,title=ADK-W005::"
        f"{HELPER} (make_key)%0A{KEY_CHAIN}%0A{HELPER_REMEDY}\n"
        # The model call spans three lines: GitHub gets lines only.
        f"::error file=wf.py,line=19,endLine=21,title=ADK-W001::{MODEL}%0A{MODEL_REMEDY}\n"
        "::error file=wf.py,line=22,col=27,endLine=22,endColumn=34,title=ADK-W005::"
        f"{HELPER} (stamp)%0Astamp -> time.time (line 13)%0A{HELPER_REMEDY}\n"
    )


def test_github_escapes_data_and_properties(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert escape_data("100% sure\r\nnext: a,b") == "100%25 sure%0D%0Anext: a,b"
    assert escape_property("a%b:c,d\ne") == "a%25b%3Ac%2Cd%0Ae"
    monkeypatch.chdir(tmp_path)
    (tmp_path / "odd,name:1.py").write_text("import time\n__adk_workflow__ = True\ntime.sleep(1)\n")
    report = guard(["odd,name:1.py", "missing.py"])
    assert render("github", report) == (
        "::error file=odd%2Cname%3A1.py,line=3,col=1,endLine=3,endColumn=14,title=ADK-W003::"
        f"the wall clock is used on the workflow path (time.sleep)%0A{CLOCK_REMEDY}\n"
        "::error file=missing.py,title=replaylint::missing.py: no such file or directory\n"
    )


def test_suppression_findings_are_github_warnings() -> None:
    report = guard_source(
        "__adk_workflow__ = True\nx = 1  # replaylint: ignore[ADK-W003]\n", source="wf.py"
    )
    [line] = render("github", report).splitlines()
    assert line.startswith("::warning file=wf.py,line=2,")
    assert ",title=ADK-S001::a suppression comment matches no finding" in line


def test_json_is_findings_at_2_and_valid_against_its_shipped_schema(project: Path) -> None:
    report = guard(".")
    data = json.loads(render("json", report))
    schema = json_reporter.schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(data)
    assert data["schema"] == "replaylint/findings@2"
    assert data["summary"] == {
        "files": 3,
        "workflow_modules": 1,
        "findings": 5,
        "causes": 3,
        "exit_code": 1,
        "unresolved_imports": 0,
    }
    concise_columns = [
        int(line.split(":")[2]) for line in render("concise", report).splitlines()[:-1]
    ]
    assert [f["column"] for f in data["findings"]] == concise_columns
    for finding, entry in zip(report.findings, data["findings"], strict=True):
        assert (entry["line"], entry["column"]) == (finding.span.line, finding.span.column + 1)
        assert (entry["end_line"], entry["end_column"]) == (
            finding.span.end_line,
            finding.span.end_column + 1,
        )
    model = data["findings"][3]
    assert (model["line"], model["column"], model["end_line"], model["end_column"]) == (
        19,
        13,
        21,
        6,
    )


def test_json_roots_name_what_each_finding_reaches(project: Path) -> None:
    findings = json.loads(render("json", guard(".")))["findings"]
    roots = [{k: v for k, v in f["root"].items() if k != "id"} for f in findings]
    clock = {"code": "ADK-W003", "path": "wf.py", "line": 13, "call": "time.time"}
    key = {"code": "ADK-W002", "path": "util/ids.py", "line": 5, "call": "uuid.uuid4"}
    model = {
        "code": "ADK-W001",
        "path": "wf.py",
        "line": 19,
        "call": "client.chat.completions.create",
    }
    assert roots == [clock, key, key, model, clock]
    ids = [f["root"]["id"] for f in findings]
    assert ids[0] == ids[4] and ids[1] == ids[2] and len(set(ids)) == 3
    assert findings[1]["chain"] == [
        {"path": "helpers.py", "line": 5, "call": "new_id"},
        {"path": "util/ids.py", "line": 5, "call": "uuid.uuid4"},
    ]


def test_root_ids_survive_edits_above_the_root(project: Path) -> None:
    before = [f["root"] for f in json.loads(render("json", guard(".")))["findings"]]
    (project / "util" / "ids.py").write_text("# a comment\n\n" + IDS)
    after = [f["root"] for f in json.loads(render("json", guard(".")))["findings"]]
    assert after[1]["line"] == before[1]["line"] + 2
    assert [r["id"] for r in after] == [r["id"] for r in before]


def test_json_lines_hold_the_same_finding_objects(project: Path) -> None:
    report = guard(".")
    lines = render("json-lines", report).splitlines()
    assert [json.loads(line) for line in lines] == json.loads(render("json", report))["findings"]
    finding_schema = {**json_reporter.schema(), "$ref": "#/$defs/finding"}
    for key in ("required", "properties", "additionalProperties", "type"):
        finding_schema.pop(key)
    for line in lines:
        jsonschema.Draft202012Validator(finding_schema).validate(json.loads(line))
    assert render("json-lines", guard_source("__adk_workflow__ = True\n", source="wf.py")) == ""
