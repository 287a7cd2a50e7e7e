"""assert_replays(): drive today's code against a recorded history and name the first difference."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from replaylint.workflows.canonical import dumps, exception_type_name, shorten, to_json_value
from replaylint.workflows.context import RunContext, Workflow, run_workflow
from replaylint.workflows.errors import NonDeterminismError, UnrecordableError
from replaylint.workflows.history import Command, CommandRequest, RecordedHistory, patch_request
from replaylint.workflows.patches import Patches
from replaylint.workflows.session import Session, Step

# Every reason a NonDeterminismError can carry.
REASONS = (
    "kind-mismatch",  # the code asked for another kind of command (activity, model_call, patch)
    "name-mismatch",  # same kind, another name
    "key-mismatch",  # same kind and name, another request (arguments)
    "extra-command",  # the code asked for more commands than were recorded
    "missing-command",  # the code finished before consuming every recorded command
    "result-mismatch",  # every command matched but the final result differs
    "workflow-error",  # the code raised where the recorded run completed
)


def assert_replays(workflow: Workflow, history: RecordedHistory | str | Path) -> None:
    """Replay `history` through `workflow`; raise NonDeterminismError on the first difference.

    Activities and model calls are served from the history and never executed, so a
    replay needs no network, broker or worker. `history` may be a path to a saved file.
    """
    if not isinstance(history, RecordedHistory):
        history = RecordedHistory.load(history)
    session = ReplaySession(history.commands)
    ctx = RunContext(
        run_id=history.run_id, started_at=history.started_at, patches=Patches(_session=session)
    )
    try:
        outcome = run_workflow(
            workflow, ctx, to_json_value(history.input, "workflow input"), session
        )
    except Exception as exc:
        failure = session.failure or exc
        if isinstance(failure, NonDeterminismError):
            raise failure from None
        raise _workflow_error(session.cursor, history.result, failure) from failure
    if session.failure is not None:  # raised inside the workflow, then swallowed by it
        failure = session.failure
        if isinstance(failure, NonDeterminismError):
            raise failure
        raise _workflow_error(session.cursor, history.result, failure) from failure
    session.check_exhausted()
    _compare_results(history.result, outcome, len(history.commands))


class ReplaySession(Session):
    """Matches each request against the next recorded command and serves its outcome."""

    def __init__(self, commands: tuple[Command, ...]) -> None:
        super().__init__()
        self.commands = commands
        self.cursor = 0

    def begin(self, request: CommandRequest) -> Step:
        recorded = self._match(request)
        return Step(self, request, recorded.seq, recorded)

    def complete(self, command: Command) -> None:  # pragma: no cover - replay never executes
        raise AssertionError("a replayed command is never completed live")

    def decide_patch(self, name: str, withheld: frozenset[str]) -> bool:
        if self.cursor < len(self.commands):
            recorded = self.commands[self.cursor]
            if recorded.kind == "patch" and recorded.name == name:
                self.cursor += 1
                return True
        if any(c.kind == "patch" and c.name == name for c in self.commands):
            # The run did record this patch, but elsewhere: the check moved. Matching the
            # request at the cursor reports the difference the usual way.
            self._match(patch_request(name))
        # Recorded before the patch existed: the old path, and no command consumed.
        return False

    def _match(self, request: CommandRequest) -> Command:
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


def _compare_results(recorded: Any, outcome: Any, index: int) -> None:
    """The final result, compared after the last command: its index is the command count."""
    try:
        returned = to_json_value(outcome, "workflow result")
    except UnrecordableError as exc:
        raise NonDeterminismError(
            f"result (result-mismatch): recorded {shorten(dumps(recorded), 80)}, code returned a value "
            f"that cannot be recorded ({exc.detail})",
            reason="result-mismatch",
            index=index,
            recorded=recorded,
            requested=outcome,
        ) from None
    if dumps(returned) != dumps(recorded):
        raise NonDeterminismError(
            f"result (result-mismatch): recorded {shorten(dumps(recorded), 80)}, code returned {shorten(dumps(returned), 80)}",
            reason="result-mismatch",
            index=index,
            recorded=recorded,
            requested=returned,
        )


def _workflow_error(index: int, recorded: Any, exc: BaseException) -> NonDeterminismError:
    raised = f"{exception_type_name(exc)}: {exc}"
    return NonDeterminismError(
        f"command {index} (workflow-error): the code raised {shorten(raised, 120)} where the recorded run completed",
        reason="workflow-error",
        index=index,
        recorded=recorded,
        requested=raised,
    )


def _count(n: int) -> str:
    return f"{n} command" if n == 1 else f"{n} commands"
