"""`replaylint replay`: replay recorded history files (ours, or Temporal's) through today's code."""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import inspect
import logging
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TextIO

from replaylint.workflows import HistoryError, NonDeterminismError, RecordedHistory, assert_replays
from replaylint.workflows.history import read_document

OK, DIVERGED, ERROR = 0, 1, 2
DEFAULT_PATHS = ("tests/histories",)
TEMPORAL_MISSING = (
    "temporalio is not installed; `pip install temporalio` to replay Temporal histories"
)


class WorkflowImportError(Exception):
    """The workflow a history names (or a --workflow class) cannot be imported."""


def replay_paths(
    paths: list[str], out: TextIO, root: Path | None = None, workflows: Sequence[str] = ()
) -> int:
    """Replay every history under `paths`, print one line each to `out`, return the worst status.

    A folder means its ``*.json`` files, sorted by name. Our own histories name their
    workflow and are imported by that path; a history exported from Temporal
    (``temporal workflow show --output json``) is replayed by temporalio's Replayer
    against the `workflows` classes (``package.module:Class``, or a module for all of its
    workflow classes). Imports see `root` (default: the current directory) first on
    sys.path. Status: 0 all replayed, 1 some run diverged, 2 some history was unreadable,
    invalid, or its workflow could not be imported or run. Every history is tried and
    gets its own line, whatever its workflow does (even ``sys.exit()`` at import).
    """
    cwd = Path.cwd()
    project = (root if root is not None else cwd).resolve()
    temporal = _TemporalWorkflows(tuple(workflows))
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
                    status = max(status, _replay_file(file, cwd, out, temporal))
            elif target.exists():
                status = max(status, _replay_file(target, cwd, out, temporal))
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
    target = _import_target(path, module_name, attribute)
    if not callable(target):
        raise WorkflowImportError(f"workflow {path!r} is not callable")
    return target


def _import_target(path: str, module_name: str, attribute: str) -> Any:
    try:
        target: Any = importlib.import_module(module_name)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # even sys.exit() at import is reported, not obeyed
        raise WorkflowImportError(f"cannot import workflow {path!r}: {_describe(exc)}") from None
    for part in attribute.split(".") if attribute else ():
        try:
            target = getattr(target, part)
        except AttributeError:
            raise WorkflowImportError(
                f"cannot import workflow {path!r}: no attribute {part!r}"
            ) from None
    return target


def _replay_file(file: Path, cwd: Path, out: TextIO, temporal: _TemporalWorkflows) -> int:
    shown = _shown(file, cwd)
    try:
        status, detail = _replay_one(file, temporal)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # one history's problem never stops the others
        status, detail = ERROR, _describe(exc)
    word = {OK: "ok", DIVERGED: "diverged", ERROR: "error"}[status]
    return _report(
        out, status, f"{word} {shown} {detail}" if status == OK else f"{word} {shown}: {detail}"
    )


def _replay_one(file: Path, temporal: _TemporalWorkflows) -> tuple[int, str]:
    try:
        data = read_document(file)
    except HistoryError as exc:
        return ERROR, exc.detail
    if is_temporal_history(data):
        return temporal.replay(data, file)
    try:
        history = RecordedHistory.from_dict(data, source=str(file))
        workflow = import_workflow(history.workflow)
    except HistoryError as exc:
        return ERROR, exc.detail
    except WorkflowImportError as exc:
        return ERROR, str(exc)
    try:
        assert_replays(workflow, history)
    except NonDeterminismError as exc:
        return DIVERGED, str(exc)
    count = len(history.commands)
    failed = ", failed as recorded" if history.failure is not None else ""
    return OK, f"({count} command{'' if count == 1 else 's'}{failed})"


def is_temporal_history(data: Any) -> bool:
    """The shape of a Temporal export: ``{"events": [{"eventType": ...}, ...]}``."""
    events = data.get("events") if isinstance(data, dict) else None
    return (
        isinstance(events, list)
        and bool(events)
        and all(
            isinstance(event, dict)
            and isinstance(event.get("eventType", event.get("event_type")), str)
            for event in events
        )
    )


