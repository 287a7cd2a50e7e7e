"""The pre-commit hook: its definition, and its entry run the way pre-commit runs it."""

from __future__ import annotations

import os
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


def test_a_helper_only_commit_fails_the_real_hook_with_the_workflows_w005(tmp_path: Path) -> None:
    """pre-commit passes only the staged helper; the unchanged workflow that calls it is still
    checked, and its ADK-W005 fails the hook. Driven through `pre-commit try-repo`, which
    installs this repository's hook into an environment of its own, as users get it."""
    scratch = tmp_path / "scratch"
    scratch.mkdir()

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=scratch, check=True, capture_output=True)

    git("init", "-q")
    git("config", "user.email", "dev@example.com")
    git("config", "user.name", "dev")
    (scratch / "helpers.py").write_text("def jitter():\n    return 0.5\n")
    (scratch / "flow.py").write_text(
        "from helpers import jitter\n\n__adk_workflow__ = True\n\n\ndef run():\n    return jitter()\n"
    )
    git("add", ".")
    git("commit", "-q", "-m", "a workflow and its helper")
    (scratch / "helpers.py").write_text(
        "import random\n\n\ndef jitter():\n    return random.uniform(0, 1)\n"
    )
    git("add", "helpers.py")
    home = tmp_path / "pre-commit-home"  # hook environments of this test only
    env = {**os.environ, "PRE_COMMIT_HOME": str(home)}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pre_commit",
            "try-repo",
            str(ROOT),
            "replaylint",
            "--files",
            "helpers.py",
        ],
        cwd=scratch,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert (
        "flow.py:7: ADK-W005 a helper that is itself unsafe is called on the workflow path (jitter)"
        in done.stdout
    )
    assert "jitter -> random.uniform (helpers.py:5)" in done.stdout
