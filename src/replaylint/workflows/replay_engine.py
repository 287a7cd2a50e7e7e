"""assert_replays(): drive today's code against a recorded history and name the first difference."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from replaylint.workflows.canonical import dumps, exception_type_name, shorten, to_json_value
from replaylint.workflows.commands import (
    PATCH_KINDS,
    Command,
    CommandRequest,
    RecordedError,
    patch_request,
)
from replaylint.workflows.context import RunContext, Workflow, run_workflow
from replaylint.workflows.errors import NonDeterminismError, UnrecordableError
from replaylint.workflows.history import RecordedHistory
from replaylint.workflows.identity import workflow_name, workflow_path
from replaylint.workflows.patches import Patches
from replaylint.workflows.scheduler import Scheduler
from replaylint.workflows.session import Session, Step

# Every reason a NonDeterminismError can carry.
REASONS = (
    "kind-mismatch",  # the code asked for another kind of command (activity, model_call, patch, timer)
    "name-mismatch",  # same kind, another name
    "key-mismatch",  # same kind and name, another request (arguments, a timer's duration)
    "extra-command",  # the code asked for more commands than were recorded
    "missing-command",  # the code finished (or stopped) before consuming every recorded command
    "result-mismatch",  # every command matched but the final result differs
    "workflow-error",  # the code raised where the recorded run completed
    # the replay cannot go on: a call after it had already missed (nothing more is served;
    # names the miss), or the workflow waits for something the history never delivers
    "diverged",
    "workflow-mismatch",  # the history was recorded by a workflow of another declared name
    "outcome-mismatch",  # the recorded run failed; the code completed, or failed another way
)

DEADLOCK = "the workflow waits for something the history never delivers"


def assert_replays(workflow: Workflow, history: RecordedHistory | str | Path) -> None:
    """Replay `history` through `workflow`; raise NonDeterminismError on the first difference.

    Activities and model calls are served from the history and never executed, and
    timers fire without waiting, so a replay needs no network, broker or worker. `history`
    may be a path to a saved file. Whatever the code raises (even SystemExit; only
    KeyboardInterrupt passes through) is its outcome: the same failure as a failed
    recorded run replays, anything else is a ``workflow-error``. An async workflow that
    waits for something the history never delivers (an event nothing sets, a future
    nothing resolves) while nothing else could wake it fails within about 0.1 s with a
    ``diverged`` error saying so, rather than hanging; code that blocks its thread
    (``time.sleep``, a lock) cannot be interrupted from inside the process, which is
    what the ``replay`` command's per-history time limit is for.
    """
    if not isinstance(history, RecordedHistory):
        history = RecordedHistory.load(history)
    _check_identity(workflow, history)
    session = ReplaySession(history)
    ctx = RunContext(
        run_id=history.run_id,
        started_at=history.started_at,
        patches=Patches(_session=session),
        _session=session,
    )
    try:
        outcome = run_workflow(
            workflow, ctx, to_json_value(history.input, "workflow input", writable=False), session
        )
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # whatever the code raised is its outcome
        if session.failure is None and history.failure is not None:
            session.check_exhausted()
            _compare_failure(history.failure, exc)
            return
        _raise_failure(session, history, session.failure or exc)
    if session.failure is not None:  # raised inside the workflow, then swallowed by it
        _raise_failure(session, history, session.failure)
    session.check_exhausted()
    if history.failure is not None:
        returned = shorten(_spelled(outcome), 80)
        raise NonDeterminismError(
            f"outcome (outcome-mismatch): the recorded run failed with {_failure(history.failure)}, "
            f"the code returned {returned}",
            reason="outcome-mismatch",
            index=None,
            recorded=history.failure,
            requested=returned,
        )
    _compare_results(history.result, outcome)


class ReplaySession(Session):
    """Matches each request against the next recorded command and serves its outcome.

    The first request that does not resolve from the record (a mismatch, an unrecordable
    argument, a call from outside the run) invalidates the rest: every later request
    raises a ``diverged`` error naming that first miss, so a workflow that catches the
    divergence and retries is never served the recorded result.
    """

    what = "being replayed"

    def __init__(self, history: RecordedHistory) -> None:
        order = history.delivery_order()
        super().__init__(Scheduler(order, stall=self._stalled, deadlock=self._deadlocked))
        self.commands = history.commands
        self.cursor = 0

    def begin(self, request: CommandRequest) -> Step:
        recorded = self._match(request)
        return Step(self, request, recorded.seq, recorded)

    def complete(self, command: Command) -> None:  # pragma: no cover - replay never executes
        raise AssertionError("a replayed command is never completed live")

    def decide_patch(self, name: str, withheld: frozenset[str]) -> bool:
        request = patch_request(name)
        with self.lock:
            self._latch(request)
            self._skip_deprecated(request)
            if self._patch_at_cursor(name):
                self.cursor += 1
                return True
            if any(c.kind in PATCH_KINDS and c.name == name for c in self.commands):
                # The run did record this patch, but elsewhere: the check moved. Matching the
                # request at the cursor reports the difference the usual way.
                self._match(request)
        # Recorded before the patch existed: the old path, and no command consumed.
        return False

    def deprecate_patch(self, name: str, withheld: frozenset[str]) -> None:
        request = patch_request(name, "deprecated_patch")
        with self.lock:
            self._latch(request)
            self._skip_deprecated(request)
            if self._patch_at_cursor(name):
                self.cursor += 1  # recorded by patched() or by deprecated(): either is fine

    def _patch_at_cursor(self, name: str) -> bool:
        if self.cursor >= len(self.commands):
            return False
        recorded = self.commands[self.cursor]
        return recorded.kind in PATCH_KINDS and recorded.name == name

    def _skip_deprecated(self, request: CommandRequest | None) -> None:
        # A retired patch the code no longer asks about is not a divergence (Temporal's rule).
        asked = request.name if request is not None and request.kind in PATCH_KINDS else None
        while self.cursor < len(self.commands):
            recorded = self.commands[self.cursor]
            if recorded.kind != "deprecated_patch" or recorded.name == asked:
                return
            self.cursor += 1

    def _latch(self, request: CommandRequest) -> None:
        first = self.failure
        if first is None:
            return
        index = self.cursor
        miss = f"{type(first).__name__}: {first}"
        recorded = None
        if isinstance(first, NonDeterminismError):
            index = first.index if first.index is not None else index
            miss, recorded = str(first), first.recorded
        raise NonDeterminismError(
            f"command {index} (diverged): {request.describe()} is not served from the history, "
            f"because the replay already missed at command {index}: {miss}",
            reason="diverged",
            index=index,
            recorded=recorded,
            requested=request,
        ) from first

    def _match(self, request: CommandRequest) -> Command:
        with self.lock:
            self._latch(request)
            self._skip_deprecated(request)
            index = self.cursor
            if index >= len(self.commands):
                raise self._diverge(
                    "extra-command",
                    index,
                    None,
                    request,
                    f"the code requested {request.describe()} but the history ends after {_count(len(self.commands))}",
                )
            recorded = self.commands[index]
            reason = None
            if recorded.kind != request.kind:
                reason = "kind-mismatch"
            elif recorded.name != request.name:
                reason = "name-mismatch"
            elif recorded.key != request.key:
                reason = "key-mismatch"
            if reason is not None:
                raise self._diverge(
                    reason,
                    index,
                    recorded,
                    request,
                    f"recorded {recorded.describe()}, code requested {request.describe()}",
                )
            self.cursor += 1
            return recorded

    def check_exhausted(self) -> None:
        with self.lock:
            self._skip_deprecated(None)
            left = len(self.commands) - self.cursor
            if left:
                recorded = self.commands[self.cursor]
                more = f" and {left - 1} more" if left > 1 else ""
                raise self._diverge(
                    "missing-command",
                    self.cursor,
                    recorded,
                    None,
                    f"the code finished but the history still has {recorded.describe()}{more}",
                )

    def _stalled(self, waiting: list[int], upcoming: int | None) -> BaseException:
        """The code is blocked on results, and the result the history delivers next is not one."""
        blocked = self.commands[waiting[0]].describe()
        with self.lock:
            if upcoming is None:
                return self._diverge(
                    "missing-command",
                    waiting[0],
                    self.commands[waiting[0]],
                    None,
                    f"the code is waiting for {blocked}, which the recorded run never delivered",
                )
            index = min(self.cursor, upcoming)
            recorded = self.commands[index]
            detail = (
                "which the code has not requested"
                if upcoming >= self.cursor
                else "which the code has not awaited"
            )
            return self._diverge(
                "missing-command",
                index,
                recorded,
                None,
                f"the code is waiting for {blocked}, but the recorded run delivered "
                f"{self.commands[upcoming].describe()} first, {detail}",
            )

    def _deadlocked(self) -> BaseException:
        """Nothing the workflow awaits can ever finish: a ``diverged`` error naming what is next."""
        with self.lock:
            index = self.cursor
            while index < len(self.commands) and self.commands[index].kind == "deprecated_patch":
                index += 1  # a retired patch nothing asks for is skipped, as it is elsewhere
            recorded = self.commands[index] if index < len(self.commands) else None
            if recorded is None:
                detail = "nothing it awaits can finish, and the history has no command left"
            else:
                detail = (
                    "nothing it awaits can finish, and it never requested the history's next "
                    f"command, {recorded.describe()}"
                )
            return self._diverge("diverged", index, recorded, None, f"{DEADLOCK}: {detail}")

    def _diverge(
        self,
        reason: str,
        index: int,
        recorded: Command | None,
        requested: CommandRequest | None,
        detail: str,
    ) -> NonDeterminismError:
        error = NonDeterminismError(
            f"command {index} ({reason}): {detail}",
            reason=reason,
            index=index,
            recorded=recorded,
            requested=requested,
        )
        return self.fatal(error)


def _check_identity(workflow: Workflow, history: RecordedHistory) -> None:
    recorded = history.workflow_name
    given = workflow_name(workflow)
    if recorded is None or given == recorded:
        return
    shown = (
        f"workflow {given!r} ({workflow_path(workflow)})"
        if given
        else f"{workflow_path(workflow)}, which declares no workflow name"
    )
    raise NonDeterminismError(
        f"workflow (workflow-mismatch): the history was recorded by workflow {recorded!r} "
        f"({history.workflow}) and is replayed against {shown}",
        reason="workflow-mismatch",
        index=None,
        recorded=recorded,
        requested=given,
    )


def _raise_failure(
    session: ReplaySession, history: RecordedHistory, failure: BaseException
) -> None:
    if isinstance(failure, NonDeterminismError):
        raise failure from None
    raise _workflow_error(session.cursor, history.result, failure) from failure


def _compare_failure(recorded: RecordedError, exc: BaseException) -> None:
    raised = RecordedError(type=exception_type_name(exc), message=str(exc))
    if raised == recorded:
        return
    spelled = shorten(_failure(raised), 120)
    raise NonDeterminismError(
        f"outcome (outcome-mismatch): the recorded run failed with {_failure(recorded)}, "
        f"the code raised {spelled}",
        reason="outcome-mismatch",
        index=None,
        recorded=recorded,
        requested=spelled,
    ) from exc


def _compare_results(recorded: Any, outcome: Any) -> None:
    """The final result, compared after the last command (the index is None: not a command)."""
    try:
        returned = to_json_value(outcome, "workflow result")
    except UnrecordableError as exc:
        raise NonDeterminismError(
            f"result (result-mismatch): recorded {shorten(dumps(recorded), 80)}, code returned a value "
            f"that cannot be recorded ({exc.detail})",
            reason="result-mismatch",
            index=None,
            recorded=recorded,
            requested=outcome,
        ) from None
    if dumps(returned) != dumps(recorded):
        raise NonDeterminismError(
            f"result (result-mismatch): recorded {shorten(dumps(recorded), 80)}, code returned {shorten(dumps(returned), 80)}",
            reason="result-mismatch",
            index=None,
            recorded=recorded,
            requested=returned,
        )


def _workflow_error(index: int, recorded: Any, exc: BaseException) -> NonDeterminismError:
    raised = _failure(RecordedError(type=exception_type_name(exc), message=str(exc)))
    return NonDeterminismError(
        f"command {index} (workflow-error): the code raised {shorten(raised, 120)} where the recorded run completed",
        reason="workflow-error",
        index=index,
        recorded=recorded,
        requested=raised,
    )


def _failure(error: RecordedError) -> str:
    return f"{error.type}: {error.message}" if error.message else error.type


def _spelled(value: Any) -> str:
    try:
        return dumps(to_json_value(value, "workflow result"))
    except UnrecordableError:
        return repr(value)


def _count(n: int) -> str:
    return f"{n} command" if n == 1 else f"{n} commands"
