"""Discovery and reading on hostile trees: nothing raises, nothing blocks, nothing is lost."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from replaylint.cli.main import cli
from replaylint.core.paths import printable
from replaylint.project.discovery import python_files
from replaylint.project.prefilter import read_regular, scan

UNSAFE = "import time\n__adk_workflow__ = True\ndef run():\n    return time.time()\n"
FINDING = "wf.py:4: ADK-W003"


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # also keeps socket paths short: AF_UNIX allows ~100 bytes
    (tmp_path / "wf.py").write_text(UNSAFE)


@pytest.fixture()
def no_hang() -> Iterator[None]:
    """In-process runs that could block on a FIFO fail after 20 s instead of hanging the suite
    (the handler's exception interrupts a blocking open)."""

    def expire(signum: int, frame: Any) -> None:
        raise TimeoutError("blocked: a FIFO was opened for reading")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def check(*args: str | bytes) -> tuple[int, str, str]:
    """`replaylint check ARGS` in a subprocess, in a UTF-8 locale whose stdout is strict, as in a
    terminal: (exit code, stdout, stderr). The output must itself be valid UTF-8."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONUTF8", "PYTHONIOENCODING")}
    env["LC_ALL"] = "C.UTF-8"
    done = subprocess.run(
        [sys.executable, "-m", "replaylint", "check", *args],
        capture_output=True,
        timeout=30,
        env=env,
    )
    stdout, stderr = done.stdout.decode("utf-8"), done.stderr.decode("utf-8")
    assert "Traceback" not in stderr, stderr
    return done.returncode, stdout, stderr


def errors(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("replaylint: error: ")]


def invoke(*args: str) -> Any:
    result = CliRunner().invoke(cli, ["check", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def make_socket(name: str) -> None:
    server = socket.socket(socket.AF_UNIX)
    server.bind(name)
    server.close()  # the socket file stays


def test_printable() -> None:
    assert printable("src/wf.py") == "src/wf.py"
    assert printable("café/wf.py") == "café/wf.py"
    assert printable(os.fsdecode(b"bad\xff.py")) == "bad\\xff.py"
    assert printable("new\nline.py") == "new\\nline.py"
    assert printable("\x1b[31m.py") == "\\x1b[31m.py"
    assert printable("lone\ud800.py") == "lone\\ud800.py"


def test_hostile_tree_is_walked_and_each_skip_has_a_debug_reason(tmp_path: Path) -> None:
    os.symlink("loop.py", "loop.py")
    (tmp_path / "deep" / "er").mkdir(parents=True)
    os.symlink("self.py", tmp_path / "deep" / "er" / "self.py")  # a loop anywhere in the tree
    os.symlink("a.py", "b.py")
    os.symlink("b.py", "a.py")  # a two-link loop
    os.symlink("missing.py", "dangling.py")
    (tmp_path / "pkg.py").mkdir()  # a directory with a Python name is walked
    (tmp_path / "pkg.py" / "inner.py").write_text(UNSAFE)
    os.symlink("pkg.py", "dirlink.py")
    os.mkfifo("fifo.py")
    make_socket("sock.py")
    os.symlink("..", tmp_path / "deep" / "up")  # directory links back up the tree
    os.symlink(tmp_path, tmp_path / "deep" / "root")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "other.py").write_text(UNSAFE)
    os.symlink(tmp_path / "elsewhere", tmp_path / "deep" / "out")

    code, stdout, stderr = check("--debug", ".")

    assert code == 1 and errors(stderr) == [], stderr
    assert FINDING in stdout and "pkg.py/inner.py:4: ADK-W003" in stdout
    assert stdout.count("elsewhere/other.py:4: ADK-W003") == 1  # walked once, not via deep/out
    for line in [
        "loop.py: skipped: a symbolic link loop",
        "deep/er/self.py: skipped: a symbolic link loop",
        "a.py: skipped: a symbolic link loop",
        "b.py: skipped: a symbolic link loop",
        "dangling.py: skipped: a dangling symbolic link",
        "dirlink.py: skipped: a symbolic link to a directory (not followed)",
        "fifo.py: skipped: not a regular file (a FIFO)",
        "sock.py: skipped: not a regular file (a socket)",
        "deep/up: skipped: a symbolic link to a directory (not followed)",
        "deep/root: skipped: a symbolic link to a directory (not followed)",
        "deep/out: skipped: a symbolic link to a directory (not followed)",
    ]:
        assert f"replaylint: {line}\n" in stderr, line


def test_skips_are_silent_without_debug() -> None:
    os.mkfifo("fifo.py")
    os.symlink("loop.py", "loop.py")
    code, stdout, stderr = check(".")
    assert (code, stderr) == (1, "")
    assert FINDING in stdout


def test_named_paths_that_are_not_files_are_one_line_errors() -> None:
    os.mkfifo("fifo.py")
    make_socket("sock.py")
    os.symlink("loop.py", "loop.py")
    os.symlink("missing.py", "dangling.py")
    named = ["fifo.py", "sock.py", "loop.py", "dangling.py", "missing.py", "wf.py"]
    devices = ["/dev/null"] if os.path.exists("/dev/null") else []

    code, stdout, stderr = check(*named, *devices)

    assert code == 2
    assert errors(stderr) == [
        "replaylint: error: fifo.py: not a regular file (a FIFO)",
        "replaylint: error: sock.py: not a regular file (a socket)",
        "replaylint: error: loop.py: symbolic link loop",
        "replaylint: error: dangling.py: dangling symbolic link",
        "replaylint: error: missing.py: no such file or directory",
        *[f"replaylint: error: {d}: not a regular file (a character device)" for d in devices],
    ]
    assert stderr.count("\n") == len(errors(stderr))
    assert FINDING in stdout


def test_undecodable_names_in_errors_are_escaped() -> None:
    code, stdout, stderr = check(b"gone\xff.py", b"wf.py")
    assert code == 2
    assert errors(stderr) == ["replaylint: error: gone\\xff.py: no such file or directory"]
    assert FINDING in stdout


def test_undecodable_and_control_character_names_are_checked_and_shown_escaped(
    tmp_path: Path,
) -> None:
    # Needs outcome.display_path to apply discovery.printable: it names every finding.
    root = os.fsencode(tmp_path)
    with open(os.path.join(root, b"bad\xff.py"), "w") as handle:
        handle.write(UNSAFE)
    os.mkdir(os.path.join(root, b"d\xfe"))
    with open(os.path.join(root, b"d\xfe", b"inner.py"), "w") as handle:
        handle.write(UNSAFE)
    (tmp_path / "new\nline.py").write_text(UNSAFE)

    code, stdout, stderr = check(".")

    assert (code, stderr) == (1, "")
    assert "bad\\xff.py:4: ADK-W003" in stdout
    assert "d\\xfe/inner.py:4: ADK-W003" in stdout
    assert "new\\nline.py:4: ADK-W003" in stdout
    assert FINDING in stdout
    code, stdout, stderr = check("--format", "json", ".")
    assert code == 1 and '"path": "bad\\\\xff.py"' in stdout


def test_undecodable_stdin_filename_is_shown_escaped() -> None:
    # Needs api.run to apply discovery.printable to the --stdin-filename it reports.
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONUTF8", "PYTHONIOENCODING")}
    done = subprocess.run(
        [sys.executable, "-m", "replaylint", "check", "-", "--stdin-filename", b"bad\xff.py"],
        input=UNSAFE.encode(),
        capture_output=True,
        timeout=30,
        env={**env, "LC_ALL": "C.UTF-8"},
    )
    assert done.returncode == 1, done.stderr.decode("utf-8", "replace")
    assert done.stdout.decode("utf-8").startswith("bad\\xff.py:4: ADK-W003")


def test_unreadable_directory_is_one_line_and_the_rest_is_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "hidden.py").write_text(UNSAFE)
    locked.chmod(0)
    if os.geteuid() == 0:  # root lists any directory: refuse this one as the kernel would
        real = os.scandir

        def scandir(path: Any = ".") -> Any:
            if os.path.basename(os.fspath(path)) == "locked":
                raise PermissionError(13, "Permission denied", os.fspath(path))
            return real(path)

        monkeypatch.setattr(os, "scandir", scandir)
    try:
        result = invoke(".")
    finally:
        locked.chmod(0o755)

    assert result.exit_code == 2
    assert result.stderr == "replaylint: error: locked: cannot read directory: Permission denied\n"
    assert FINDING in result.stdout


def test_unreadable_file_named_or_walked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = tmp_path / "secret.py"
    secret.write_text(UNSAFE)
    secret.chmod(0)
    if os.geteuid() == 0:  # root opens any file: refuse this one as the kernel would
        real = os.open

        def fake_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
            if os.fspath(path).endswith("secret.py"):
                raise PermissionError(13, "Permission denied", os.fspath(path))
            return real(path, flags, *args, **kwargs)

        monkeypatch.setattr(os, "open", fake_open)
    try:
        for args in ([".", "--format", "json"], ["secret.py", "wf.py"]):
            result = invoke(*args)
            assert result.exit_code == 2
            assert result.stderr == "replaylint: error: secret.py: cannot read: Permission denied\n"
            assert "wf.py" in result.stdout and "ADK-W003" in result.stdout
    finally:
        secret.chmod(0o644)


def test_files_that_vanish_or_become_fifos_after_listing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_hang: None
) -> None:
    (tmp_path / "gone.py").write_text(UNSAFE)
    (tmp_path / "swapped.py").write_text(UNSAFE)
    real = os.scandir

    class Listing:
        """The real listing; once it is read, the files change under the walk."""

        def __init__(self, path: str) -> None:
            self.inner = real(path)

        def __enter__(self) -> Any:
            return self.inner.__enter__()

        def __exit__(self, *exc: Any) -> None:
            self.inner.__exit__(*exc)
            if (tmp_path / "gone.py").exists():  # once: later listings (the cache's) see it so
                os.remove(tmp_path / "gone.py")
                os.remove(tmp_path / "swapped.py")
                os.mkfifo(tmp_path / "swapped.py")

    monkeypatch.setattr(os, "scandir", Listing)
    result = invoke(".")

    assert result.exit_code == 2
    assert sorted(result.stderr.splitlines()) == [
        "replaylint: error: gone.py: cannot read: No such file or directory",
        "replaylint: error: swapped.py: cannot read: not a regular file (a FIFO)",
    ]
    assert FINDING in result.stdout


def test_read_regular_refuses_without_blocking(tmp_path: Path, no_hang: None) -> None:
    os.mkfifo("fifo.py")
    make_socket("sock.py")
    (tmp_path / "folder.py").mkdir()
    assert read_regular("wf.py") == UNSAFE.encode()
    for name, kind in [
        ("fifo.py", "a FIFO"),
        ("sock.py", "a socket"),
        ("folder.py", "a directory"),
    ]:
        with pytest.raises(OSError) as caught:
            read_regular(name)
        assert caught.value.strerror == f"not a regular file ({kind})"
    count, candidates, unreadable = scan(["wf.py", "fifo.py", "nope.py"], (b"__adk_workflow__",))
    assert count == 3 and [path for path, _ in candidates] == ["wf.py"]
    assert unreadable == [
        ("fifo.py", "not a regular file (a FIFO)"),
        ("nope.py", "No such file or directory"),
    ]


def test_gitignore_that_is_not_utf8_a_fifo_or_a_bad_pattern(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_bytes(
        b"# caf\xe9\n\xff\xfe.py\n[z-a].py\n[[x--y]].py\nignored.py\n"
    )
    (tmp_path / "ignored.py").write_text(UNSAFE)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "wf.py").write_text(UNSAFE)
    os.mkfifo(tmp_path / "sub" / ".gitignore")
    (tmp_path / "link").mkdir()
    os.symlink(".gitignore", tmp_path / "link" / ".gitignore")  # a loop
    (tmp_path / "link" / "wf.py").write_text(UNSAFE)

    code, stdout, stderr = check("--debug", ".")

    assert code == 1 and errors(stderr) == [], stderr
    assert FINDING in stdout and "sub/wf.py:4" in stdout and "link/wf.py:4" in stdout
    assert "ignored.py" not in stdout  # the pattern after the bad bytes still applies
    assert "replaylint: .gitignore:3: pattern ignored: bad character range" in stderr
    assert "replaylint: sub/.gitignore: not read: not a regular file (a FIFO)" in stderr
    assert "replaylint: link/.gitignore: not read: Too many levels of symbolic links" in stderr
    assert "Warning" not in stderr  # `[[` and `--` would warn about set syntax


def test_deep_tree_is_no_recursion_error() -> None:
    # A tree 200 levels deeper than the (lowered) recursion limit allows frames.
    levels = [os.path.join(*["d"] * depth) for depth in range(1, 301)]
    for level in levels:
        os.mkdir(level)
    bottom = os.path.join(levels[-1], "wf.py")
    with open(bottom, "w") as handle:
        handle.write(UNSAFE)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(traceback.extract_stack()) + 100)
    try:
        files, problems = python_files(["."])
    finally:
        sys.setrecursionlimit(limit)
    assert problems == [] and files == [os.path.join(".", bottom), os.path.join(".", "wf.py")]


def test_walk_errors_are_sorted_and_do_not_stop_the_walk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("b_locked", "a_locked", "open"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "wf.py").write_text(UNSAFE)
    real = os.scandir

    def scandir(path: Any = ".") -> Any:
        if os.fspath(path).endswith("_locked"):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    files, problems = python_files(["."])
    assert sorted(files) == [os.path.join(".", "open", "wf.py"), os.path.join(".", "wf.py")]
    assert problems == [
        "a_locked: cannot read directory: Permission denied",
        "b_locked: cannot read directory: Permission denied",
    ]


def test_a_walked_folder_reads_its_gitignore_at_its_absolute_path(tmp_path: Path) -> None:
    """`link/..` lists the link target's parent (the kernel follows the link), but its
    .gitignore is the one at the path's absolute spelling, as it always was; the walked folder's
    patterns are keyed as the walk spells its paths (matched by prefix)."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text("t_*.py\n")
    (tmp_path / "sub" / "deep").mkdir(parents=True)
    (tmp_path / "sub" / ".gitignore").write_text("s_*.py\n")
    for name in ("t_a.py", "s_b.py", "c.py"):
        (tmp_path / "sub" / name).write_text("x = 1\n")
        (tmp_path / name).write_text("x = 1\n")
    os.symlink(tmp_path / "sub" / "deep", tmp_path / "ld")
    top = os.path.join("ld", "..")
    assert python_files([top])[0] == [os.path.join(top, "c.py"), os.path.join(top, "s_b.py")]
    assert python_files(["."])[0] == ["./c.py", "./s_b.py", "./sub/c.py", "./wf.py"]
    assert python_files(["sub"])[0] == ["sub/c.py"]
