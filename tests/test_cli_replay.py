"""`replaylint replay`: the command over the committed histories and over broken ones."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from replaylint.cli import cli

ROOT = Path(__file__).resolve().parents[1]


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
