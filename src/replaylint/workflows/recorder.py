"""record(): run a workflow live, executing its activities once and writing down every command."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from replaylint.workflows.canonical import to_json_value
from replaylint.workflows.context import RunContext, Workflow, run_workflow, workflow_path
from replaylint.workflows.errors import HistoryError
from replaylint.workflows.history import (
    VERSION,
    Command,
    CommandRequest,
    RecordedHistory,
    patch_request,
)
from replaylint.workflows.patches import Patches
from replaylint.workflows.session import Session, Step


def record(
    workflow: Workflow,
    input: Any,
    *,
    run_id: str,
    started_at: datetime,
    without_patches: Iterable[str] = (),
) -> RecordedHistory:
    """Run `workflow(ctx, input)` live and return its history.

    `run_id` and `started_at` (time-zone-aware) are required: the runtime never invents
    them, so recording is itself reproducible. `without_patches` records the run as the
    code behaved before those patches existed (``ctx.patched(name)`` is False and leaves
    no command), which is how a fixture for pre-patch histories is produced.
    An exception from the workflow propagates and nothing is recorded.
    """
    session = LiveSession()
    ctx = RunContext(
        run_id=run_id,
        started_at=started_at,
        patches=Patches(withheld=without_patches, _session=session),
    )
    recorded_input = to_json_value(input, "workflow input")
    # The workflow gets the JSON form of its input, exactly what a replay will hand it.
    try:
        outcome = run_workflow(
            workflow, ctx, to_json_value(recorded_input, "workflow input"), session
        )
    except Exception:
        if session.failure is not None:
            raise session.failure from None
        raise
    if session.failure is not None:  # raised inside the workflow, then swallowed by it
        raise session.failure
    result = to_json_value(outcome, "workflow result")
    return RecordedHistory(
        workflow=workflow_path(workflow),
        run_id=ctx.run_id,
        started_at=ctx.started_at,
        input=recorded_input,
        commands=session.finished_commands(),
        result=result,
        version=VERSION,
    )


class LiveSession(Session):
    """Appends commands as the workflow issues them; an ordinal is claimed when a call starts."""

    def __init__(self) -> None:
        super().__init__()
        self._slots: list[Command | CommandRequest] = []

    def begin(self, request: CommandRequest) -> Step:
        seq = len(self._slots)
        self._slots.append(request)  # pending until complete() replaces it
        return Step(self, request, seq, None)

    def complete(self, command: Command) -> None:
        self._slots[command.seq] = command

    def decide_patch(self, name: str, withheld: frozenset[str]) -> bool:
        if name in withheld:
            return False
        req = patch_request(name)
        seq = len(self._slots)
        self._slots.append(
            Command(seq=seq, kind="patch", name=name, request=req.request, key=req.key, result=True)
        )
        return True

    def finished_commands(self) -> tuple[Command, ...]:
        for slot in self._slots:
            if not isinstance(slot, Command):
                raise HistoryError(
                    f"{slot.describe()} was started but had not finished when the workflow returned; "
                    "await every activity before returning"
                )
        return tuple(slot for slot in self._slots if isinstance(slot, Command))
