"""Signals during `replaylint check`: SIGINT and SIGTERM stop the run (exit 130 and 143) without
waiting for it to end, the workers end with it, a second Ctrl-C exits at once, and a killed
main process leaves no worker holding the caller's pipe open.

Each run checks modules whose check is patched to sleep for ten minutes (in the workers too:
they are forked), so a run that went on to its end could not pass; the bounds below are
generous for a loaded machine and far below that."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="forked workers, /proc")

FLOW = "import time\n__adk_workflow__ = True\n\n\ndef run():\n    return time.time()\n"
# `replaylint check ARGS` in a process whose check first notes its pid, then sleeps.
SCRIPT = """
import os, sys, time
from replaylint.engine import check as engine
from replaylint.index.workers import Workers

original = engine.check_records

def sleeping(candidates, *args, **kwargs):
    if os.environ.get("SLEEP_ONCE"):  # only the first check sleeps (and is killed)
        try:
            os.close(os.open(os.environ["CHECKING"] + ".once", os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            return original(candidates, *args, **kwargs)
    with open(os.environ["CHECKING"], "a") as notes:
        notes.write(f"{os.getpid()}\\n")
    time.sleep(600)

engine.check_records = sleeping
if os.environ.get("SLOW_CLEANUP"):  # the first signal's cleanup hangs: only a second ends it
    Workers.close = lambda self, kill=False: time.sleep(600)
from replaylint.cli.main import main
sys.argv = ["replaylint", "check", *sys.argv[1:]]
main()
"""
SOON = 20.0  # seconds: for the run to begin, and for it to end once signalled


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "tree"
    root.mkdir()
    for n in range(60):
        (root / f"flow{n:02}.py").write_text(FLOW)
    return root


def _start(
    tree: Path, *args: str, slow_cleanup: bool = False, sleep_once: bool = False
) -> tuple[subprocess.Popen, Path]:
    notes = tree.parent / "checking.txt"
    env = {**os.environ, "CHECKING": str(notes)}
    if slow_cleanup:
        env["SLOW_CLEANUP"] = "1"
    if sleep_once:
        env["SLEEP_ONCE"] = "1"
    process = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, *args, "."],
        cwd=tree,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + SOON
    while not (notes.exists() and notes.read_text().strip()):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the check never began"
        time.sleep(0.05)
    return process, notes


def _alive(pid: int) -> bool:
    """Running, as opposed to gone or a zombie waiting for whoever adopted it."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "State:\tZ" not in status and "State:\tX" not in status


def _wait_gone(pids: list[int]) -> list[int]:
    deadline = time.monotonic() + SOON
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return [p for p in pids if _alive(p)]


def _pids(notes: Path) -> list[int]:
    return [int(line) for line in notes.read_text().split()]


@pytest.mark.parametrize(("sent", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_signal_stops_the_run_at_once_with_its_status(tree: Path, sent, status, jobs) -> None:
    process, notes = _start(tree, "--jobs", jobs)
    process.send_signal(sent)
    out, err = process.communicate(timeout=SOON)
    assert process.returncode == status
    assert out == b""  # no report, not even part of one
    assert signal.Signals(sent).name.encode() in err
    assert _wait_gone(_pids(notes)) == []


def test_the_cache_is_left_whole_when_a_run_is_stopped(tree: Path) -> None:
    cache = tree.parent / "cache"
    process, _ = _start(tree, "--jobs", "2", "--cache-dir", str(cache))
    process.send_signal(signal.SIGTERM)
    process.communicate(timeout=SOON)
    assert process.returncode == 143
    assert not [p for p in cache.rglob("*") if p.is_file() and p.suffix == ".tmp"]
    assert not list(cache.rglob("*.json"))  # nothing of the stopped run was stored


def test_a_second_ctrl_c_exits_at_once(tree: Path) -> None:
    process, notes = _start(tree, "--jobs", "2", slow_cleanup=True)
    process.send_signal(signal.SIGINT)
    time.sleep(1.0)  # the first one's cleanup is stuck (patched to sleep)
    assert process.poll() is None
    process.send_signal(signal.SIGINT)
    process.communicate(timeout=SOON)
    assert process.returncode == 130
    assert _wait_gone(_pids(notes)) == []


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_workers_never_outlive_a_killed_main_process(tree: Path, jobs: str) -> None:
    process, notes = _start(tree, "--jobs", jobs)
    process.kill()
    # The caller's pipe reaches its end: no worker is left holding it open.
    out, _ = process.communicate(timeout=SOON)
    assert process.returncode == -signal.SIGKILL
    assert _wait_gone(_pids(notes)) == []


@pytest.mark.parametrize("sent", [signal.SIGTERM, signal.SIGKILL])
def test_a_worker_killed_from_outside_costs_the_run_nothing(tree: Path, sent) -> None:
    expected = subprocess.run(
        [sys.executable, "-m", "replaylint", "check", "--no-cache", "--jobs", "1", "."],
        cwd=tree,
        capture_output=True,
    )
    process, notes = _start(tree, "--no-cache", "--jobs", "2", sleep_once=True)
    [worker] = _pids(notes)
    os.kill(worker, sent)  # its batch is run again, in a fresh worker
    out, err = process.communicate(timeout=SOON * 3)
    assert (process.returncode, out) == (expected.returncode, expected.stdout)
    assert expected.returncode == 1 and out.count(b"ADK-W003") == 60
