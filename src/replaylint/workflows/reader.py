"""The strict reader of history documents: every version's fields, checked one by one."""

from __future__ import annotations

import math
import re
from typing import Any

from replaylint.workflows.canonical import request_key
from replaylint.workflows.clock import parse_instant
from replaylint.workflows.commands import (
    EMPTY_REQUEST,
    KINDS_BY_VERSION,
    PATCH_KINDS,
    Command,
    RecordedError,
    issued_order,
)
from replaylint.workflows.errors import HistoryError

NEWEST = max(KINDS_BY_VERSION)
_V1_FIELDS = ("commands", "input", "result", "run_id", "started_at", "version", "workflow")
_TOP_FIELDS = {
    1: _V1_FIELDS,
    2: tuple(sorted((*_V1_FIELDS, "deliveries", "failure", "workflow_name"))),
}
_COMMAND_FIELDS = ("error", "key", "kind", "name", "request", "result", "seq")
_ERROR_FIELDS = ("message", "type")
_WORKFLOW_PATH = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.<>]*$")
_KEY = re.compile(r"^[0-9a-f]{64}$")


def read_history(data: Any, source: str) -> dict[str, Any]:
    """The fields of a `RecordedHistory` read from a decoded document; HistoryError otherwise."""
    return _Reader(source).history(data)


