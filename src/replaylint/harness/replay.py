"""`replaylint replay`: replay recorded history files (ours, or Temporal's) through today's code."""

from __future__ import annotations

import contextlib
import importlib
import inspect
import os
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from replaylint.workflows import HistoryError, NonDeterminismError, RecordedHistory, assert_replays
from replaylint.workflows.history import read_document

OK, DIVERGED, ERROR = 0, 1, 2
DEFAULT_PATHS = ("tests/histories",)
DEFAULT_TIMEOUT = 60.0  # seconds a history may take to replay before it is stopped
TEMPORAL_MISSING = (
    "temporalio is not installed; `pip install temporalio` to replay Temporal histories"
)


if TYPE_CHECKING:
    from replaylint.harness.isolate import Ended


class WorkflowImportError(Exception):
    """The workflow a history names (or a --workflow class) cannot be imported."""


def replay_paths(
    paths: list[str],
    out: TextIO,
    root: Path | None = None,
    workflows: Sequence[str] = (),
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    summary: TextIO | None = None,
) -> int:
    """Replay every history under `paths`, print one line each to `out`, return the worst status.

    A folder means its ``*.json`` files, sorted by name. Our own histories name their
    workflow and are imported by that path; a history exported from Temporal
    (``temporal workflow show --output json``) is replayed by temporalio's Replayer
    against the `workflows` classes (``package.module:Class``, or a module for all of its
    workflow classes). Imports see `root` (default: the current directory) first on
    sys.path. Status: 0 all replayed, 1 some run diverged, 2 some history was unreadable,
    invalid, or its workflow could not be imported or run.

    Each history is replayed in a child process of its own (harness/isolate.py), so
    every one gets its line whatever its workflow does: ``sys.exit()`` is the workflow's
    outcome, ``os._exit()`` or a crash of the process an error saying how it ended, and a
    replay still running after `timeout` seconds (None: no limit) is stopped and reported
    as ``no progress after N s``. With `summary`, a line counting the histories by
    verdict is written there when there was more than one.
    """
    cwd = Path.cwd()
    project = (root if root is not None else cwd).resolve()
    specs = tuple(workflows)
    if specs:
        from replaylint.harness import temporal  # imported only when Temporal is in play

        temporal.preload()
    tally: Counter[int] = Counter()
    with _first_on_sys_path(project):
        for target, problem in _histories(paths or list(DEFAULT_PATHS), cwd):
            if problem is None:
                tally[_replay_file(target, cwd, out, specs, timeout)] += 1
            else:
                tally[_report(out, ERROR, f"error {_shown(target, cwd)}: {problem}")] += 1
    if summary is not None and sum(tally.values()) > 1:
        out.flush()  # in a log that merges both streams the summary comes last
        print(summary_line(tally), file=summary)
    return max(tally, default=OK)


def _histories(paths: list[str], cwd: Path) -> Iterator[tuple[Path, str | None]]:
    """Each history file named, or in a folder named (sorted), or a path and why it has none."""
    for given in paths:
        target = Path(given) if Path(given).is_absolute() else cwd / given
        if target.is_dir():
            files = sorted((p for p in target.glob("*.json") if p.is_file()), key=lambda p: p.name)
            if not files:
                yield target, "no *.json histories"
            yield from ((file, None) for file in files)
        elif target.exists():
            yield target, None
        else:
            yield target, "no such file or directory"


def summary_line(tally: Counter[int]) -> str:
    """``3 histories: 1 ok, 1 diverged, 1 error``: every verdict line counted."""
    total = sum(tally.values())
    return (
        f"{total} histor{'y' if total == 1 else 'ies'}: {tally[OK]} ok, "
        f"{tally[DIVERGED]} diverged, {tally[ERROR]} error{'' if tally[ERROR] == 1 else 's'}"
    )


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


def _replay_file(
    file: Path, cwd: Path, out: TextIO, specs: tuple[str, ...], timeout: float | None
) -> int:
    from replaylint.harness.isolate import Ended, run_isolated  # only when replaying

    shown = _shown(file, cwd)
    answer = run_isolated(replay_verdict, (str(file), list(specs)), timeout=timeout)
    if isinstance(answer, Ended):
        status, detail = ERROR, _how_it_ended(answer, timeout)
    else:
        status, detail = answer
    word = {OK: "ok", DIVERGED: "diverged", ERROR: "error"}[status]
    return _report(
        out, status, f"{word} {shown} {detail}" if status == OK else f"{word} {shown}: {detail}"
    )


def replay_verdict(file: str, specs: list[str]) -> list[Any]:
    """``[status, detail]`` of one history; what the child process of `_replay_file` runs."""
    try:
        status, detail = _replay_one(Path(file), _TemporalWorkflows(tuple(specs)))
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # one history's problem never stops the others
        status, detail = ERROR, _describe(exc)
    return [status, detail]


def _how_it_ended(ended: Ended, timeout: float | None) -> str:
    if ended.timed_out:
        return f"no progress after {timeout:g} s (the replay was stopped; --timeout sets the limit)"
    if ended.signal_name is not None:
        how = f"the replay's process was killed by {ended.signal_name} before it gave a verdict"
    else:
        how = (
            f"the replay's process ended with exit status {ended.exit_status} before it gave "
            "a verdict (os._exit or a crash in the code it ran)"
        )
    return f"{how}; its last output: {ended.last_words}" if ended.last_words else how


def _replay_one(file: Path, exports: _TemporalWorkflows) -> tuple[int, str]:
    try:
        data = read_document(file)
    except HistoryError as exc:
        return ERROR, exc.detail
    if is_temporal_history(data):
        return exports.replay(data, file)
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
        from replaylint.harness import temporal

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
        wanted = temporal.temporal_type(data)
        names = {temporal.definition_name(cls): cls for cls in classes}
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
            with temporal.quiet_logger("temporalio"):
                result = temporal.run_coroutine(replay)
        except KeyboardInterrupt:
            raise
        except Exception as exc:  # an unusable history or class, said in one line
            return ERROR, f"temporalio cannot replay it: {_describe(exc)}"
        except BaseException as exc:  # SystemExit from the workflow: the Replayer would hang
            return (
                DIVERGED,
                f"Temporal replay (workflow task failed): the code raised {_describe(exc)}",
            )
        failure = result.replay_failure
        if failure is None:
            return OK, f"({len(data['events'])} events, Temporal)"
        kind, message = temporal.classify_failure(failure, nondeterminism)
        status = ERROR if kind == "invalid history" else DIVERGED
        return status, f"Temporal replay ({kind}): {message}"

    def classes(self) -> list[type]:
        from replaylint.harness import temporal

        if self._classes is None:
            found: list[type] = []
            for spec in self.specs:
                module_name, _, attribute = spec.partition(":")
                target = _import_target(spec, module_name, attribute)
                if attribute:
                    if not inspect.isclass(target) or temporal.definition_name(target) is None:
                        raise WorkflowImportError(
                            f"{spec!r} is not a Temporal workflow class (@workflow.defn)"
                        )
                    found.append(target)
                    continue
                members = [
                    value
                    for _, value in sorted(vars(target).items())
                    if inspect.isclass(value) and temporal.definition_name(value) is not None
                ]
                if not members:
                    raise WorkflowImportError(f"module {spec!r} defines no Temporal workflow class")
                found.extend(members)
            self._classes = found
        return self._classes


def _describe(exc: BaseException) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _report(out: TextIO, status: int, line: str) -> int:
    # One line per history, whatever the message contained, shown as soon as it is known.
    print(" ".join(line.splitlines()), file=out, flush=True)
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
