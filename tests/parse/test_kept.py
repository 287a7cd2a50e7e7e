"""Trees a batch keeps stay out of the collector's full passes until the batch ends, and
everything frozen goes back then (a process's own frozen objects frozen again)."""

from __future__ import annotations

import gc
import os
import select
import signal
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from replaylint.cli.main import cli
from replaylint.engine import check
from replaylint.engine.project import Project
from replaylint.index.registrars import check_with
from replaylint.parse import kept
from replaylint.project.config import Config

WORKFLOW = (
    "from temporalio import workflow\n\n"
    "from helpers import stamp\n\n\n"
    "@workflow.defn\n"
    "class Greeter:\n"
    "    @workflow.run\n"
    "    async def run(self) -> str:\n"
    "        return stamp()\n"
)
HELPERS = "import time\n\n\ndef stamp() -> str:\n    return str(time.time())\n"


class _Cycle:
    """Garbage only the cyclic collector frees (a weakref tells when it has)."""

    def __init__(self) -> None:
        self.me = self


def _dropped() -> weakref.ref[_Cycle]:
    """A cycle no one holds any more: what a finished batch's Project is."""
    return weakref.ref(_Cycle())


@pytest.fixture
def nothing_frozen() -> Iterator[None]:
    """Start with no frozen object, as the command's run wants (kept.wanted); put back what
    the process had frozen."""
    before = gc.get_freeze_count()
    gc.unfreeze()
    kept.wanted(True)
    yield
    kept.wanted(False)
    gc.unfreeze()
    if before:
        gc.freeze()


def _load(tmp_path: Path) -> Project:
    (tmp_path / "helpers.py").write_text(HELPERS)
    path = tmp_path / "flows.py"
    path.write_text(WORKFLOW)
    project = Project()
    project.load(path, path.read_bytes())
    return project


def test_modules_loaded_in_a_batch_are_frozen_until_it_ends(
    tmp_path: Path, nothing_frozen: None
) -> None:
    with kept.batch():
        project = _load(tmp_path)
        assert len(project.modules) == 2
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0


def test_outside_a_batch_nothing_is_frozen(tmp_path: Path, nothing_frozen: None) -> None:
    _load(tmp_path)
    kept.loaded()
    assert gc.get_freeze_count() == 0


def test_outside_the_command_run_a_batch_freezes_nothing(
    tmp_path: Path, nothing_frozen: None
) -> None:
    """An API caller, the editor server, the MCP tools: their threads may overlap batches."""
    kept.wanted(False)
    with kept.batch():
        _load(tmp_path)
        assert gc.get_freeze_count() == 0


def test_an_ended_batch_is_collected_before_the_next_one_freezes(nothing_frozen: None) -> None:
    """A batch's Project is garbage in cycles once it ends: the next batch's first load must
    not freeze it again with the living (memory would grow batch after batch)."""
    with kept.batch():
        kept.loaded()
        alive = _dropped()
    with kept.batch():
        kept.loaded()
        assert alive() is None


def test_garbage_frozen_at_a_load_is_freed_once_the_batch_ends(nothing_frozen: None) -> None:
    with kept.batch():
        gc.disable()  # no pass of its own between the drop and the load
        try:
            alive = _dropped()
            kept.loaded()
        finally:
            gc.enable()
        gc.collect()
        assert alive() is not None  # frozen: no pass visits it while the batch runs
    gc.collect()
    assert alive() is None


def test_the_last_of_concurrent_batches_unfreezes(tmp_path: Path, nothing_frozen: None) -> None:
    with kept.batch():
        with kept.batch():
            _load(tmp_path)
        assert gc.get_freeze_count() > 0  # the outer batch still keeps its trees
    assert gc.get_freeze_count() == 0


def test_a_process_that_froze_objects_of_its_own_keeps_its_collector(
    nothing_frozen: None,
) -> None:
    gc.freeze()  # as the editor server does after warming up
    before = gc.get_freeze_count()
    with kept.batch():
        alive = _dropped()
        kept.loaded()
        gc.collect()
        assert alive() is None  # nothing frozen at the load: collected as before
        assert gc.get_freeze_count() == before
    assert gc.get_freeze_count() == before  # its own objects stay frozen, none added


@pytest.fixture
def frozen_inside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, nothing_frozen: None
) -> list[int]:
    """A project of a workflow and its helper in the working folder, and the frozen count
    each batch's check sees once its modules are loaded (appended as it ends)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "helpers.py").write_text(HELPERS)
    (tmp_path / "flows.py").write_text(WORKFLOW)
    counts: list[int] = []
    records_of = check.check_records

    def spied(*arguments: Any, **keywords: Any) -> Any:
        records = records_of(*arguments, **keywords)
        counts.append(gc.get_freeze_count())
        return records

    monkeypatch.setattr(check, "check_records", spied)
    return counts


def test_a_batch_checked_for_the_index_keeps_its_trees_frozen_until_it_ends(
    tmp_path: Path, frozen_inside: list[int]
) -> None:
    batch = [(str(tmp_path / "flows.py"), "flows.py", WORKFLOW.encode())]
    records = check_with(Config(), batch)
    assert [r.display for r in records if r.display] == ["flows.py"]
    assert frozen_inside and frozen_inside[0] > 0
    assert gc.get_freeze_count() == 0


def _in_child(work: Callable[[], str]) -> str:
    """What `work` says in a child forked now (a child that hangs says "no answer")."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.write(write, work().encode())
        finally:
            os._exit(0)
    os.close(write)
    answered, _, _ = select.select([read], [], [], 30)
    if not answered:  # the child waits for a lock forever: the fork kept the parent's state
        os.kill(pid, signal.SIGKILL)
    with os.fdopen(read) as answer:
        said = answer.read() if answered else "no answer"
    os.waitpid(pid, 0)
    return said


def _childs_batch() -> str:
    """What a child starts with, and whether its own batch leaves anything frozen."""
    state = f"{kept._batches} {gc.get_freeze_count() > 0}"
    with kept.batch():
        kept.loaded()
    return f"{state} {gc.get_freeze_count() > 0}"


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX-only")
def test_a_child_forked_during_a_batch_starts_with_none_under_way(nothing_frozen: None) -> None:
    """Another thread of the parent forks workers while this one checks a batch in-process:
    the child must not inherit the batch (it would never unfreeze) nor a held lock."""
    with kept.batch():
        kept.loaded()
        with kept._LOCK:  # held by the parent's thread at the moment of the fork
            said = _in_child(_childs_batch)
    assert said == "0 False False"


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX-only")
def test_a_child_collects_what_its_parent_batches_left_before_freezing(
    nothing_frozen: None,
) -> None:
    with kept.batch():
        kept.loaded()
    alive = _dropped()  # as an ended batch's Project: garbage the next batch collects

    def first_batch() -> str:
        with kept.batch():
            kept.loaded()
            return "collected" if alive() is None else "frozen again"

    assert _in_child(first_batch) == "collected"


def test_the_command_run_freezes_its_batches_and_nothing_after(frozen_inside: list[int]) -> None:
    kept.wanted(False)  # as a process starts: the command sets it for its run
    result = CliRunner().invoke(cli, ["check", "--no-cache", "--jobs", "1", "flows.py"])
    assert result.exit_code == 1, result.output
    assert "flows.py:10: ADK-W005" in result.output
    assert frozen_inside and frozen_inside[0] > 0
    assert gc.get_freeze_count() == 0
    assert not kept._wanted