class _TemporalWorkflows:
    """The --workflow classes, imported once, and temporalio's Replayer run over one history."""

    def __init__(self, specs: tuple[str, ...]) -> None:
        self.specs = specs
        self._classes: list[type] | None = None
        self._runtime: Any = None

    def replay(self, data: dict[str, Any], file: Path) -> tuple[int, str]:
        try:
            worker = importlib.import_module("temporalio.worker")
            client = importlib.import_module("temporalio.client")
            runtime = importlib.import_module("temporalio.runtime")
            nondeterminism = importlib.import_module("temporalio.workflow").NondeterminismError
        except ModuleNotFoundError as exc:
            if (exc.name or "").split(".")[0] != "temporalio":
                raise
            return ERROR, TEMPORAL_MISSING
        if not self.specs:
            return ERROR, (
                "a Temporal history is replayed against its workflow classes: "
                "pass --workflow package.module:Class"
            )
        try:
            classes = self.classes()
        except WorkflowImportError as exc:
            return ERROR, str(exc)
        wanted = _temporal_type(data)
        names = {_definition_name(cls): cls for cls in classes}
        if wanted is not None and None not in names and wanted not in names:
            given = ", ".join(f"{name!r}" for name in sorted(n for n in names if n))
            return ERROR, (
                f"the history is of Temporal workflow type {wanted!r}, "
                f"the workflows given are {given}"
            )
        if self._runtime is None:  # one core runtime per process, its logging off
            telemetry = runtime.TelemetryConfig(logging=None, metrics=None)
            self._runtime = runtime.Runtime(telemetry=telemetry)

        async def replay() -> Any:
            replayer = worker.Replayer(workflows=classes, runtime=self._runtime)
            history = client.WorkflowHistory.from_json(file.stem, data)
            return await replayer.replay_workflow(history, raise_on_replay_failure=False)

        try:
            with _quiet_logger("temporalio"):
                result = _run_coroutine(replay)
        except Exception as exc:  # an unusable history or class, said in one line
            return ERROR, f"temporalio cannot replay it: {_describe(exc)}"
        failure = result.replay_failure
        if failure is None:
            return OK, f"({len(data['events'])} events, Temporal)"
        reason = "nondeterminism" if isinstance(failure, nondeterminism) else "workflow task failed"
        return DIVERGED, f"Temporal replay ({reason}): {_temporal_message(failure)}"

    def classes(self) -> list[type]:
        if self._classes is None:
            found: list[type] = []
            for spec in self.specs:
                module_name, _, attribute = spec.partition(":")
                target = _import_target(spec, module_name, attribute)
                if attribute:
                    if not inspect.isclass(target) or _definition_name(target) is None:
                        raise WorkflowImportError(
                            f"{spec!r} is not a Temporal workflow class (@workflow.defn)"
                        )
                    found.append(target)
                    continue
                members = [
                    value
                    for _, value in sorted(vars(target).items())
                    if inspect.isclass(value) and _definition_name(value) is not None
                ]
                if not members:
                    raise WorkflowImportError(f"module {spec!r} defines no Temporal workflow class")
                found.extend(members)
            self._classes = found
        return self._classes


def _definition_name(cls: type) -> str | None:
    # @workflow.defn stores its definition on the class under this (stable) attribute.
    definition = getattr(cls, "__temporal_workflow_definition", None)
    name = getattr(definition, "name", None)
    return name if isinstance(name, str) else None


def _temporal_type(data: dict[str, Any]) -> str | None:
    first = data["events"][0]
    attributes = first.get("workflowExecutionStartedEventAttributes") or {}
    name = (attributes.get("workflowType") or {}).get("name")
    return name if isinstance(name, str) else None


def _temporal_message(failure: BaseException) -> str:
    # Core's failures print as a Rust struct; its `message: "..."` is the sentence to show.
    text = str(failure)
    found = re.search(r'message: "((?:[^"\\]|\\.)*)"', text)
    message = found.group(1).encode().decode("unicode_escape") if found else text
    return " ".join(message.split())


def _run_coroutine(make: Callable[[], Any]) -> Any:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(make())
    with ThreadPoolExecutor(max_workers=1) as pool:  # called from inside a running loop
        return pool.submit(lambda: asyncio.run(make())).result()


@contextlib.contextmanager
def _quiet_logger(name: str) -> Iterator[None]:
    # The Replayer logs a traceback for each failed activation; the one line we print says it.
    logger = logging.getLogger(name)
    level = logger.level
    logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        logger.setLevel(level)


def _describe(exc: BaseException) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


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
