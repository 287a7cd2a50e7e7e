"""The command stream of one run (recorded live or matched on replay) and how calls find it."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextvars import ContextVar
from typing import Any, TypeVar

from replaylint.workflows.canonical import (
    check_text,
    exception_type_name,
    make_request,
    request_key,
    to_json_value,
)
from replaylint.workflows.commands import Command, CommandRequest, RecordedError
from replaylint.workflows.errors import ActivityContextError, ActivityError, UnrecordableError
from replaylint.workflows.scheduler import Scheduler

E = TypeVar("E", bound=BaseException)


class _InsideActivity:
    """The marker an activity body runs under: calls it makes belong to its own result."""

    def __repr__(self) -> str:
        return "<inside an activity>"


INSIDE_ACTIVITY = _InsideActivity()

# Activities are plain decorated functions, so they cannot be handed the run explicitly;
# a ContextVar (not a global) finds it, and asyncio tasks inherit it by copy.
_CURRENT: ContextVar[Session | _InsideActivity | None] = ContextVar(
    "replaylint_workflows_session", default=None
)
# Every run in progress in this process: an activity called with no run in its context
# while one is in progress was called from a thread or callback that lost the run.
_RUNNING: set[Session] = set()
_RUNNING_LOCK = threading.Lock()


def current_session() -> Session | None:
    """The run the calling code belongs to, or None outside any run (and inside an activity)."""
    value = _CURRENT.get()
    return value if isinstance(value, Session) else None


@contextlib.contextmanager
def active(session: Session | _InsideActivity | None) -> Iterator[None]:
    """Make `session` the current run for the duration of the block."""
    token = _CURRENT.set(session)
    try:
        yield
    finally:
        _CURRENT.reset(token)


@contextlib.contextmanager
def running(session: Session) -> Iterator[None]:
    """Register `session` as a run in progress of this process for the duration of the block."""
    with _RUNNING_LOCK:
        _RUNNING.add(session)
    try:
        yield
    finally:
        with _RUNNING_LOCK:
            _RUNNING.discard(session)


def session_for_call(kind: str, name: str) -> Session | None:
    """The run an activity call belongs to; None when it should simply run.

    None outside any run and inside an activity body. Raises ActivityContextError (and
    fails the run) when the caller lost the run's context while a run is in progress:
    such a call could be neither recorded nor served from the history.
    """
    value = _CURRENT.get()
    if isinstance(value, Session):
        return value
    if value is INSIDE_ACTIVITY:
        return None
    with _RUNNING_LOCK:
        runs = list(_RUNNING)
    if not runs:
        return None
    what = runs[0].what if len(runs) == 1 else "being recorded or replayed"
    error = ActivityContextError(
        f"{kind} {name!r} was called from thread {threading.current_thread().name!r}, outside "
        f"the context of the run {what}, so it can be neither recorded nor replayed; call it "
        "from the workflow, or carry the run into the thread (asyncio.to_thread, or "
        "contextvars.copy_context().run)"
    )
    if len(runs) == 1:
        runs[0].fatal(error)
    raise error


class Session:
    """One run's command stream. Subclasses record (live) or match (replay).

    `failure` keeps the first fatal problem (a divergence, an unrecordable value, a call
    from outside the run) even if workflow code swallows the exception with a broad
    `except`, so the run still fails. Ordinals are allocated under `lock`, so calls from
    threads that carry the run each get their own.
    """

    what = "in progress"  # how messages name the run: "being recorded", "being replayed"

    def __init__(self, scheduler: Scheduler) -> None:
        self.failure: BaseException | None = None
        self.lock = threading.RLock()
        self.scheduler = scheduler

    def fatal(self, exc: E) -> E:
        """Remember `exc` as the run's failure (the first one wins) and return it for raising."""
        with self.lock:
            if self.failure is None:
                self.failure = exc
        return exc

    def request(
        self, kind: str, name: str, args: Sequence[Any], kwargs: Mapping[str, Any]
    ) -> CommandRequest:
        try:
            check_text(name, f"{kind} {name!r}", "its name")
            request = make_request(args, kwargs, f"{kind} {name!r}")
        except UnrecordableError as exc:
            raise self.fatal(exc) from None
        return CommandRequest(kind=kind, name=name, request=request, key=request_key(request))

    def begin(self, request: CommandRequest) -> Step:
        """Claim the next ordinal for `request`: a live step, or the recorded one to replay."""
        raise NotImplementedError

    def complete(self, command: Command) -> None:
        raise NotImplementedError

    def decide_patch(self, name: str, withheld: frozenset[str]) -> bool:
        raise NotImplementedError

    def deprecate_patch(self, name: str, withheld: frozenset[str]) -> None:
        raise NotImplementedError

    def workflow_returned(self) -> None:
        """Called as the workflow function returns, before the loop cancels leftover tasks."""


class Step:
    """One activity, model call or timer in flight: replayed from `recorded`, or completed live."""

    def __init__(
        self, session: Session, request: CommandRequest, seq: int, recorded: Command | None
    ) -> None:
        self.session = session
        self.request = request
        self.seq = seq
        self.recorded = recorded

    def replay(self) -> Any:
        """The recorded outcome: a fresh copy of the result, or the recorded error raised."""
        assert self.recorded is not None
        if self.recorded.error is not None:
            raise ActivityError(
                kind=self.request.kind,
                name=self.request.name,
                type_name=self.recorded.error.type,
                message=self.recorded.error.message,
            )
        # A copy, so workflow code mutating a result cannot edit the loaded history.
        return to_json_value(self.recorded.result, "recorded result", writable=False)

    def succeed(self, value: Any) -> Any:
        """Record a live result and return the JSON form the workflow would also see on replay."""
        try:
            result = to_json_value(value, f"{self.request.kind} {self.request.name!r} result")
        except UnrecordableError as exc:
            raise self.session.fatal(exc) from None
        self.session.complete(self._command(result=result))
        return to_json_value(result, "result", writable=False)

    def fail(self, exc: BaseException) -> ActivityError:
        """Record a live exception; the caller raises the returned ActivityError from it."""
        error = RecordedError(type=exception_type_name(exc), message=str(exc))
        try:
            check_text(error.message, f"{self.request.kind} {self.request.name!r}", "its error")
        except UnrecordableError as unwritable:
            raise self.session.fatal(unwritable) from exc
        self.session.complete(self._command(error=error))
        return ActivityError(
            kind=self.request.kind,
            name=self.request.name,
            type_name=error.type,
            message=error.message,
        )

    def _command(self, result: Any = None, error: RecordedError | None = None) -> Command:
        r = self.request
        return Command(
            seq=self.seq,
            kind=r.kind,
            name=r.name,
            request=r.request,
            key=r.key,
            result=result,
            error=error,
        )
