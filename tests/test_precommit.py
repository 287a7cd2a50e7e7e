"""The pre-commit hook: its definition, and its entry run the way pre-commit runs it."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def hook() -> dict:
    [definition] = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    return definition


def test_hook_definition() -> None:
    definition = hook()
    assert definition["id"] == "replaylint"
    assert definition["entry"] == "replaylint check"
    assert definition["language"] == "python"
    assert definition["types"] == ["python"]
    assert definition["require_serial"] is True


def test_entry_on_changed_files_reads_unchanged_helpers(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "helpers.py").write_text(
        "import uuid\n\n\ndef new_key():\n    return uuid.uuid4().hex\n"
    )
    (tmp_path / "flow.py").write_text(
        "from helpers import new_key\n\n__adk_workflow__ = True\n\n\ndef run():\n    return new_key()\n"
    )
    (tmp_path / "clean.py").write_text("__adk_workflow__ = True\n")
    executable = shutil.which("replaylint", path=str(Path(sys.executable).parent))
    assert executable is not None
    # pre-commit appends the changed files to the entry; helpers.py is not among them.
    command = [executable, *hook()["entry"].split()[1:], "flow.py", "clean.py"]
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stdout == (
        "flow.py:7: ADK-W005 a helper that is itself unsafe is called on the workflow path (new_key)\n"
        "    new_key -> uuid.uuid4 (helpers.py:5)\n"
        "    move the helper behind an activity\n"
        "1 finding in 2 workflow modules (2 files checked).\n"
    )
    fixed = subprocess.run(
        [executable, "check", "clean.py"], cwd=tmp_path, capture_output=True, text=True
    )
    assert fixed.returncode == 0
