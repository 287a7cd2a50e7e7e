"""Run one function call in a child process with a time limit: no exit or hang of its code ends ours.

The call's JSON result comes back over a pipe (forked) or a file (spawned); whatever the
code does to its process (``os._exit``, a crash, a hang, a signal) the caller gets an
`Ended` saying how the child ended instead. On POSIX the child is forked: it starts with
everything the caller has (imported modules, sys.path, test doubles), at a cost of a few
milliseconds. A fresh interpreter is spawned instead where fork is missing (Windows) or
unsafe: when the process runs threads Python did not start (a Rust or C runtime's, such
as temporalio's), whose locks a forked child could inherit held.
"""

from __future__ import annotations

import contextlib
import faulthandler
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

# A child whose code ended it without an answer says why in its last line of output.
_LAST_WORDS = 200


@dataclass(frozen=True)
class Ended:
    """A child that gave no answer: stopped at the time limit, or ended by its own code."""

    timed_out: bool
    exit_status: int | None = None  # the status it exited with, if it exited
    signal_name: str | None = None  # the signal that killed it, if one did
    last_words: str = ""  # the last line it wrote to stdout or stderr


def run_isolated(
    function: Callable[..., Any],
    args: tuple[Any, ...],
    *,
    timeout: float | None,
    method: str | None = None,
) -> Any:
    """``function(*args)`` in a child process: its JSON-able result, or an `Ended`.

    `function` must be a module-level function taking and returning JSON values (a
    spawned child imports it by name). `method` is "fork" or "spawn"; None chooses fork
    where it is safe. `timeout` in seconds, None for no limit.
    """
    chosen = method or ("fork" if fork_is_safe() else "spawn")
    with tempfile.TemporaryFile() as output:
        if chosen == "fork":
            return _forked(function, args, timeout, output)
        return _spawned(function, args, timeout, output)


def fork_is_safe() -> bool:
    """Can this process fork a child that runs Python code? Not with foreign threads running."""
    if not hasattr(os, "fork"):
        return False
    try:
        native = len(os.listdir("/proc/self/task"))
    except OSError:  # no /proc (macOS): only a single-threaded process is sure to be safe
        return threading.active_count() == 1
    return native <= threading.active_count()


def _forked(
    function: Callable[..., Any], args: tuple[Any, ...], timeout: float | None, output: IO[bytes]
) -> Any:
    read_end, write_end = os.pipe()
    for stream in (sys.stdout, sys.stderr):  # nothing buffered is written twice
        with contextlib.suppress(Exception):
            stream.flush()
    with warnings.catch_warnings():
        # Python 3.12+ warns about forking a process with threads; fork_is_safe() decided.
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(read_end)
        _child(function, args, write_end, output.fileno())
    os.close(write_end)
    with contextlib.suppress(OSError):
        os.setpgid(pid, pid)  # also done by the child: whichever runs first
    try:
        answer, waited = _read_answer(read_end, pid, timeout)
    except BaseException:  # KeyboardInterrupt: the child goes with us
        _kill(pid)
        raise
    finally:
        os.close(read_end)
    if waited is None:
        _kill(pid)
        return Ended(timed_out=True, last_words=_last_words(output))
    return _decoded(answer, waited, output)


def _child(function: Callable[..., Any], args: tuple[Any, ...], answer: int, output: int) -> None:
    status = 70  # what the process exits with when the call itself raised
    try:
        with contextlib.suppress(OSError):
            os.setpgid(0, 0)  # its own group: the caller can stop it with all it started
        _redirect_output(output)
        payload = json.dumps({"value": function(*args)}).encode("utf-8")
        with open(answer, "wb", closefd=False) as pipe:
            pipe.write(payload)
        status = 0
    except BaseException:
        with contextlib.suppress(BaseException):
            import traceback

            traceback.print_exc()
            sys.stderr.flush()
    finally:
        os._exit(status)  # no cleanup of what the caller owns: its buffers, atexit, loops


