"""The Python API: guard(paths), guard_source(text, source=...), ReplayReport."""

from __future__ import annotations

from pathlib import Path

import pytest

import replaylint
from replaylint import guard, guard_source
from replaylint.core.codes import Code


def test_guard_source_reports_one_module() -> None:
    report = guard_source(
        "import uuid\n__adk_workflow__ = True\nKEY = uuid.uuid4()\n", source="src/flow.py"
    )
    assert [(f.path, f.line, f.code, f.call) for f in report.findings] == [
        ("src/flow.py", 3, Code.W002, "uuid.uuid4")
    ]
    assert report.exit_code == 1
    assert report.summary().startswith("src/flow.py:3: ADK-W002 a random value or id is drawn")


def test_guard_source_clean_and_unmarked() -> None:
    assert guard_source("import time\ntime.time()\n").exit_code == 0
    report = guard_source("__adk_workflow__ = True\nx = 1\n", source="flow.py")
    assert report.findings == ()
    assert report.workflow_modules == 1
    assert report.summary() == "0 findings in 1 workflow module (1 file checked).\n"


def test_guard_accepts_one_path_or_many(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.py").write_text("import time\n__adk_workflow__ = True\ntime.sleep(1)\n")
    (tmp_path / "b.py").write_text("__adk_workflow__ = True\n")
    assert guard("a.py").exit_code == 1
    report = guard(["a.py", Path("b.py")])
    assert report.files == 2
    assert [m.path for m in report.modules] == ["a.py", "b.py"]
    assert [m.coverage for m in report.modules] == ["unproven", "self-contained-static"]


def test_run_takes_path_objects_as_guard_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".gitignore").write_text("ignored/\n")
    (tmp_path / "a.py").write_text("import time\n__adk_workflow__ = True\ntime.sleep(1)\n")
    outcome = replaylint.api.run([Path(".")])
    assert [(f.path, f.code) for f in outcome.findings] == [("a.py", Code.W003)]
    assert outcome == replaylint.api.run(["."])


def test_findings_are_sorted_and_deterministic(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    body = "import time, uuid\n__adk_workflow__ = True\nA = uuid.uuid4(); B = time.time()\nC = time.time()\n"
    (tmp_path / "z.py").write_text(body)
    (tmp_path / "a.py").write_text(body)
    first = guard(".")
    second = guard(".")
    keys = [(f.path, f.line, f.span.column, f.code.value) for f in first.findings]
    assert keys == sorted(keys)
    assert keys == [(f.path, f.line, f.span.column, f.code.value) for f in second.findings]
    assert [k[0] for k in keys] == ["a.py"] * 3 + ["z.py"] * 3


def test_public_names() -> None:
    assert replaylint.__version__
    assert replaylint.ReplayReport is type(guard_source(""))
    assert replaylint.Finding.__name__ == "Finding"
    with pytest.raises(AttributeError):
        replaylint.not_there  # noqa: B018


def test_checking_never_imports_or_runs_the_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    sentinel = tmp_path / "was_imported.txt"
    (tmp_path / "helper_side_effect.py").write_text(
        f"open({str(sentinel)!r}, 'w').write('helper')\n\ndef f():\n    return 1\n"
    )
    (tmp_path / "wf.py").write_text(
        "from helper_side_effect import f\n"
        f"open({str(sentinel)!r}, 'w').write('workflow')\n"
        "__adk_workflow__ = True\n\n"
        "def run():\n    return f()\n"
    )
    report = guard(".")
    # The workflow's own module-level write is on its workflow path (the helper's is not).
    assert [(f.code.value, f.path, f.line) for f in report.findings] == [("ADK-W008", "wf.py", 2)]
    assert not sentinel.exists()
    import sys

    assert "wf" not in sys.modules and "helper_side_effect" not in sys.modules


def test_positions_are_exact_for_multiline_calls() -> None:
    source = (
        "from openai import OpenAI\n"
        "__adk_workflow__ = True\n"
        "client = OpenAI()\n"
        "def run(q):\n"
        "    '''doc\n"
        "    string'''\n"
        "    return (\n"
        "        client.chat.completions.create(\n"
        "            model='m', messages=[q]\n"
        "        )\n"
        "    )\n"
    )
    [finding] = guard_source(source, source="wf.py").findings
    assert (finding.span.line, finding.span.column) == (8, 8)
    assert (finding.span.end_line, finding.span.end_column) == (10, 9)
    assert finding.call == "client.chat.completions.create"


def test_guard_reads_the_projects_configuration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.replaylint]\nignore = ["ADK-W003"]\n')
    (tmp_path / "wf.py").write_text("import time\n__adk_workflow__ = True\nT = time.time()\n")
    assert guard("wf.py").exit_code == 0
    assert (
        guard_source((tmp_path / "wf.py").read_text(), source=str(tmp_path / "wf.py")).exit_code
        == 0
    )
    from replaylint.project.config import Config

    assert guard("wf.py", config=Config()).exit_code == 1


def test_a_temporal_activity_called_directly_is_told_to_run_as_one() -> None:
    from pathlib import Path

    fixture = Path(__file__).parents[1] / "rules" / "presets" / "temporal_workflow.py"
    report = guard(str(fixture), dependents=False)
    [direct] = [f for f in report.findings if f.line == 54]
    assert (direct.code.value, direct.call) == ("ADK-W005", "fetch_quote")
    assert (
        direct.remedy
        == "run the activity with workflow.execute_activity instead of calling it directly"
    )
