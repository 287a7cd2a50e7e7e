"""Rewrites that keep a program's meaning keep its findings: formatting, reordering definitions."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from replaylint import guard

FIXTURES = Path(__file__).parent / "rules"


def findings(root: Path, monkeypatch: pytest.MonkeyPatch) -> Counter[tuple[str, str, str]]:
    monkeypatch.chdir(root)
    return Counter((f.path, f.code.value, f.call) for f in guard(".").findings)


def test_ruff_format_changes_no_finding(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Lines move and calls are split over lines; suppressions move to closing brackets.
    original, formatted = tmp_path / "original", tmp_path / "formatted"
    shutil.copytree(FIXTURES, original)
    shutil.copytree(FIXTURES, formatted)
    subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--isolated", "--quiet", str(formatted)],
        check=False,  # the fixtures Python refuses stay as they are
        timeout=120,
    )
    changed = [
        p
        for p in formatted.rglob("*.py")
        if p.read_bytes() != (original / p.relative_to(formatted)).read_bytes()
    ]
    assert len(changed) > 10  # the rewrite really moved code
    assert findings(formatted, monkeypatch) == findings(original, monkeypatch)


def test_reordering_top_level_definitions_changes_no_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    parts = [
        "def setup():\n    global clock\n    clock = time.time\n",
        "def run():\n    return clock() + later()\n",
        "def later():\n    return pick()()\n",
        "def pick():\n    return lambda: random.random()\n",
        "def guard_ok():\n    return workflow.in_workflow()\n",
        "def main():\n    if not guard_ok():\n        return uuid.uuid4()\n    return 0\n",
    ]
    head = "import random, time, uuid\nfrom temporalio import workflow\n__adk_workflow__ = True\nclock = None\n"
    (tmp_path / "forward.py").write_text(head + "".join(parts))
    (tmp_path / "backward.py").write_text(head + "".join(reversed(parts)))
    found = findings(tmp_path, monkeypatch)
    by_file = {
        name: sorted(
            (code, call)
            for (path, code, call), n in found.items()
            if path == name
            for _ in range(n)
        )
        for name in ("forward.py", "backward.py")
    }
    assert by_file["forward.py"] == by_file["backward.py"]
    assert ("ADK-W003", "clock") in by_file["forward.py"]
