"""RecordedHistory: the versioned JSON document of one run, its writer and the version it needs."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from replaylint.workflows.canonical import check_text, dumps, to_json_value
from replaylint.workflows.clock import check_start, format_instant, zone_name
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
        check_start(self.started_at)  # a zone the file cannot name is refused, not lost
        # The document's own fields are written in name order; the values inside them (the
        # input, results, errors) keep the key order the run saw, and a replay hands that on.
        data: dict[str, Any] = {
            "commands": [_command_dict(c) for c in self.commands],
            "input": writable(self.input, "the workflow input"),
            "result": writable(self.result, "the workflow result"),
            "run_id": self.run_id,
            "started_at": format_instant(self.started_at),
            "version": self.version,
            "workflow": self.workflow,
        }
        if self.version >= 2:
            data["deliveries"] = list(self.delivery_order())
            data["failure"] = _error_dict(self.failure)
            data["workflow_name"] = self.workflow_name
        return dict(sorted(data.items()))

    def to_json(self) -> str:
        """Deterministic text: fields in name order, indent 2, a trailing newline (diffs stay readable).

        Values keep the order the run saw their keys in; a request is canonical (sorted
        keys), as its SHA-256 key is. Raises HistoryError naming the value and the path
        inside it when something cannot be written (see `canonical.to_json_value`).
        """
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False, allow_nan=False) + "\n"

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
    where = f"command {c.seq} ({describe(c.kind, c.name, c.request)})"
    return {
        "error": _error_dict(c.error),
        "key": c.key,
        "kind": c.kind,
        "name": c.name,
        "request": json.loads(dumps(writable(c.request, f"{where} request"))),
        "result": writable(c.result, f"{where} result"),
        "seq": c.seq,
    }


def writable(value: Any, where: str) -> Any:
    """`value` as JSON a file can hold and give back; HistoryError naming `where` and the path otherwise."""
    return to_json_value(value, where)


def _error_dict(error: RecordedError | None) -> dict[str, str] | None:
    if error is None:
        return None
    check_text(error.message, f"the recorded error {error.type}", "its message")
    return {"message": error.message, "type": error.type}


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {key!r}")
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")
