"""record(): run a workflow live, executing its activities once and writing down every command."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from replaylint.workflows.canonical import check_text, exception_type_name, to_json_value
from replaylint.workflows.clock import check_start
from replaylint.workflows.commands import (
    Command,
    CommandRequest,
    RecordedError,
    issued_order,
    patch_request,
)
from replaylint.workflows.context import RunContext, Workflow, run_workflow
from replaylint.workflows.errors import HistoryError
from replaylint.workflows.history import RecordedHistory
from replaylint.workflows.identity import workflow_name, workflow_path
from replaylint.workflows.patches import Patches
from replaylint.workflows.scheduler import Scheduler
from replaylint.workflows.session import Session, Step


def record(
    workflow: Workflow,
    input: Any,
    *,
    run_id: str,
    started_at: datetime,
    without_patches: Iterable[str] = (),
    record_failure: bool = False,
) -> RecordedHistory:
    """Run `workflow(ctx, input)` live and return its history.

    `run_id` and `started_at` (time-zone-aware) are required: the runtime never invents
    them, so recording is itself reproducible. What a history file could not write and
    read back is refused here, not when the history is saved: a start in a zone the file
    cannot name (HistoryError), and any value, error message or name the run records that
    is not plain JSON a UTF-8 file can hold (UnrecordableError, naming the activity and
    the path inside the value; see `canonical.to_json_value`). `without_patches` records the run as the
    code behaved before those patches existed (``ctx.patched(name)`` is False and leaves
    no command), which is how a fixture for pre-patch histories is produced.

    An exception from the workflow propagates and nothing is recorded, unless
    `record_failure` is true: then a workflow that raises an `Exception` gives a history of
    a failed run (its `failure` holds the type name and message), and a replay must fail
    the same way. A problem of the recording itself (an unrecordable value, an activity
    called from outside the run, an activity left running) always propagates.
    The history is written in the oldest format version that can hold it.
    """
    if isinstance(run_id, str):  # another type is refused by RunContext below
        check_text(run_id, "record()", "run_id")
    check_start(started_at)
    session = LiveSession()
    ctx = RunContext(
        run_id=run_id,
        started_at=started_at,
        patches=Patches(withheld=without_patches, _session=session),
        _session=session,
    )
    recorded_input = to_json_value(input, "workflow input")
    result, failure = _run_live(workflow, ctx, recorded_input, session, record_failure)
    commands = session.finished_commands(cancel_pending=failure is not None)
    order = tuple(session.scheduler.delivered)
    return RecordedHistory(
        workflow=workflow_path(workflow),
        run_id=ctx.run_id,
        started_at=ctx.started_at,
        input=recorded_input,
        commands=commands,
        result=result,
        # Canonical form: a delivery order equal to the issue order is left out.
        deliveries=None if order == issued_order(commands) else order,
        failure=failure,
        workflow_name=workflow_name(workflow),
    )  # version left out: the oldest format version that can hold the run


def _run_live(
    workflow: Workflow,
    ctx: RunContext,
    recorded_input: Any,
    session: LiveSession,
    record_failure: bool,
) -> tuple[Any, RecordedError | None]:
    """The run itself: (its JSON result, None), or (None, its failure) when it raised and
    `record_failure` asks for a failed run's history."""
    # The workflow gets the JSON form of its input, exactly what a replay will hand it.
    try:
        outcome = run_workflow(
            workflow, ctx, to_json_value(recorded_input, "workflow input", writable=False), session
        )
    except Exception as exc:
        if session.failure is not None:
            raise session.failure from None
        if not record_failure:
            raise
        failure = RecordedError(type=exception_type_name(exc), message=str(exc))
        check_text(failure.message, "the workflow's failure", "its message")
        return None, failure
    if session.failure is not None:  # raised inside the workflow, then swallowed by it
        raise session.failure
    return to_json_value(outcome, "workflow result"), None


class LiveSession(Session):
    """Appends commands as the workflow issues them; an ordinal is claimed when a call starts."""

    what = "being recorded"

    def __init__(self) -> None:
        super().__init__(Scheduler())
        self._slots: list[Command | CommandRequest] = []

    def begin(self, request: CommandRequest) -> Step:
        with self.lock:
            self._refuse_after_failure(request)
            seq = len(self._slots)
            self._slots.append(request)  # pending until complete() replaces it
        return Step(self, request, seq, None)

    def complete(self, command: Command) -> None:
        with self.lock:
            self._slots[command.seq] = command

    def decide_patch(self, name: str, withheld: frozenset[str]) -> bool:
        if name in withheld:
            return False
        self._append_patch(name, "patch")
        return True

    def deprecate_patch(self, name: str, withheld: frozenset[str]) -> None:
        self._append_patch(name, "deprecated_patch")

    def _append_patch(self, name: str, kind: str) -> None:
        req = patch_request(name, kind)
        with self.lock:
            self._refuse_after_failure(req)
            seq = len(self._slots)
            self._slots.append(
                Command(
                    seq=seq, kind=kind, name=name, request=req.request, key=req.key, result=True
                )
            )

    def _refuse_after_failure(self, request: CommandRequest) -> None:
        # A recording that has failed runs no further side effects.
        first = self.failure
        if first is not None:
            raise HistoryError(
                f"{request.describe()} was not run: the recording had already failed "
                f"({type(first).__name__}: {first})"
            ) from first

    def workflow_returned(self) -> None:
        with self.lock:
            pending = [slot for slot in self._slots if not isinstance(slot, Command)]
        if pending:
            raise self.fatal(
                HistoryError(
                    f"{pending[0].describe()} was started but had not finished when the workflow "
                    "returned; await every activity before returning"
                )
            )

    def finished_commands(self, *, cancel_pending: bool = False) -> tuple[Command, ...]:
        """Every command in order; one never finished is an error (or, for a failed run, cancelled)."""
        with self.lock:
            slots = list(self._slots)
        commands = []
        for seq, slot in enumerate(slots):
            if isinstance(slot, Command):
                commands.append(slot)
            elif cancel_pending:
                error = RecordedError(type="asyncio.exceptions.CancelledError", message="")
                commands.append(
                    Command(seq, slot.kind, slot.name, slot.request, slot.key, None, error)
                )
            else:
                raise HistoryError(
                    f"{slot.describe()} was started but had not finished when the workflow returned; "
                    "await every activity before returning"
                )
        return tuple(commands)
