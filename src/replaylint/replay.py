"""`replaylint replay`: replay recorded history files through today's workflow code."""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

from replaylint.workflows import HistoryError, NonDeterminismError, RecordedHistory, assert_replays

OK, DIVERGED, ERROR = 0, 1, 2
DEFAULT_PATHS = ("tests/histories",)


class WorkflowImportError(Exception):
    """The workflow a history names cannot be imported."""


def replay_paths(paths: list[str], out: TextIO, root: Path | None = None) -> int:
    """Replay every history under `paths`, print one line each to `out`, return the worst status.

    A folder means its ``*.json`` files, sorted by name. The workflow is imported by the
    path the history names, with `root` (default: the current directory) first on
    sys.path. Status: 0 all replayed, 1 some run diverged, 2 some history was unreadable,
    invalid, or named a workflow that cannot be imported. Every history is tried.
    """
    cwd = Path.cwd()
    project = (root if root is not None else cwd).resolve()
    status = OK
    with _first_on_sys_path(project):
        for given in paths or list(DEFAULT_PATHS):
            target = Path(given) if Path(given).is_absolute() else cwd / given
            if target.is_dir():
                files = sorted(
                    (p for p in target.glob("*.json") if p.is_file()), key=lambda p: p.name
                )
                if not files:
                    status = max(
                        status,
                        _report(out, ERROR, f"error {_shown(target, cwd)}: no *.json histories"),
                    )
                for file in files:
                    status = max(status, _replay_file(file, cwd, out))
            elif target.exists():
                status = max(status, _replay_file(target, cwd, out))
            else:
                status = max(
                    status,
                    _report(out, ERROR, f"error {_shown(target, cwd)}: no such file or directory"),
                )
    return status


def import_workflow(path: str) -> Callable[..., Any]:
    """Import ``package.module:function`` (a dotted attribute path is allowed after the colon)."""
    module_name, _, attribute = path.partition(":")
    if not module_name or not attribute:
        raise WorkflowImportError(
            f"workflow path {path!r} is not of the form 'package.module:function'"
        )
    if "<locals>" in attribute:
        raise WorkflowImportError(f"workflow {path!r} is a nested function and cannot be imported")
    try:
        target: Any = importlib.import_module(module_name)
    except Exception as exc:
        raise WorkflowImportError(
            f"cannot import workflow {path!r}: {type(exc).__name__}: {exc}"
        ) from None
    for part in attribute.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise WorkflowImportError(
                f"cannot import workflow {path!r}: no attribute {part!r}"
            ) from None
    if not callable(target):
        raise WorkflowImportError(f"workflow {path!r} is not callable")
    return target


def _replay_file(file: Path, cwd: Path, out: TextIO) -> int:
    shown = _shown(file, cwd)
    try:
        history = RecordedHistory.load(file)
        workflow = import_workflow(history.workflow)
    except HistoryError as exc:
        return _report(out, ERROR, f"error {shown}: {exc.detail}")
    except WorkflowImportError as exc:
        return _report(out, ERROR, f"error {shown}: {exc}")
    try:
        assert_replays(workflow, history)
    except NonDeterminismError as exc:
        return _report(out, DIVERGED, f"diverged {shown}: {exc}")
    except Exception as exc:
        return _report(out, ERROR, f"error {shown}: {type(exc).__name__}: {exc}")
    count = len(history.commands)
    return _report(out, OK, f"ok {shown} ({count} command{'' if count == 1 else 's'})")


def _report(out: TextIO, status: int, line: str) -> int:
    # One line per history, whatever the message contained.
    print(" ".join(line.splitlines()), file=out)
    return status


def _shown(path: Path, cwd: Path) -> str:
    try:
        relative = os.path.relpath(path, cwd)
    except ValueError:  # another drive on Windows
        relative = str(path)
    return relative.replace(os.sep, "/")


@contextlib.contextmanager
def _first_on_sys_path(root: Path) -> Iterator[None]:
    entry = str(root)
    sys.path.insert(0, entry)
    importlib.invalidate_caches()
    try:
        yield
    finally:
        # Remove the entry we added (an equal one may already have been there before).
        with contextlib.suppress(ValueError):
            sys.path.remove(entry)
