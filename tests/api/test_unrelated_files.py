"""Named files are checked whatever other files and folders of their project hold: a helper
that does not parse is ADK-E001 on itself (its importers not fully checked); another folder's
broken settings, or a broken file nothing named reaches, stop nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

FLOW = """\
from temporalio import workflow


@workflow.defn
class Flow:
    @workflow.run
    async def run(self) -> int:
        return 1
"""


def _replaylint(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "replaylint", "check", "--no-cache", *args]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=120)


def test_a_named_file_is_not_stopped_by_another_folders_settings_or_syntax(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "flow.py").write_text(FLOW)
    deep = tmp_path / "other" / "deep"
    deep.mkdir(parents=True)
    (deep / "pyproject.toml").write_text("[tool.replaylint]\nnot-a-key = 1\n")
    (deep / "wf.py").write_text(FLOW.replace("return 1", "return ("))
    named = _replaylint(tmp_path, "app/flow.py")
    assert (named.returncode, named.stderr) == (0, "")
    assert named.stdout == "0 findings in 1 workflow module (1 file checked).\n"
    whole = _replaylint(tmp_path, ".")
    assert whole.returncode == 2  # checking that folder itself reads its settings
    assert "not-a-key: unknown key" in whole.stderr


def test_a_run_that_recognises_no_workflow_module_says_so(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "tool.py").write_text("import time\n\n\ndef now():\n    return time.time()\n")
    done = _replaylint(tmp_path, ".")
    assert done.returncode == 0
    assert done.stdout == "0 findings in 0 workflow modules (1 file checked).\n"
    [note] = done.stderr.splitlines()
    assert note.startswith("replaylint: note: no workflow module in 1 file checked")
    assert "__adk_workflow__ = True" in note and "workflow-bases" in note
    quiet = _replaylint(tmp_path, "-q", ".")
    assert quiet.stderr == ""
