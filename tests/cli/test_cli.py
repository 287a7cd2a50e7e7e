"""The command line: exit codes, formats, stdin, rule pages and bad input."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from replaylint.cli.main import cli

UNSAFE = """import time

__adk_workflow__ = True


def run():
    return time.time()
"""

SAFE = """__adk_workflow__ = True


def run(order):
    return order
"""


@pytest.fixture()
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.chdir(tmp_path)
    return CliRunner()


def test_clean_module_exits_zero(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "wf.py").write_text(SAFE)
    result = runner.invoke(cli, ["check", "wf.py"])
    assert result.exit_code == 0
    assert result.output == "0 findings in 1 workflow module (1 file checked).\n"


def test_finding_exits_one_with_exact_text(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "wf.py").write_text(UNSAFE)
    result = runner.invoke(cli, ["check", "wf.py"])
    assert result.exit_code == 1
    assert result.output == (
        "wf.py:7: ADK-W003 the wall clock is used on the workflow path (time.time)\n"
        "    use WorkflowClock, whose instants come from the run's own state\n"
        "1 finding in 1 workflow module (1 file checked).\n"
    )


def test_exit_zero_flag(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "wf.py").write_text(UNSAFE)
    assert runner.invoke(cli, ["check", "--exit-zero", "wf.py"]).exit_code == 0


def test_default_path_is_the_current_directory(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "wf.py").write_text(UNSAFE)
    (tmp_path / "plain.py").write_text("import time\ntime.time()\n")
    result = runner.invoke(cli, ["check"])
    assert result.exit_code == 1
    assert result.output.startswith("pkg/wf.py:7: ADK-W003 ")
    assert result.output.endswith("1 finding in 1 workflow module (2 files checked).\n")


def test_json_format(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "wf.py").write_text(UNSAFE)
    result = runner.invoke(cli, ["check", "--format", "json", "wf.py"])
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data["schema"] == "replaylint/findings@2"
    assert data["tool"]["name"] == "replaylint"
    assert data["summary"] == {
        "files": 1,
        "workflow_modules": 1,
        "findings": 1,
        "causes": 1,
        "exit_code": 1,
        "unresolved_imports": 0,
    }
    assert data["findings"] == [
        {
            "path": "wf.py",
            "line": 7,
            "column": 12,
            "end_line": 7,
            "end_column": 23,
            "code": "ADK-W003",
            "message": "the wall clock is used on the workflow path (time.time)",
            "call": "time.time",
            "remedy": "use WorkflowClock, whose instants come from the run's own state",
            "chain": [],
            "root": {
                "id": "06e79f7117325535",
                "code": "ADK-W003",
                "path": "wf.py",
                "line": 7,
                "call": "time.time",
            },
        }
    ]
    [module] = data["modules"]
    assert module["path"] == "wf.py"
    assert module["coverage"] == "unproven"
    assert module["identity"].startswith("sha256:") and len(module["identity"]) == 71


def test_stdin_with_filename(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["check", "-", "--stdin-filename", "src/agent/wf.py"], input=UNSAFE)
    assert result.exit_code == 1
    assert result.output.startswith("src/agent/wf.py:7: ADK-W003 ")


def test_stdin_without_marker_is_clean(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["check", "-"], input="import time\ntime.time()\n")
    assert result.exit_code == 0
    assert result.output == "0 findings in 0 workflow modules (1 file checked).\n"


def test_select_and_ignore(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "wf.py").write_text(UNSAFE + "\nimport uuid\nKEY = uuid.uuid4()\n")
    both = runner.invoke(cli, ["check", "--format", "json", "wf.py"])
    assert [f["code"] for f in json.loads(both.output)["findings"]] == ["ADK-W003", "ADK-W002"]
    only = runner.invoke(cli, ["check", "--format", "json", "--select", "ADK-W002", "wf.py"])
    assert [f["code"] for f in json.loads(only.output)["findings"]] == ["ADK-W002"]
    ignored = runner.invoke(cli, ["check", "--ignore", "ADK-W00", "wf.py"])
    assert ignored.exit_code == 0


def test_unknown_select_code_is_a_usage_error(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "wf.py").write_text(SAFE)
    result = runner.invoke(cli, ["check", "--select", "ADK-W999", "wf.py"])
    assert result.exit_code == 2
    assert "unknown rule code or prefix 'ADK-W999'" in result.output


def test_missing_path_is_reported_and_others_still_checked(
    runner: CliRunner, tmp_path: Path
) -> None:
    (tmp_path / "wf.py").write_text(UNSAFE)
    result = runner.invoke(cli, ["check", "nope.py", "wf.py"])
    assert result.exit_code == 2
    assert "replaylint: error: nope.py: no such file or directory" in result.stderr
    assert "wf.py:7: ADK-W003" in result.stdout


def test_broken_module_does_not_hide_the_others(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "a_broken.py").write_text("__adk_workflow__ = True\n\ndef run(:\n    pass\n")
    (tmp_path / "b_wf.py").write_text(UNSAFE)
    (tmp_path / "c_latin.py").write_bytes(b"__adk_workflow__ = True\nname = '\xe9'\n")
    result = runner.invoke(cli, ["check", "--format", "json", "."])
    assert result.exit_code == 1
    findings = json.loads(result.output)["findings"]
    assert [(f["path"], f["line"], f["code"]) for f in findings] == [
        ("a_broken.py", 3, "ADK-E001"),
        ("b_wf.py", 7, "ADK-W003"),
        ("c_latin.py", 2, "ADK-E001"),  # CPython names the line of the undecodable byte
    ]
    assert findings[0]["message"].startswith(
        "the workflow module cannot be read or parsed (syntax error"
    )
    assert "decode" in findings[2]["message"]


def test_rule_page_and_listing(runner: CliRunner) -> None:
    page = runner.invoke(cli, ["rule", "ADK-W003"])
    assert page.exit_code == 0
    assert page.output.startswith("# wall-clock-in-workflow (ADK-W003)\n")
    by_slug = runner.invoke(cli, ["rule", "unsafe-helper-call"])
    assert by_slug.output.startswith("# unsafe-helper-call (ADK-W005)\n")
    listing = runner.invoke(cli, ["rules"])
    assert listing.exit_code == 0
    assert [line.split()[0] for line in listing.output.splitlines()] == [
        "ADK-W001",
        "ADK-W002",
        "ADK-W003",
        "ADK-W004",
        "ADK-W005",
        "ADK-W006",
        "ADK-W007",
        "ADK-W008",
        "ADK-W009",
        "ADK-W010",
        "ADK-W011",
        "ADK-E001",
        "ADK-S001",
        "ADK-S002",
        "ADK-V001",
        "ADK-V002",
        "ADK-V003",
        "ADK-V004",
    ]
    unknown = runner.invoke(cli, ["rule", "ADK-W042"])
    assert unknown.exit_code == 2


def test_w005_text_names_the_chain(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "helpers.py").write_text(
        "import requests\n\n\ndef fetch_rates(c):\n    return requests.get(c)\n"
    )
    (tmp_path / "wf.py").write_text(
        "from helpers import fetch_rates\n\n__adk_workflow__ = True\n\n\n"
        "def run(c):\n    return fetch_rates(c)\n"
    )
    result = runner.invoke(cli, ["check", "wf.py"])
    assert result.output == (
        "wf.py:7: ADK-W005 a helper that is itself unsafe is called on the workflow path (fetch_rates)\n"
        "    fetch_rates -> requests.get (helpers.py:5)\n"
        "    move the helper behind an activity\n"
        "1 finding in 1 workflow module (1 file checked).\n"
    )


def test_python_dash_m_runs_the_cli(tmp_path: Path) -> None:
    import subprocess
    import sys

    (tmp_path / "wf.py").write_text(UNSAFE)
    done = subprocess.run(
        [sys.executable, "-m", "replaylint", "check", "wf.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ},
    )
    assert done.returncode == 1
    assert done.stdout.startswith("wf.py:7: ADK-W003")


def test_an_internal_error_outside_any_file_is_one_line_and_exit_2(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "wf.py").write_text(UNSAFE)

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the suppressions pass broke")

    monkeypatch.setattr("replaylint.report.selection.report_from", broken)
    for flags in ([], ["--exit-zero"]):
        result = runner.invoke(cli, ["check", *flags, "wf.py"])
        assert result.exit_code == 2
        assert (
            result.stderr
            == "replaylint: error: internal error: RuntimeError: the suppressions pass broke\n"
        )
    debug = runner.invoke(cli, ["check", "--debug", "wf.py"])
    assert debug.exit_code == 2 and "Traceback" in debug.stderr
