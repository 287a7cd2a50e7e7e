"""The cache never trusts a restored mtime: an edit of the same size whose mtime is put back
(`rsync -a`, `cp -p`, `tar -x`, reproducible-build tools) is seen on the next run, in a
workflow module, in a helper it reaches, and in a module that became a workflow; the warm run
reports byte for byte what a cold one does."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from replaylint.api import run
from replaylint.index import stamps
from replaylint.index.cache import Cache
from replaylint.project.config import Resolver
from replaylint.report.selection import Selection, report_from
from replaylint.reporters import REPORTERS

HELPER_UNSAFE = "import random\n\n\ndef jitter():\n    return random.uniform(0, 1)\n"
HELPER = HELPER_UNSAFE.replace("random.uniform(0, 1)", "0.5".ljust(20))  # the same size
FLOW = (
    "import time\n"
    "from helpers import jitter\n"
    "__adk_workflow__ = True\n\n\n"
    "def run():\n"
    "    started = 12.00000000\n"
    "    return jitter() + started\n"
)
FLOW_CLOCK = FLOW.replace("12.00000000", "time.time()")
PLAIN = "import time\n__adk_workflow__ = False\n\n\ndef run():\n    return time.time()\n"
BECAME = PLAIN.replace("False", "True ")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    # Files this test writes are seconds old at most: without this, the racy-clean rule would
    # read every one of them again anyway, and the stamps would go untested.
    monkeypatch.setattr(stamps, "RACY_SECONDS", 0.0)
    root = tmp_path / "project"
    root.mkdir()
    (root / "helpers.py").write_text(HELPER)
    (root / "flow.py").write_text(FLOW)
    (root / "plain.py").write_text(PLAIN)
    for path in root.iterdir():  # written long ago, as far as their mtimes tell
        os.utime(path, ns=(10**18, 10**18))
    monkeypatch.chdir(root)
    return root


def _check(cache: Cache | None) -> str:
    resolver = Resolver()
    report = report_from(run(["."], resolver=resolver, cache=cache), Selection(resolver))
    return REPORTERS["text"](report) + REPORTERS["json"](report)


def _same_size_edit(path: Path, text: str, how: str = "write") -> None:
    """Replace `path`'s bytes with `text` (the same size), then put its old times back."""
    before = path.stat()
    assert len(text.encode()) == before.st_size
    while True:
        if how == "write":  # an editor, then `touch -d` / a reproducible-build tool
            path.write_text(text)
        elif how == "copy":  # `cp -p` of a file prepared elsewhere
            source = path.with_suffix(".new")
            source.write_text(text)
            os.utime(source, ns=(before.st_atime_ns, before.st_mtime_ns))
            shutil.copy2(source, path)
            source.unlink()
        else:  # `rsync -a` / `tar -x`: a new file renamed over the old one
            temporary = path.with_suffix(".part")
            temporary.write_text(text)
            os.replace(temporary, path)
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
        if path.stat().st_ctime_ns != before.st_ctime_ns or path.stat().st_ino != before.st_ino:
            return
        time.sleep(0.01)  # the same clock tick as the first write: let the kernel's clock move


@pytest.mark.parametrize("how", ["write", "copy", "rename"])
def test_a_workflow_edited_under_its_old_mtime_is_checked_again(project: Path, tmp_path, how):
    cache = Cache(tmp_path / "cache")
    _check(cache)
    _same_size_edit(project / "flow.py", FLOW_CLOCK, how)
    warm = _check(cache)
    assert warm == _check(None)
    assert "flow.py:7: ADK-W003" in warm


def test_a_helper_edited_under_its_old_mtime_is_seen_by_its_workflow(project: Path, tmp_path):
    cache = Cache(tmp_path / "cache")
    _check(cache)
    _same_size_edit(project / "helpers.py", HELPER_UNSAFE)
    warm = _check(cache)
    assert warm == _check(None)
    assert "flow.py:8: ADK-W005" in warm


def test_a_module_that_became_a_workflow_under_its_old_mtime_is_checked(project, tmp_path):
    cache = Cache(tmp_path / "cache")
    assert "plain.py" not in _check(cache)
    _same_size_edit(project / "plain.py", BECAME, "copy")
    warm = _check(cache)
    assert warm == _check(None)
    assert "plain.py:6: ADK-W003" in warm


def test_content_unchanged_under_new_times_is_reused(project: Path, tmp_path, checked):
    cache = Cache(tmp_path / "cache")
    _check(cache)
    os.utime(project / "flow.py", ns=(1, 1))  # touched, or checked out again: same bytes
    checked.clear()
    assert _check(cache) == _check(None)
    assert checked.count("flow.py") == 1  # only the cold run above parsed it


@pytest.mark.parametrize("damage", [None, 7, [1, 2], [[1, 2, 3, 4, "x"], "", 0], ["a", "", 0]])
def test_a_damaged_file_entry_is_decided_afresh(project: Path, tmp_path, damage) -> None:
    import json

    cache = Cache(tmp_path / "cache")
    expected = _check(cache)
    [index] = (tmp_path / "cache").rglob("*.json")
    data = json.loads(index.read_text())
    for path in data["files"]:
        data["files"][path] = damage
    index.write_text(json.dumps(data))
    assert _check(cache) == expected


@pytest.mark.parametrize("part", ["files", "records", "tree", "extras", "written"])
def test_a_part_of_the_index_damaged_into_other_json_is_rebuilt(project: Path, tmp_path, part):
    import json

    cache = Cache(tmp_path / "cache")
    expected = _check(cache)
    [index] = (tmp_path / "cache").rglob("*.json")
    data = json.loads(index.read_text())
    if part == "records":  # each record damaged
        data[part] = {path: [1, 2] for path in data["records"]}
    else:
        data[part] = [["not", "what", "was", "written"]]
    index.write_text(json.dumps(data))
    assert _check(cache) == expected