def _redirect_output(output: int) -> None:
    """The child's prints go to `output` (kept for its last words), never to the caller's stdout."""
    with open(os.devnull, "rb") as devnull:
        os.dup2(devnull.fileno(), 0)
    os.dup2(output, 1)
    os.dup2(output, 2)
    # Line-buffered, so what was printed before an abrupt end is there to be read.
    sys.stdout = open(1, "w", buffering=1, encoding="utf-8", errors="replace", closefd=False)
    sys.stderr = open(2, "w", buffering=1, encoding="utf-8", errors="replace", closefd=False)
    # A fault handler the caller enabled (pytest does) writes to the caller's own stderr.
    faulthandler.disable()


def _read_answer(fd: int, pid: int, timeout: float | None) -> tuple[bytes, int | None]:
    """Everything the child writes, and its wait status; None as the status at the time limit."""
    deadline = None if timeout is None else time.monotonic() + timeout
    chunks: list[bytes] = []
    closed = False
    while True:
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            return b"".join(chunks), None
        pause = 0.5 if left is None else min(left, 0.5)
        if closed:  # the answer is complete; the child is on its way out
            time.sleep(min(pause, 0.002))
        elif select.select([fd], [], [], pause)[0]:
            chunk = os.read(fd, 65536)
            chunks.append(chunk)
            closed = not chunk
            if chunk:
                continue
        # No answer yet, or the pipe closed: has the child ended? (A grandchild it started
        # may hold the pipe open after it has.)
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return b"".join(chunks), status


def _kill(pid: int) -> None:
    with contextlib.suppress(OSError):
        os.killpg(pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)


def _decoded(answer: bytes, wait_status: int, output: IO[bytes]) -> Any:
    try:
        return json.loads(answer.decode("utf-8"))["value"]
    except (ValueError, KeyError, TypeError):
        pass
    if os.WIFSIGNALED(wait_status):
        name = signal.Signals(os.WTERMSIG(wait_status)).name
        return Ended(timed_out=False, signal_name=name, last_words=_last_words(output))
    code = os.WEXITSTATUS(wait_status) if os.WIFEXITED(wait_status) else None
    return Ended(timed_out=False, exit_status=code, last_words=_last_words(output))


def _spawned(
    function: Callable[..., Any], args: tuple[Any, ...], timeout: float | None, output: IO[bytes]
) -> Any:
    with _answer_file() as answer:
        spec = {
            "target": f"{function.__module__}:{function.__qualname__}",
            "args": list(args),
            "sys_path": sys.path,
            "answer": str(answer),
        }
        process = subprocess.Popen(
            [sys.executable, "-m", "replaylint.harness.child"],
            stdin=subprocess.PIPE,
            stdout=output,
            stderr=output,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            **_own_group(),
        )
        try:
            process.communicate(json.dumps(spec).encode("utf-8"), timeout=timeout)
        except subprocess.TimeoutExpired:
            _stop(process)
            return Ended(timed_out=True, last_words=_last_words(output))
        except BaseException:
            _stop(process)
            raise
        text = answer.read_bytes() if answer.exists() else b""
        status = process.returncode
    try:
        return json.loads(text.decode("utf-8"))["value"]
    except (ValueError, KeyError, TypeError):
        pass
    if status < 0:
        name = signal.Signals(-status).name
        return Ended(timed_out=False, signal_name=name, last_words=_last_words(output))
    return Ended(timed_out=False, exit_status=status, last_words=_last_words(output))


@contextlib.contextmanager
def _answer_file() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="replaylint-") as folder:
        yield Path(folder) / "answer.json"


def _own_group() -> dict[str, Any]:
    if os.name == "nt":
        return {"creationflags": getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)}
    return {"start_new_session": True}


def _stop(process: subprocess.Popen[bytes]) -> None:
    if os.name != "nt":
        with contextlib.suppress(OSError):
            os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        process.kill()
    process.wait()


def _last_words(output: IO[bytes]) -> str:
    output.seek(0, os.SEEK_END)
    size = output.tell()
    output.seek(max(0, size - 4096))
    tail = output.read().decode("utf-8", errors="replace")
    lines = [line.strip() for line in tail.splitlines() if line.strip()]
    last = lines[-1] if lines else ""
    return last if len(last) <= _LAST_WORDS else last[: _LAST_WORDS - 3] + "..."
