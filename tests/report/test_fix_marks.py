"""The [*] marks of a warm run come from the cache while a file and its findings are unchanged,
and are worked out again (LibCST, the fixes) for a file that changed or an entry that is damaged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import replaylint
from replaylint.cli.main import cli
from replaylint.fixes import api
from replaylint.index.workers import Workers
from replaylint.report import fix_marks

WORKFLOW = """\
import time

from temporalio import workflow


@workflow.defn
class Greeting:
    @workflow.run
    async def go(self) -> float:
        return time.time()
"""
FIXABLE = api.fixable_findings
MARKED = "wf.py:10: ADK-W003 [*] the wall clock is used on the workflow path (time.time)"


@pytest.fixture()
def worked_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of findings each call of the fixes was asked about, in order."""
    monkeypatch.chdir(tmp_path)
    for name in ("FORCE_COLOR", "NO_COLOR", "CI"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "wf.py").write_text(WORKFLOW)
    calls: list[int] = []
    original = api.fixable_findings

    def spy(findings, data=None):  # type: ignore[no-untyped-def]
        findings = list(findings)
        calls.append(len(findings))
        return original(findings, data)

    monkeypatch.setattr(api, "fixable_findings", spy)
    return calls


def _check() -> list[str]:
    # One job: the file is checked, and its marks worked out, in this process (the spy's).
    result = CliRunner().invoke(cli, ["check", "--cache-dir", "cache", "--jobs", "1", "wf.py"])
    assert result.exit_code == 1, result.output
    return result.stdout.splitlines()


def test_a_warm_run_marks_from_the_cache_what_a_cold_run_worked_out(worked_out: list[int]) -> None:
    cold = _check()
    assert cold[0] == MARKED and cold[-1] == "[*] 1 fixable with the `--fix` option."
    assert worked_out == [1]
    assert _check() == cold
    assert worked_out == [1]  # nothing parsed or fixed again


def test_a_changed_file_is_worked_out_again(worked_out: list[int]) -> None:
    _check()
    text = WORKFLOW.replace("import time", "from datetime import datetime")
    Path("wf.py").write_text(text.replace("time.time()", "datetime.now()"))
    lines = _check()
    assert worked_out == [1, 1]
    assert lines[0].startswith("wf.py:10: ADK-W003 the wall clock")  # naive to aware: unsafe
    hidden = "1 hidden fix can be enabled with the `--unsafe-fixes` option"
    assert lines[-1] == f"No fixes available ({hidden})."


def test_a_damaged_entry_is_worked_out_again(worked_out: list[int]) -> None:
    cold = _check()
    [stored] = Path("cache").glob("v*/fixable-*.json")
    data = json.loads(stored.read_text())
    data["files"]["wf.py"]["safe"] = [7]
    stored.write_text(json.dumps(data))
    assert _check() == cold
    assert worked_out == [1, 1]
    assert json.loads(stored.read_text())["files"]["wf.py"]["safe"] == [0]


def _three_files() -> None:
    Path("other.py").write_text(WORKFLOW.replace("Greeting", "Other"))
    Path("third.py").write_text(WORKFLOW.replace("time.time()", "time.time() + time.time()"))


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_process_that_checks_a_file_hands_over_its_marks(
    worked_out: list[int], monkeypatch: pytest.MonkeyPatch, jobs: str
) -> None:
    _three_files()
    after: list[int] = []
    work = fix_marks._worked_out

    def counted(files, jobs):  # type: ignore[no-untyped-def]
        after.append(len(files))
        return work(files, jobs)

    monkeypatch.setattr(fix_marks, "_worked_out", counted)
    result = CliRunner().invoke(cli, ["check", "--no-cache", "--jobs", jobs, "."])
    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    assert after == []  # nothing left to work out once the check is done
    assert lines[-1] == "[*] 4 fixable with the `--fix` option."
    assert sum(line.count("[*]") for line in lines) == 5  # four marks and the summary
    before = len(worked_out)
    json_run = CliRunner().invoke(
        cli, ["check", "--no-cache", "--jobs", "1", "--format", "json", "."]
    )
    assert json_run.exit_code == 1
    assert (len(worked_out), after) == (before, [])  # JSON shows no marks: none worked out


def test_files_left_to_the_report_are_worked_out_one_per_worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "wf.py").write_text(WORKFLOW)
    _three_files()
    findings = replaylint.guard(".").findings  # the API hands no marks over
    handed: list[list[str]] = []
    submit = Workers.submit

    def spied(self, key, function, *arguments):  # type: ignore[no-untyped-def]
        if function is FIXABLE:
            handed.append(sorted({f.path for f in arguments[0]}))
        return submit(self, key, function, *arguments)

    monkeypatch.setattr(Workers, "submit", spied)
    alone = fix_marks.fixable_marks(findings, None, jobs=1)
    assert handed == []
    assert fix_marks.fixable_marks(findings, None, jobs=2) == alone
    assert sorted(handed) == [["other.py"], ["third.py"], ["wf.py"]]
    assert (len(alone.safe), len(alone.unsafe)) == (4, 0)


@pytest.mark.parametrize("option", ["--diff", "--add-ignore", "--statistics"])
def test_a_check_whose_report_shows_no_marks_works_none_out(
    worked_out: list[int], option: str
) -> None:
    result = CliRunner().invoke(cli, ["check", "--no-cache", "--jobs", "1", option, "wf.py"])
    assert result.exit_code in (0, 1), result.output
    assert worked_out == []  # --diff plans its fixes itself; the others print no marks


def test_a_module_too_deep_for_the_fixes_is_reported_without_a_mark(worked_out: list[int]) -> None:
    terms = " + ".join(["1"] * 400)
    Path("wf.py").write_text(WORKFLOW.replace("time.time()", f"time.time() + {terms}"))
    result = CliRunner().invoke(cli, ["check", "--no-cache", "--jobs", "1", "wf.py"])
    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "wf.py:10: ADK-W003 the wall clock is used on the workflow path (time.time)"
    assert lines[-1] == "1 finding in 1 workflow module (1 file checked)."
    diff = CliRunner().invoke(cli, ["check", "--no-cache", "--diff", "wf.py"])
    assert (diff.exit_code, diff.stdout) == (0, "")  # --fix leaves it as it is, too
