"""The command stream of one run (recorded live or matched on replay) and how activities find it."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, Sequence
from contextvars import ContextVar
from typing import Any, TypeVar

from replaylint.workflows.canonical import (
    exception_type_name,
    make_request,
    request_key,
    to_json_value,
)
from replaylint.workflows.errors import ActivityError, UnrecordableError
from replaylint.workflows.history import Command, CommandRequest, RecordedError

E = TypeVar("E", bound=BaseException)

# Activities are plain decorated functions, so they cannot be handed the run explicitly;
# a ContextVar (not a global) finds it, and asyncio tasks inherit it by copy.
_CURRENT: ContextVar[Session | None] = ContextVar("replaylint_workflows_session", default=None)


def current_session() -> Session | None:
    """The run the calling code belongs to, or None outside any run (and inside an activity)."""
    return _CURRENT.get()


@contextlib.contextmanager
def active(session: Session | None) -> Iterator[None]:
    """Make `session` the current run for the duration of the block."""
    token = _CURRENT.set(session)
    try:
        yield
    finally:
        _CURRENT.reset(token)


class Session:
    """One run's command stream. Subclasses record (live) or match (replay).

    `failure` keeps the first fatal problem (a divergence, an unrecordable value) even if
    workflow code swallows the exception with a broad `except`, so the run still fails.
    """

    def __init__(self) -> None:
        self.failure: BaseException | None = None

    def fatal(self, exc: E) -> E:
        """Remember `exc` as the run's failure (the first one wins) and return it for raising."""
        if self.failure is None:
            self.failure = exc
        return exc

    def request(
        self, kind: str, name: str, args: Sequence[Any], kwargs: Mapping[str, Any]
    ) -> CommandRequest:
        try:
            request = make_request(args, kwargs, f"{kind} {name!r}")
        except UnrecordableError as exc:
            raise self.fatal(exc) from None
        return CommandRequest(kind=kind, name=name, request=request, key=request_key(request))

    def begin(self, request: CommandRequest) -> Step:
        raise NotImplementedError

    def complete(self, command: Command) -> None:
        raise NotImplementedError

    def decide_patch(self, name: str, withheld: frozenset[str]) -> bool:
        raise NotImplementedError


class Step:
    """One activity or model call in flight: replayed from `recorded`, or completed live."""

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
        return to_json_value(self.recorded.result, "recorded result")

    def succeed(self, value: Any) -> Any:
        """Record a live result and return the JSON form the workflow would also see on replay."""
        try:
            result = to_json_value(value, f"{self.request.kind} {self.request.name!r} result")
        except UnrecordableError as exc:
            raise self.session.fatal(exc) from None
        self.session.complete(self._command(result=result))
        return to_json_value(result, "result")

    def fail(self, exc: Exception) -> ActivityError:
        """Record a live exception; the caller raises the returned ActivityError from it."""
        error = RecordedError(type=exception_type_name(exc), message=str(exc))
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
