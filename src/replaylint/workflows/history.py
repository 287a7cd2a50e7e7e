"""RecordedHistory: the versioned JSON document of one run, its writer and the version it needs."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from replaylint.workflows.clock import format_instant, zone_name
from replaylint.workflows.commands import (
    EMPTY_REQUEST,
    KINDS,
    KINDS_BY_VERSION,
    PATCH_KINDS,
    Command,
    CommandRequest,
    RecordedError,
    describe,
    issued_order,
    patch_request,
    timer_request,
)
from replaylint.workflows.errors import HistoryError
from replaylint.workflows.reader import read_history

# Version 2 added timer and deprecated_patch commands, the order results were delivered in,
# the failure of a run that raised, the workflow's declared name, and a start instant that
# keeps its time zone's name. A run that uses none of them is still written as version 1,
# so older runtimes keep reading it.
VERSION = max(KINDS_BY_VERSION)

__all__ = [
    "EMPTY_REQUEST",
    "KINDS",
    "PATCH_KINDS",
    "VERSION",
    "Command",
    "CommandRequest",
    "RecordedError",
    "RecordedHistory",
    "decode_document",
    "describe",
    "patch_request",
    "read_document",
    "timer_request",
]


@dataclass(frozen=True)
class RecordedHistory:
    """One run: which workflow, with what identity and input, the commands it issued, its outcome.

    `deliveries` lists the seqs of activity, model-call and timer commands in the order
    their outcomes reached the workflow; None means in the order they were issued. A run
    that raised has its `failure` and a null `result`. `workflow_name` is the name the
    workflow declared with ``@workflow(name=...)``, None when it declared none. `version`
    left at 0 becomes the oldest format version that can hold the run.
    """

    workflow: str
    run_id: str
    started_at: datetime
    input: Any
    commands: tuple[Command, ...]
    result: Any
    version: int = 0
    deliveries: tuple[int, ...] | None = None
    failure: RecordedError | None = None
    workflow_name: str | None = None

    def __post_init__(self) -> None:
        if self.version == 0:  # frozen: the resolved version replaces the placeholder
            object.__setattr__(self, "version", self.required_version()[0])

    def delivery_order(self) -> tuple[int, ...]:
        """The seqs whose outcomes were delivered, in delivery order."""
        if self.deliveries is not None:
            return self.deliveries
        return issued_order(self.commands)

    def required_version(self) -> tuple[int, str]:
        """The oldest version that can hold this run, and the feature that needs it."""
        for command in self.commands:
            if command.kind not in KINDS_BY_VERSION[1]:
                return 2, f"{command.kind} commands"
        if self.deliveries is not None and self.deliveries != issued_order(self.commands):
            return 2, "a delivery order other than the issue order"
        if self.failure is not None:
            return 2, "the failure of a run"
        if self.workflow_name is not None:
            return 2, "a declared workflow name"
        if zone_name(self.started_at) is not None:
            return 2, "a named time zone"
        return 1, ""

    def to_dict(self) -> dict[str, Any]:
        needed, feature = self.required_version()
        if self.version not in KINDS_BY_VERSION:
            raise HistoryError(f"cannot write history version {self.version}")
        if needed > self.version:
            raise HistoryError(
                f"a version {self.version} history cannot hold {feature}; version {needed} can"
            )
        data: dict[str, Any] = {
            "version": self.version,
            "workflow": self.workflow,
            "run_id": self.run_id,
            "started_at": format_instant(self.started_at),
            "input": self.input,
            "commands": [_command_dict(c) for c in self.commands],
            "result": self.result,
        }
        if self.version >= 2:
            data["deliveries"] = list(self.delivery_order())
            data["failure"] = _error_dict(self.failure)
            data["workflow_name"] = self.workflow_name
        return data

    def to_json(self) -> str:
        """Deterministic text: sorted keys, indent 2, a trailing newline (diffs stay readable)."""
        return (
            json.dumps(
                self.to_dict(), sort_keys=True, indent=2, ensure_ascii=False, allow_nan=False
            )
            + "\n"
        )

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json(), encoding="utf-8", newline="\n")

    @classmethod
    def load(cls, path: str | Path) -> RecordedHistory:
        source = str(path)
        return cls.from_dict(read_document(path), source=source)

    @classmethod
    def from_json(cls, text: str, source: str = "<history>") -> RecordedHistory:
        return cls.from_dict(decode_document(text, source), source=source)

    @classmethod
    def from_dict(cls, data: Any, source: str = "<history>") -> RecordedHistory:
        return cls(**read_history(data, source))


def read_document(path: str | Path) -> Any:
    """The decoded JSON of a history file (any shape); HistoryError when unreadable or not JSON."""
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise HistoryError("no such file", source) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise HistoryError(f"cannot read: {exc}", source) from None
    return decode_document(text, source)


def decode_document(text: str, source: str) -> Any:
    """Strict JSON: duplicate keys and NaN/Infinity are refused, with the position of the error."""
    try:
        return json.loads(text, object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise HistoryError(
            f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})", source
        ) from None
    except ValueError as exc:  # raised by the hooks
        raise HistoryError(f"not valid JSON: {exc}", source) from None


def _command_dict(c: Command) -> dict[str, Any]:
    return {
        "seq": c.seq,
        "kind": c.kind,
        "name": c.name,
        "request": c.request,
        "key": c.key,
        "result": c.result,
        "error": _error_dict(c.error),
    }


def _error_dict(error: RecordedError | None) -> dict[str, str] | None:
    return None if error is None else {"type": error.type, "message": error.message}


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {key!r}")
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")
