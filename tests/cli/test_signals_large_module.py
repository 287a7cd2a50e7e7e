"""Signals while one large module is checked: the run stops within a second.

LibCST's native parser holds the interpreter lock for seconds on a module near the size limit,
so a module that large is checked in a worker (index/pools.py IN_PROCESS_BYTES) and the main
process, free to run its handler, stops at once; the threads that check in the main process
leave the stopping signals to the main thread (parse/stacks.py)."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from replaylint.index.pools import IN_PROCESS_BYTES
from replaylint.parse import stacks

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="forked workers, /proc")

HELPER = """
def helper_{n}(x: int) -> int:
    y = x + {n} * 2 - (x // 3) + len(str(x))
    if y % 2:
        y += 1
    return y
"""
PROMPTLY = 1.0  # seconds from the signal to the end of the process


@pytest.fixture(scope="module")
def large(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A workflow module of about 900 KB: seconds of parsing, under the 1 MiB size limit."""
    root = tmp_path_factory.mktemp("large")
    parts = ["import time\n\n__adk_workflow__ = True\n"]
    parts += [HELPER.format(n=n) for n in range(7500)]
    parts.append("\n\ndef run():\n    return time.time()\n")
    text = "".join(parts)
    assert 800_000 < len(text) < 1 << 20 and len(text) > IN_PROCESS_BYTES
    (root / "huge.py").write_text(text)
    return root


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


@pytest.mark.parametrize(("sent", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_stops_a_single_file_run_within_a_second(large: Path, sent, status) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "replaylint", "check", "--no-cache", "huge.py"],
        cwd=large,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 20
    while not _children(process.pid):  # the worker checking the module has started
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the check never began"
        time.sleep(0.02)
    time.sleep(0.5)  # into the parse
    assert process.poll() is None
    signalled = time.monotonic()
    process.send_signal(sent)
    out, err = process.communicate(timeout=20)
    took = time.monotonic() - signalled
    assert (process.returncode, out, err) == (
        status,
        b"",
        f"replaylint: stopped by {signal.Signals(sent).name}\n".encode(),
    )
    assert took < PROMPTLY, took


def test_a_thread_that_checks_blocks_the_stopping_signals() -> None:
    def mask() -> set[int]:
        return set(signal.pthread_sigmask(signal.SIG_BLOCK, []))

    seen = stacks.on_fresh_stack(mask, 16 * stacks.MIB, "test-mask")
    assert {signal.SIGINT, signal.SIGTERM} <= seen
    assert threading.current_thread() is threading.main_thread()
    assert not {signal.SIGINT, signal.SIGTERM} & mask()  # the caller's own mask is back
