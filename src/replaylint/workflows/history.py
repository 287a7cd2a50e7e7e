"""RecordedHistory: the versioned JSON document of one run, and its strict reader and writer."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from replaylint.workflows.canonical import dumps, request_key, shorten
from replaylint.workflows.errors import HistoryError

VERSION = 1
KINDS = ("activity", "model_call", "patch")
EMPTY_REQUEST: dict[str, Any] = {"args": [], "kwargs": {}}

_TOP_FIELDS = ("commands", "input", "result", "run_id", "started_at", "version", "workflow")
_COMMAND_FIELDS = ("error", "key", "kind", "name", "request", "result", "seq")
_ERROR_FIELDS = ("message", "type")
_WORKFLOW_PATH = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.<>]*$")
_KEY = re.compile(r"^[0-9a-f]{64}$")


@dataclass(frozen=True)
class RecordedError:
    """An exception an activity raised, kept as its type name and message."""

    type: str
    message: str


@dataclass(frozen=True)
class CommandRequest:
    """What the code asks for: a kind, a name, and the canonical request with its key."""

    kind: str
    name: str
    request: Any
    key: str

    def describe(self) -> str:
        return describe(self.kind, self.name, self.request)


@dataclass(frozen=True)
class Command:
    """One recorded command: its ordinal, what was asked, and what came back."""

    seq: int
    kind: str
    name: str
    request: Any
    key: str
    result: Any = None
    error: RecordedError | None = None

    def describe(self) -> str:
        return describe(self.kind, self.name, self.request)


@dataclass(frozen=True)
class RecordedHistory:
    """One run: which workflow, with what identity and input, the commands it issued, its result."""

    workflow: str
    run_id: str
    started_at: datetime
    input: Any
    commands: tuple[Command, ...]
    result: Any
    version: int = field(default=VERSION)

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "workflow": self.workflow,
            "run_id": self.run_id,
            "started_at": self.started_at.isoformat(),
            "input": self.input,
            "commands": [
                {
                    "seq": c.seq,
                    "kind": c.kind,
                    "name": c.name,
                    "request": c.request,
                    "key": c.key,
                    "result": c.result,
                    "error": None
                    if c.error is None
                    else {"type": c.error.type, "message": c.error.message},
                }
                for c in self.commands
            ],
            "result": self.result,
        }

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
        try:
            text = Path(path).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise HistoryError("no such file", source) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise HistoryError(f"cannot read: {exc}", source) from None
        return cls.from_json(text, source=source)

    @classmethod
    def from_json(cls, text: str, source: str = "<history>") -> RecordedHistory:
        try:
            data = json.loads(
                text, object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constant
            )
        except json.JSONDecodeError as exc:
            raise HistoryError(
                f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})", source
            ) from None
        except ValueError as exc:  # raised by the hooks above
            raise HistoryError(f"not valid JSON: {exc}", source) from None
        return cls.from_dict(data, source=source)

    @classmethod
    def from_dict(cls, data: Any, source: str = "<history>") -> RecordedHistory:
        return _Reader(source).history(data)


def describe(kind: str, name: str, request: Any) -> str:
    """A short readable spelling of a command, e.g. ``activity charge("tok_1", 1200, currency="EUR")``."""
    if kind == "patch":
        return f"patch {name!r}"
    parts = [shorten(dumps(a), 48) for a in request.get("args", [])]
    parts += [f"{k}={shorten(dumps(v), 48)}" for k, v in sorted(request.get("kwargs", {}).items())]
    return shorten(f"{kind} {name}({', '.join(parts)})", 160)


def patch_request(name: str) -> CommandRequest:
    """The request a patch check makes: no arguments, so its key is the same for every patch."""
    request: dict[str, Any] = {"args": [], "kwargs": {}}
    return CommandRequest(kind="patch", name=name, request=request, key=request_key(request))


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {key!r}")
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


class _Reader:
    """Validates a decoded document field by field; every complaint names the file and the spot."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, detail: str) -> HistoryError:
        return HistoryError(detail, self.source)

    def history(self, data: Any) -> RecordedHistory:
        if not isinstance(data, dict):
            raise self.fail(f"a history must be a JSON object, got {_json_type(data)}")
        # The version is checked first: a newer document may legitimately have new fields.
        if "version" not in data:
            raise self.fail("missing field 'version'")
        version = data["version"]
        if not _is_int(version):
            raise self.fail(f"field 'version' must be an integer, got {_json_type(version)}")
        if version > VERSION:
            raise self.fail(
                f"history version {version} is newer than this runtime supports (version {VERSION}); "
                "upgrade replaylint"
            )
        if version < 1:
            raise self.fail(
                f"history version {version} is not a valid version (this runtime reads version {VERSION})"
            )
        self.fields(data, _TOP_FIELDS, "")
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
        parsed = tuple(self.command(item, i) for i, item in enumerate(commands))
        self.ordinals(parsed)
        return RecordedHistory(
            workflow=workflow,
            run_id=run_id,
            started_at=self.instant(data["started_at"]),
            input=data["input"],
            commands=parsed,
            result=data["result"],
            version=version,
        )

    def fields(self, data: dict[str, Any], known: tuple[str, ...], where: str) -> None:
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise self.fail(
                f"{where}unknown field {unknown[0]!r} (known fields: {', '.join(known)})"
            )
        missing = [name for name in known if name not in data]
        if missing:
            raise self.fail(f"{where}missing field {missing[0]!r}")

    def instant(self, value: Any) -> datetime:
        if not isinstance(value, str):
            raise self.fail(
                f"field 'started_at' must be an ISO 8601 string, got {_json_type(value)}"
            )
        try:
            # Python 3.10's fromisoformat does not read a trailing "Z".
            instant = datetime.fromisoformat(
                value[:-1] + "+00:00" if value.endswith("Z") else value
            )
        except ValueError:
            raise self.fail(f"field 'started_at' is not an ISO 8601 instant: {value!r}") from None
        if instant.tzinfo is None or instant.utcoffset() is None:
            raise self.fail(f"field 'started_at' must carry a UTC offset, got naive {value!r}")
        return instant

    def command(self, item: Any, position: int) -> Command:
        where = f"commands[{position}]: "
        if not isinstance(item, dict):
            raise self.fail(f"{where}a command must be a JSON object, got {_json_type(item)}")
        self.fields(item, _COMMAND_FIELDS, where)
        seq, kind, name, request, key = (item[f] for f in ("seq", "kind", "name", "request", "key"))
        if not _is_int(seq) or seq < 0:
            raise self.fail(f"{where}field 'seq' must be a non-negative integer, got {seq!r}")
        if kind not in KINDS:
            raise self.fail(f"{where}field 'kind' must be one of {', '.join(KINDS)}, got {kind!r}")
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
        error = self.error(item["error"], where)
        if error is not None and item["result"] is not None:
            raise self.fail(f"{where}a command with an error must have a null result")
        if kind == "patch" and (
            item["result"] is not True or error is not None or request != EMPTY_REQUEST
        ):
            raise self.fail(
                f"{where}a patch command must have an empty request, result true and no error"
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

    def error(self, value: Any, where: str) -> RecordedError | None:
        if value is None:
            return None
        if not isinstance(value, dict):
            raise self.fail(
                f"{where}field 'error' must be null or an object, got {_json_type(value)}"
            )
        self.fields(value, _ERROR_FIELDS, f"{where}error: ")
        if (
            not isinstance(value["type"], str)
            or not value["type"]
            or not isinstance(value["message"], str)
        ):
            raise self.fail(
                f"{where}error: 'type' must be a non-empty string and 'message' a string"
            )
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


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


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
