"""The worker forked when a run with an index meets a changed file (index/prefetch.py): what
changed is checked there, with LibCST imported meanwhile, and reported as a run without it
reports; a run that finds nothing changed never starts one, and one whose worker died checks
in-process."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from replaylint.cli.main import cli
from replaylint.index import pools, prefetch, running, stamps, survival
from replaylint.index.prefetch import Prefetched
from replaylint.index.workers import Workers

WORKFLOW = """\
import time

from temporalio import workflow

from helpers import stamp


@workflow.defn
class Flow{n}:
    @workflow.run
    async def run(self) -> float:
        return stamp() + {n}
"""
HELPERS = "import time\n\n\ndef stamp() -> float:\n    return time.time()\n"


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A project checked once (its index stored); the answers the worker gave, in order."""
    monkeypatch.chdir(tmp_path)
    for name in ("FORCE_COLOR", "NO_COLOR", "CI"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "helpers.py").write_text(HELPERS)
    for n in range(3):
        (tmp_path / f"flow{n}.py").write_text(WORKFLOW.format(n=n))
    # Files written just before the index are read again (stamps.py): here, they are not.
    monkeypatch.setattr(stamps, "RACY_SECONDS", 0.0)
    _check("2")
    answers: list[str] = []
    run = Prefetched.run.__func__  # type: ignore[attr-defined]

    def spied(cls: type[Prefetched], function: Any, *arguments: Any) -> Any:
        started = cls.workers is not None
        answer = run(cls, function, *arguments)
        if started:
            answers.append("unused" if prefetch.unused(answer) else "records")
        return answer

    monkeypatch.setattr(Prefetched, "run", classmethod(spied))
    return answers


def _check(jobs: str) -> list[str]:
    result = CliRunner().invoke(cli, ["check", "--cache-dir", "cache", "--jobs", jobs, "."])
    assert result.exit_code == 1, result.output
    assert Prefetched.workers is None  # stopped, whatever the run did
    return result.stdout.splitlines()


def test_an_edited_module_is_checked_in_the_worker_with_the_same_report(
    project: list[str],
) -> None:
    Path("flow1.py").write_text(WORKFLOW.format(n=1).replace("+ 1", "+ 10"))
    in_worker = _check("2")
    assert project == ["records"]
    Path("flow1.py").write_text(WORKFLOW.format(n=1).replace("+ 1", "+ 11"))
    alone = _check("1")  # one job: no worker is started
    assert project == ["records"]
    assert in_worker == alone
    assert in_worker[-1] == "4 findings (from 1 cause) in 3 workflow modules (4 files checked)."


def test_a_run_with_nothing_changed_never_starts_the_worker(
    project: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[bool] = []
    start = Prefetched.start.__func__  # type: ignore[attr-defined]

    def counted(cls: type[Prefetched]) -> None:
        started.append(cls.allowed)
        start(cls)

    monkeypatch.setattr(Prefetched, "start", classmethod(counted))
    assert _check("2")[-1].startswith("4 findings")
    assert (started, project) == ([], [])
    Path("flow2.py").write_text(WORKFLOW.format(n=2) + "\n# changed\n")
    assert _check("2")[-1].startswith("4 findings")
    assert (started, project) == ([True], ["records"])


def test_a_worker_that_died_leaves_the_batch_to_this_process(
    project: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run = Prefetched.run.__func__  # type: ignore[attr-defined]

    def dies_first(cls: type[Prefetched], function: Any, *arguments: Any) -> Any:
        assert prefetch.unused(run(cls, _die))  # the worker dies: nothing comes back
        assert cls.workers is None  # and it is not asked again
        return run(cls, function, *arguments)

    monkeypatch.setattr(Prefetched, "run", classmethod(dies_first))
    Path("helpers.py").write_text(HELPERS + "\n\nEPOCH = 0\n")
    assert _check("2") == _check("1")


def test_a_warm_up_that_died_is_replaced_by_a_fresh_worker(project: list[str]) -> None:
    Prefetched.start()
    assert Prefetched.workers is None  # not allowed: the command allows it for a run
    Prefetched.allow()
    Prefetched.start()
    assert Prefetched.workers is not None
    (worker,) = Prefetched.workers._workers
    os.kill(worker.process.pid, signal.SIGKILL)
    worker.process.join()
    try:
        assert Prefetched.run(os.getpid) not in (os.getpid(), None)
    finally:
        Prefetched.stop()


def _die() -> None:
    os._exit(3)


def test_a_fork_that_fails_leaves_the_run_without_the_worker(
    project: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_process(self: Workers[Any]) -> None:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(Workers, "begin", no_process)
    Path("flow1.py").write_text(WORKFLOW.format(n=1) + "\n# changed\n")
    result = CliRunner().invoke(cli, ["check", "--cache-dir", "cache", "--jobs", "2", "flow1.py"])
    assert result.exit_code == 1, result.output
    last = result.stdout.splitlines()[-1]
    assert last == "2 findings (from 1 cause) in 1 workflow module (1 file checked)."
    assert project == [] and Prefetched.workers is None


def test_batches_that_go_to_a_pool_end_the_worker_first(
    project: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[object] = []
    surviving = survival.check_surviving

    def spied(*arguments: Any, **keywords: Any) -> Any:
        seen.append(Prefetched.workers)
        return surviving(*arguments, **keywords)

    monkeypatch.setattr(survival, "check_surviving", spied)
    monkeypatch.setattr(pools, "IN_PROCESS_BYTES", 0)  # every batch to a pool
    monkeypatch.setattr(running, "IN_PROCESS_BYTES", 0)
    Path("flow1.py").write_text(WORKFLOW.format(n=1) + "\n# changed\n")
    assert _check("2")[-1].startswith("4 findings")
    assert seen and all(workers is None for workers in seen)
