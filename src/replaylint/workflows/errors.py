"""The runtime's exception types: invalid histories, divergent replays, failed or misplaced calls."""

from __future__ import annotations

from typing import Any


class HistoryError(ValueError):
    """A history document (or a value meant for one) is unreadable or invalid.

    `str()` is one line: ``<source>: <detail>``, where the source is usually the file.
    """

    def __init__(self, detail: str, source: str | None = None) -> None:
        self.detail = detail
        self.source = source
        super().__init__(f"{source}: {detail}" if source else detail)


class UnrecordableError(HistoryError, TypeError):
    """A value that must go into the history (argument, result, input) is not plain JSON.

    It is both a HistoryError (the run cannot be recorded) and a TypeError (the value has
    the wrong type), so either `except` clause catches it.
    """


class NonDeterminismError(Exception):
    """The current code asked for something other than what the recorded run did.

    Attributes:
        reason: a short stable token, e.g. ``key-mismatch`` or ``extra-command``
            (every one is listed in `replaylint.workflows.replay_engine.REASONS`).
        index: the 0-based position (the `seq`) of the command where the run diverged.
            For ``diverged`` (a call made after the replay had already missed) it is the
            position of that first miss. None when the difference is not at a command: the
            workflow's identity (``workflow-mismatch``), its final result
            (``result-mismatch``) or the outcome of a run that failed (``outcome-mismatch``).
        recorded: the recorded `Command`, or None when the history had no command there;
            for ``result-mismatch`` and ``workflow-error`` the recorded final result, for
            ``outcome-mismatch`` the recorded failure (a `RecordedError`), for
            ``workflow-mismatch`` the workflow name the history was recorded under.
        requested: the `CommandRequest` the code made, or None when it made none;
            for ``result-mismatch`` the value the code returned, for ``workflow-error``
            and ``outcome-mismatch`` what the code raised or returned (as text), for
            ``workflow-mismatch`` the name of the workflow given.
    """

    def __init__(
        self, message: str, *, reason: str, index: int | None, recorded: Any, requested: Any
    ) -> None:
        self.reason = reason
        self.index = index
        self.recorded = recorded
        self.requested = requested
        super().__init__(message)


class ActivityError(Exception):
    """An activity (or model call) raised; raised the same way live and on replay.

    Live, the original exception is chained as ``__cause__``; on replay only its recorded
    type name and message exist, which is why workflow code sees this type in both cases.
    """

    def __init__(self, *, kind: str, name: str, type_name: str, message: str) -> None:
        self.kind = kind
        self.name = name
        self.type_name = type_name
        self.message = message
        super().__init__(f"{kind} {name!r} failed: {type_name}: {message}")


class ActivityContextError(RuntimeError):
    """An activity was called outside the run that is being recorded or replayed.

    A thread or executor the workflow starts does not inherit the run (contextvars are not
    copied into it), so the call could be neither recorded nor served from the history.
    The message names the activity and the thread; the run it belongs to fails with it.
    """
