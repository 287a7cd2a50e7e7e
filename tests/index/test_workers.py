"""Parallel runs that survive their workers: a worker killed once costs its batch a second run;
a module whose check kills every worker is found, reported as ADK-E001 naming the cause, and
every other module is still reported. The workers are forked (Linux), so a check patched here
is the check they run."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest

from replaylint.api import run
from replaylint.engine import check as engine
from replaylint.index import affinity, limits
from replaylint.index.cache import Cache
from replaylint.project.config import Resolver
from replaylint.report.selection import Selection, report_from
from replaylint.reporters import REPORTERS

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="forked workers inherit patches")

FLOW = "import time\n__adk_workflow__ = True\n\n\ndef run{n}():\n    return time.time()\n"
KILLER = b"# kills its worker\n"


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    for n in range(12):
        (tmp_path / f"flow{n:02}.py").write_text(FLOW.format(n=n))
    monkeypatch.setattr(affinity, "BATCH", 4)  # three batches of four
    return tmp_path


def _report(jobs: int):
    resolver = Resolver()
    return report_from(run(["."], resolver=resolver, jobs=jobs), Selection(resolver))


def _killing(monkeypatch: pytest.MonkeyPatch, marker_file: Path | None = None, once=False):
    """Make the check kill its own process when a batch holds a module marked KILLER; with
    `once`, only the first time (a worker killed from outside); with `marker_file`, note the
    death there first (as the out-of-memory killer's counter would)."""
    original = engine.check_records

    def check_records(candidates, *args, **kwargs):
        candidates = list(candidates)
        if any(KILLER in data for _, _, data in candidates):
            before = marker_file.read_text().count("killed") if marker_file else 0
            if marker_file is not None:
                with open(marker_file, "a") as notes:
                    notes.write("killed\n")
            if not once or before == 0:
                os.kill(os.getpid(), signal.SIGKILL)
        return original(candidates, *args, **kwargs)

    monkeypatch.setattr(engine, "check_records", check_records)


def test_a_module_that_kills_every_worker_is_e001_naming_the_signal(tree: Path, monkeypatch):
    (tree / "flow05.py").write_bytes(FLOW.format(n=5).encode() + KILLER)
    _killing(monkeypatch)
    report = _report(jobs=2)
    e001 = [f for f in report.findings if f.code.value == "ADK-E001"]
    assert [(f.path, f.line) for f in e001] == [("flow05.py", 1)]
    assert "killed by signal SIGKILL" in e001[0].call
    checked = sorted(f.path for f in report.findings if f.code.value == "ADK-W003")
    assert checked == [f"flow{n:02}.py" for n in range(12) if n != 5]
    assert report.exit_code == 1


def test_a_worker_killed_once_costs_nothing_but_a_second_run(tree: Path, monkeypatch, tmp_path):
    expected = REPORTERS["json"](_report(jobs=1))
    (tree / "flow05.py").write_bytes(FLOW.format(n=5).encode() + KILLER)
    serial = REPORTERS["json"](_report(jobs=1))
    (tmp_path / "deaths.txt").write_text("")
    _killing(monkeypatch, tmp_path / "deaths.txt", once=True)
    assert REPORTERS["json"](_report(jobs=2)) == serial
    assert "ADK-E001" not in serial and serial.count("ADK-W003") == expected.count("ADK-W003")


def test_a_death_the_out_of_memory_killer_counted_is_named_memory(tree: Path, monkeypatch):
    deaths = tree.parent / "oom.txt"
    deaths.write_text("")
    (tree / "flow07.py").write_bytes(FLOW.format(n=7).encode() + KILLER)
    _killing(monkeypatch, deaths)
    monkeypatch.setattr(limits, "oom_kills", lambda *_: deaths.read_text().count("killed"))
    report = _report(jobs=2)
    [e001] = [f for f in report.findings if f.code.value == "ADK-E001"]
    assert e001.path == "flow07.py"
    assert "ran out of memory" in e001.call
    assert "more memory" in e001.remedy
    assert len([f for f in report.findings if f.code.value == "ADK-W003"]) == 11


def test_the_text_report_of_a_surviving_run_names_the_module_and_the_rest(tree, monkeypatch):
    (tree / "flow11.py").write_bytes(FLOW.format(n=11).encode() + KILLER)
    _killing(monkeypatch)
    report = _report(jobs=2)
    text = REPORTERS["text"](report)
    assert "flow11.py:1: ADK-E001" in text and "the process checking it was killed" in text
    assert text.count(": ADK-W003 ") == 11
    # The killed module is a workflow module nobody checked: the summary counts it, as JUnit's
    # cases do (an error there).
    assert text.endswith("12 findings in 12 workflow modules (12 files checked).\n")
    junit = REPORTERS["junit"](report)
    assert '<testsuite name="replaylint" tests="12" failures="11" errors="1"' in junit


def test_an_abort_under_an_address_space_limit_is_named_memory(monkeypatch) -> None:
    from replaylint.index.workers import _death

    monkeypatch.setattr(limits, "address_space_limit", lambda: 700 << 20)
    assert _death(-signal.SIGABRT, False).cause == "memory"
    assert "address-space limit of 700 MB" in _death(-signal.SIGABRT, False).detail
    assert _death(-signal.SIGKILL, False).cause == "signal"  # killed from outside
    assert _death(-signal.SIGKILL, True).cause == "memory"  # the out-of-memory killer counted it
    monkeypatch.setattr(limits, "address_space_limit", lambda: None)
    assert _death(-signal.SIGABRT, False).detail == "was killed by signal SIGABRT (6)"
    assert _death(3, False).detail == "exited with status 3"


REGISTRAR = (
    "# Run by a worker under UnsandboxedWorkflowRunner.\n"
    "import time\n\n"
    "from temporalio import workflow\n\n\n"
    "@workflow.defn\n"
    "class Flow{n}:\n"
    "    @workflow.run\n"
    "    async def run(self) -> float:\n"
    "        return time.time()\n"
)


def test_a_registrar_that_kills_every_worker_in_a_batch_of_parts_is_e001(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """Registrars that read nothing in common are parts of their own, packed into one batch:
    the batch halved after its worker died twice is checked part by part all the same."""
    monkeypatch.chdir(tmp_path)
    for n in range(4):
        text = REGISTRAR.format(n=n).encode() + (KILLER if n == 2 else b"")
        (tmp_path / f"worker{n}.py").write_bytes(text)
    for n in range(3):
        (tmp_path / f"flow{n:02}.py").write_text(FLOW.format(n=n))
    original = engine.check_registrars

    def check_registrars(candidates, *args, **kwargs):
        candidates = list(candidates)
        if any(KILLER in data for _, _, data in candidates):
            os.kill(os.getpid(), signal.SIGKILL)
        return original(candidates, *args, **kwargs)

    monkeypatch.setattr(engine, "check_registrars", check_registrars)
    resolver = Resolver()  # with an index: each registrar a part, the four in one batch
    outcome = run(["."], resolver=resolver, jobs=2, cache=Cache(tmp_path / ".cache"))
    report = report_from(outcome, Selection(resolver))
    found = sorted((f.path, f.code.value) for f in report.findings)
    assert found == [
        ("flow00.py", "ADK-W003"),
        ("flow01.py", "ADK-W003"),
        ("flow02.py", "ADK-W003"),
        ("worker0.py", "ADK-W003"),
        ("worker1.py", "ADK-W003"),
        ("worker2.py", "ADK-E001"),
        ("worker3.py", "ADK-W003"),
    ]
