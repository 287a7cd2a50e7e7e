"""Rule-page examples of two versions (blocks labelled `base/<file>` and `new/<file>`) run
through the comparison: the base committed in a new repository, the new version written over
it, and the findings matched against the new files' `# expect:` markers."""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

from replaylint.api.testing import Expected, compare_findings, expectations
from replaylint.versioning.check import check_against

BASE, NEW = "base/", "new/"
_GIT = ["git", "-c", "user.name=replaylint", "-c", "user.email=dev@replaylint.invalid"]


def is_pair(files: dict[str, str]) -> bool:
    return any(name.startswith(BASE) for name in files)


def run_pair(files: dict[str, str]) -> tuple[list[Expected], list[str]]:
    """(markers no finding matched, findings no marker asked for), as api.testing's compare."""
    base = {n[len(BASE) :]: t for n, t in files.items() if n.startswith(BASE)}
    new = {n[len(NEW) :]: t for n, t in files.items() if n.startswith(NEW)}
    with tempfile.TemporaryDirectory(prefix="replaylint-pair-") as folder:
        root = Path(folder)
        _write(root, base)
        for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "base"]):
            subprocess.run([*_GIT, *args], cwd=root, check=True, capture_output=True)
        for name in base:
            (root / name).unlink()
        _write(root, new)
        cwd = os.getcwd()
        os.chdir(root)
        try:
            result = check_against("HEAD")
        finally:
            os.chdir(cwd)
    expected = {e for name, text in new.items() for e in expectations(text, name)}
    missing, unexpected = compare_findings(result.findings, expected)
    return missing, unexpected + [f"error: {e}" for e in result.errors]


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
