"""`check --watch` run as a user runs it: the real command, a file edited, the new report."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

UNSAFE = "import time\n\n__adk_workflow__ = True\n\n\ndef run():\n    return time.time()\n"
CLEAN = "__adk_workflow__ = True\n\n\ndef run():\n    return 1\n"


def _read_until(process: subprocess.Popen[str], text: str, seen: list[str]) -> None:
    deadline = time.monotonic() + 30
    assert process.stdout is not None
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        seen.append(line)
        if text in line:
            return
    raise AssertionError(f"{text!r} never printed; got {''.join(seen)!r}")


def test_watch_checks_again_when_a_file_changes(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    flow = tmp_path / "wf.py"
    flow.write_text(UNSAFE)
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "CI")}
    process = subprocess.Popen(
        [sys.executable, "-m", "replaylint", "check", "--watch", "--output-format", "concise"],
        cwd=tmp_path,
        env={**env, "PYTHONUNBUFFERED": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    seen: list[str] = []
    try:
        _read_until(process, "Watching for file changes.", seen)
        assert (
            "wf.py:7:12: ADK-W003 the wall clock is used on the workflow path (time.time)\n" in seen
        )
        assert seen[0].endswith("Starting replaylint in watch mode...\n")
        seen.clear()
        time.sleep(0.3)
        flow.write_text(CLEAN)
        _read_until(process, "Watching for file changes.", seen)
        assert any(line.endswith("1 changed: wf.py\n") for line in seen), seen
        assert "0 findings in 1 workflow module (1 file checked).\n" in seen
        assert (tmp_path / ".replaylint_cache").is_dir()  # re-checks go through the index
    finally:
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=20) == 0
