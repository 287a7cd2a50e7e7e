"""Commands: what workflow code asks for, what a history records of it, and how both read."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from replaylint.workflows.canonical import dumps, request_key, shorten

# The command kinds each history version can hold (history.py says what else version 2 added).
KINDS_BY_VERSION = {
    1: ("activity", "model_call", "patch"),
    2: ("activity", "model_call", "patch", "timer", "deprecated_patch"),
}
KINDS = KINDS_BY_VERSION[max(KINDS_BY_VERSION)]
PATCH_KINDS = ("patch", "deprecated_patch")  # decisions: recorded, never delivered
EMPTY_REQUEST: dict[str, Any] = {"args": [], "kwargs": {}}
TIMER_NAME = "sleep"


@dataclass(frozen=True)
class RecordedError:
    """An exception an activity (or the workflow) raised, kept as its type name and message."""

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


def issued_order(commands: tuple[Command, ...]) -> tuple[int, ...]:
    """The seqs of the commands that deliver an outcome, in the order they were issued."""
    return tuple(c.seq for c in commands if c.kind not in PATCH_KINDS)


def describe(kind: str, name: str, request: Any) -> str:
    """A short readable spelling of a command, e.g. ``activity charge("tok_1", 1200, currency="EUR")``."""
    if kind == "patch":
        return f"patch {name!r}"
    if kind == "deprecated_patch":
        return f"deprecated patch {name!r}"
    parts = [shorten(dumps(a), 48) for a in request.get("args", [])]
    parts += [f"{k}={shorten(dumps(v), 48)}" for k, v in sorted(request.get("kwargs", {}).items())]
    return shorten(f"{kind} {name}({', '.join(parts)})", 160)


def patch_request(name: str, kind: str = "patch") -> CommandRequest:
    """The request a patch check makes: no arguments, so its key is the same for every patch."""
    request: dict[str, Any] = {"args": [], "kwargs": {}}
    return CommandRequest(kind=kind, name=name, request=request, key=request_key(request))


def timer_request(seconds: float) -> CommandRequest:
    """The request of a durable timer: its duration is the one argument."""
    request: dict[str, Any] = {"args": [seconds], "kwargs": {}}
    return CommandRequest(kind="timer", name=TIMER_NAME, request=request, key=request_key(request))