class _Reader:
    """Validates a decoded document field by field; every complaint names the file and the spot."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, detail: str) -> HistoryError:
        return HistoryError(detail, self.source)

    def history(self, data: Any) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise self.fail(f"a history must be a JSON object, got {_json_type(data)}")
        # The version is checked first: a newer document may legitimately have new fields.
        if "version" not in data:
            raise self.fail("missing field 'version'")
        version = data["version"]
        if not _is_int(version):
            raise self.fail(f"field 'version' must be an integer, got {_json_type(version)}")
        if version > NEWEST:
            raise self.fail(
                f"history version {version} is newer than this runtime supports (version {NEWEST}); "
                "upgrade replaylint"
            )
        if version < 1:
            raise self.fail(
                f"history version {version} is not a valid version "
                f"(this runtime reads versions 1 to {NEWEST})"
            )
        self.fields(data, _TOP_FIELDS[version], "")
        workflow = data["workflow"]
        if not isinstance(workflow, str) or not _WORKFLOW_PATH.match(workflow):
            raise self.fail(
                f"field 'workflow' must be an import path like 'package.module:function', got {workflow!r}"
            )
        run_id = data["run_id"]
        if not isinstance(run_id, str) or not run_id:
            raise self.fail(f"field 'run_id' must be a non-empty string, got {run_id!r}")
        commands = data["commands"]
        if not isinstance(commands, list):
            raise self.fail(f"field 'commands' must be a list, got {_json_type(commands)}")
        parsed = tuple(self.command(item, i, version) for i, item in enumerate(commands))
        self.ordinals(parsed)
        fields: dict[str, Any] = {
            "workflow": workflow,
            "run_id": run_id,
            "started_at": self.instant(data["started_at"], version),
            "input": data["input"],
            "commands": parsed,
            "result": data["result"],
            "version": version,
        }
        if version >= 2:
            fields["deliveries"] = self.deliveries(data["deliveries"], parsed)
            fields["failure"] = self.error(data["failure"], "field 'failure'", "failure: ")
            if fields["failure"] is not None and data["result"] is not None:
                raise self.fail("a history with a failure must have a null result")
            name = data["workflow_name"]
            if name is not None and (not isinstance(name, str) or not name):
                raise self.fail(
                    f"field 'workflow_name' must be null or a non-empty string, got {name!r}"
                )
            fields["workflow_name"] = name
        return fields

    def fields(self, data: dict[str, Any], known: tuple[str, ...], where: str) -> None:
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise self.fail(
                f"{where}unknown field {unknown[0]!r} (known fields: {', '.join(known)})"
            )
        missing = [name for name in known if name not in data]
        if missing:
            raise self.fail(f"{where}missing field {missing[0]!r}")

    def instant(self, value: Any, version: int) -> Any:
        if not isinstance(value, str):
            raise self.fail(
                f"field 'started_at' must be an ISO 8601 string, got {_json_type(value)}"
            )
        try:
            return parse_instant(value, zones=version >= 2)
        except ValueError as exc:
            raise self.fail(f"field 'started_at' {exc}") from None

    def command(self, item: Any, position: int, version: int) -> Command:
        where = f"commands[{position}]: "
        if not isinstance(item, dict):
            raise self.fail(f"{where}a command must be a JSON object, got {_json_type(item)}")
        self.fields(item, _COMMAND_FIELDS, where)
        seq, kind, name, request, key = (item[f] for f in ("seq", "kind", "name", "request", "key"))
        if not _is_int(seq) or seq < 0:
            raise self.fail(f"{where}field 'seq' must be a non-negative integer, got {seq!r}")
        kinds = KINDS_BY_VERSION[version]
        if kind not in kinds:
            raise self.fail(f"{where}field 'kind' must be one of {', '.join(kinds)}, got {kind!r}")
        if not isinstance(name, str) or not name:
            raise self.fail(f"{where}field 'name' must be a non-empty string, got {name!r}")
        if (
            not isinstance(request, dict)
            or set(request) != {"args", "kwargs"}
            or not isinstance(request["args"], list)
            or not isinstance(request["kwargs"], dict)
        ):
            raise self.fail(
                f'{where}field \'request\' must be an object {{"args": [...], "kwargs": {{...}}}}'
            )
        if not isinstance(key, str) or not _KEY.match(key):
            raise self.fail(
                f"{where}field 'key' must be a 64-digit lowercase hex SHA-256, got {key!r}"
            )
        if key != request_key(request):
            raise self.fail(
                f"{where}field 'key' does not match the SHA-256 of its request (edited by hand?)"
            )
        error = self.error(item["error"], f"{where}field 'error'", f"{where}error: ")
        if error is not None and item["result"] is not None:
            raise self.fail(f"{where}a command with an error must have a null result")
        if kind in PATCH_KINDS and (
            item["result"] is not True or error is not None or request != EMPTY_REQUEST
        ):
            raise self.fail(
                f"{where}a {kind} command must have an empty request, result true and no error"
            )
        if kind == "timer" and (
            item["result"] is not None
            or error is not None
            or request["kwargs"]
            or len(request["args"]) != 1
            or not _is_duration(request["args"][0])
        ):
            raise self.fail(
                f"{where}a timer command must request one non-negative number of seconds, "
                "with a null result and no error"
            )
        return Command(
            seq=seq,
            kind=kind,
            name=name,
            request=request,
            key=key,
            result=item["result"],
            error=error,
        )

    def error(self, value: Any, label: str, where: str) -> RecordedError | None:
        """`label`: how the field is named (``commands[2]: field 'error'``); `where`: inside it."""
        if value is None:
            return None
        if not isinstance(value, dict):
            raise self.fail(f"{label} must be null or an object, got {_json_type(value)}")
        self.fields(value, _ERROR_FIELDS, where)
        if (
            not isinstance(value["type"], str)
            or not value["type"]
            or not isinstance(value["message"], str)
        ):
            raise self.fail(f"{where}'type' must be a non-empty string and 'message' a string")
        return RecordedError(type=value["type"], message=value["message"])

    def ordinals(self, commands: tuple[Command, ...]) -> None:
        seen: set[int] = set()
        for command in commands:
            if command.seq in seen:
                raise self.fail(f"duplicated seq {command.seq}")
            seen.add(command.seq)
        for expected in range(len(commands)):
            if expected not in seen:
                raise self.fail(
                    f"missing seq {expected} (commands are numbered 0 to {len(commands) - 1})"
                )
        for position, command in enumerate(commands):
            if command.seq != position:
                raise self.fail(
                    f"commands are out of order: position {position} holds seq {command.seq}"
                )

    def deliveries(self, value: Any, commands: tuple[Command, ...]) -> tuple[int, ...] | None:
        if not isinstance(value, list) or not all(_is_int(seq) for seq in value):
            raise self.fail("field 'deliveries' must be a list of command seqs")
        deliverable = set(issued_order(commands))
        seen: set[int] = set()
        for position, seq in enumerate(value):
            if seq not in deliverable:
                raise self.fail(
                    f"deliveries[{position}]: {seq} is not the seq of an activity, model_call "
                    "or timer command"
                )
            if seq in seen:
                raise self.fail(f"deliveries[{position}]: seq {seq} is delivered twice")
            seen.add(seq)
        order = tuple(value)
        return None if order == issued_order(commands) else order


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_duration(value: Any) -> bool:
    return (_is_int(value) or isinstance(value, float)) and math.isfinite(value) and value >= 0


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
