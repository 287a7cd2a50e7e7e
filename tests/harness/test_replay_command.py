"""`replaylint replay`: the command over the committed histories and over broken ones."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from replaylint.cli.main import cli

ROOT = Path(__file__).resolve().parents[2]


def test_committed_histories_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(cli, ["replay", "tests/histories"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert len(lines) == len(list((ROOT / "tests" / "histories").glob("*.json")))
    assert all(line.startswith("ok tests/histories/") for line in lines)


def test_divergence_and_invalid_history(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    source = ROOT / "tests" / "histories" / "payment.json"
    data = json.loads(source.read_text())
    data["result"] = {"status": "something else"}
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps(data))
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    diverged = CliRunner().invoke(cli, ["replay", str(changed)])
    assert diverged.exit_code == 1
    assert "(result-mismatch)" in diverged.output and diverged.output.startswith("diverged ")
    invalid = CliRunner().invoke(cli, ["replay", str(changed), str(broken)])
    assert invalid.exit_code == 2
    assert any(
        line.startswith("error ") and "broken.json" in line for line in invalid.output.splitlines()
    )
    shutil.rmtree(tmp_path)


def test_a_workflow_calling_sys_exit_does_not_end_the_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "quitter.py").write_text(
        "import sys\n\ndef run(ctx, order):\n    sys.exit(0)\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(ROOT))  # the examples the second history names
    monkeypatch.delitem(sys.modules, "quitter", raising=False)
    data = json.loads((ROOT / "tests" / "histories" / "payment.json").read_text())
    (tmp_path / "a.json").write_text(json.dumps({**data, "workflow": "quitter:run"}))
    shutil.copy(ROOT / "tests" / "histories" / "payment.json", tmp_path / "b.json")
    result = CliRunner().invoke(cli, ["replay", "a.json", "b.json"])
    monkeypatch.delitem(sys.modules, "quitter", raising=False)
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    assert lines[0] == (
        "diverged a.json: command 0 (workflow-error): the code raised SystemExit: 0 "
        "where the recorded run completed"
    )
    assert lines[1:] == ["ok b.json (6 commands)"]  # the next history is still replayed


def test_the_workflow_option_replays_a_temporal_export(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("temporalio.worker")
    monkeypatch.syspath_prepend(str(ROOT))
    from tests.workflows.test_wf_replay_temporal import WORKFLOWS, greeting_history

    (tmp_path / "cli_greetings.py").write_text(WORKFLOWS, encoding="utf-8")
    (tmp_path / "exported.json").write_text(json.dumps(greeting_history()), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    try:
        ok = CliRunner().invoke(
            cli, ["replay", "--workflow", "cli_greetings:Greeting", "exported.json"]
        )
        changed = CliRunner().invoke(
            cli, ["replay", "exported.json", "--workflow", "cli_greetings:GreetingAfterAWait"]
        )
        missing = CliRunner().invoke(cli, ["replay", "exported.json"])
    finally:
        sys.modules.pop("cli_greetings", None)
    assert (ok.exit_code, ok.output) == (0, "ok exported.json (11 events, Temporal)\n")
    assert changed.exit_code == 1
    assert changed.output.startswith("diverged exported.json: Temporal replay (nondeterminism): ")
    assert missing.exit_code == 2
    assert "pass --workflow package.module:Class" in missing.output
