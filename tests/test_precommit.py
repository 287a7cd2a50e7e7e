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


def scratch_repository(path: Path) -> Path:
    path.mkdir()
    for args in (
        ["init", "-q"],
        ["config", "user.email", "dev@example.com"],
        ["config", "user.name", "dev"],
    ):
        git(path, *args)
    return path


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def try_repo(scratch: Path, home: Path, *files: str) -> subprocess.CompletedProcess[str]:
    """This repository's hook run by `pre-commit try-repo`, which installs it into an
    environment of its own, as users get it, and passes it `files`."""
    env = {**os.environ, "PRE_COMMIT_HOME": str(home)}  # hook environments of this test only
    command = [sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), "replaylint"]
    return subprocess.run(
        [*command, "--files", *files],
        cwd=scratch,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_a_helper_only_commit_fails_the_real_hook_with_the_workflows_w005(tmp_path: Path) -> None:
    """pre-commit passes only the staged helper; the unchanged workflow that calls it is still
    checked, and its ADK-W005 fails the hook."""
    scratch = scratch_repository(tmp_path / "scratch")
    (scratch / "helpers.py").write_text("def jitter():\n    return 0.5\n")
    (scratch / "flow.py").write_text(
        "from helpers import jitter\n\n__adk_workflow__ = True\n\n\ndef run():\n    return jitter()\n"
    )
    git(scratch, "add", ".")
    git(scratch, "commit", "-q", "-m", "a workflow and its helper")
    (scratch / "helpers.py").write_text(
        "import random\n\n\ndef jitter():\n    return random.uniform(0, 1)\n"
    )
    git(scratch, "add", "helpers.py")
    done = try_repo(scratch, tmp_path / "pre-commit-home", "helpers.py")
    assert done.returncode == 1, done.stdout + done.stderr
    assert (
        "flow.py:7: ADK-W005 a helper that is itself unsafe is called on the workflow path (jitter)"
        in done.stdout
    )
    assert "jitter -> random.uniform (helpers.py:5)" in done.stdout


# A Temporal workflow: its helper's own root is reported on the helper's line too.
TEMPORAL_FLOW = """from temporalio import workflow

from app.helpers import stamp


@workflow.defn
class Greeter:
    @workflow.run
    async def run(self) -> float:
        return stamp()
"""


def test_force_exclude_drops_a_named_helpers_own_findings_in_the_real_hook(
    tmp_path: Path,
) -> None:
    """pre-commit names the excluded helper too; with force-exclude its own ADK-W003 is not
    reported (as ruff drops it), while the workflow's ADK-W005 through it still is."""
    scratch = scratch_repository(tmp_path / "scratch")
    (scratch / "pyproject.toml").write_text(
        '[tool.replaylint]\nextend-exclude = ["app/helpers.py"]\nforce-exclude = true\n'
    )
    (scratch / "app").mkdir()
    (scratch / "app" / "__init__.py").write_text("")
    (scratch / "app" / "helpers.py").write_text(
        "import time\n\n\ndef stamp():\n    return time.time()\n"
    )
    (scratch / "app" / "wf.py").write_text(TEMPORAL_FLOW)
    git(scratch, "add", ".")
    done = try_repo(scratch, tmp_path / "pre-commit-home", "app/helpers.py", "app/wf.py")
    assert done.returncode == 1, done.stdout + done.stderr
    report = done.stdout[done.stdout.index("app/wf.py:") :]
    assert report.splitlines()[:4] == [
        "app/wf.py:10: ADK-W005 a helper that is itself unsafe is called on the workflow path"
        " (stamp)",
        "    stamp -> time.time (app/helpers.py:5)",
        "    move the helper into an activity run with workflow.execute_activity",
        "1 finding in 1 workflow module (1 file checked).",
    ], done.stdout
    assert "app/helpers.py:5: ADK-W003" not in done.stdout
