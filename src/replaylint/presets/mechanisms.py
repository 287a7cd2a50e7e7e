"""The parts of a record that shape what a walk marks: suspending calls and hosted callables."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from replaylint.presets.parts import RecordError, known, patterns, strings
from replaylint.presets.patterns import Patterns

ROLES = ("holds", "runs", "hosts")


@dataclass(frozen=True)
class Suspends:
    """Calls that end a run until something resumes it (LangGraph's `interrupt()`, Prefect's
    `suspend_flow_run`, Resonate's durable operations): on resume the code that led to them runs
    again. Some functions are replayed only when they reach one: those declared by `functions`
    (decorators) or `registrars`, and with `nested` the functions the framework records, which
    are then replayed instead. With `prefix` such a function is replayed only up to its last
    suspending call: what follows runs once. `context_param`: where a nested unit takes its own
    run context (AWS's child context is the first parameter of what `run_in_child_context` and
    `map` are given), when its framework's entries take theirs elsewhere."""

    calls: Patterns = Patterns()
    unless_keywords: frozenset[str] = frozenset()  # the call suspends another run, not this one
    functions: Patterns = Patterns()
    registrars: Patterns = Patterns()
    nested: bool = False
    prefix: bool = False
    context_param: int | None = None
    # The recorded calls and decorators whose callables are such nested units (AWS's child
    # contexts, not its steps); with `nested` and none listed, every one the record has.
    nests: Patterns = Patterns()

    def suspends(self, path: str, keywords: frozenset[str]) -> bool:
        return self.calls.matches(path) and not (keywords & self.unless_keywords)

    def nests_by(self, path: str) -> bool:
        """Is what this recorded call or decorator (its resolved path) runs a nested unit?"""
        return self.nested and (not self.nests.sources or self.nests.matches(path))


@dataclass(frozen=True)
class Hosted:
    """Callables handed to a call that the framework itself calls inside a workflow (an agent's
    tools, a graph's routers, a workflow's edge conditions). `holds`: the call's result (or the
    builder it is a method of) holds the callables given at `arguments`, and those held by the
    values given there; `runs`: the callables held by the values given at `arguments` (and by
    the receiver) are called here; `hosts`: they become entries of the record's framework.
    `when`: only callables for which an argument holds a value (`metadata.execute_in` equal to
    "workflow"; `{name}` in the path stands for the callable's name). `sync_only`: coroutine
    functions are never called (the host evaluates them synchronously)."""

    calls: Patterns
    role: str
    arguments: tuple[str, ...]  # positions ("0") and keywords; "*" for every argument
    when: tuple[str, str] | None = None
    sync_only: bool = False


def _flag(where: str, table: dict[str, Any], key: str) -> bool:
    value = table.get(key, False)
    if not isinstance(value, bool):
        raise RecordError(f"{where}: {key} must be true or false")
    return value


_SUSPENDS_KEYS = {
    "calls",
    "unless-keywords",
    "functions",
    "registrars",
    "nested",
    "prefix",
    "context-param",
    "nests",
}


def suspends(where: str, data: dict[str, Any]) -> Suspends:
    table = data.get("suspends")
    if table is None:
        return Suspends()
    if not isinstance(table, dict):
        raise RecordError(f"{where}: [suspends] must be a table")
    where = f"{where} [suspends]"
    known(where, table, _SUSPENDS_KEYS)

    def optional(key: str) -> Patterns:
        return patterns(where, table, key) if key in table else Patterns()

    unless = strings(where, table, "unless-keywords") if "unless-keywords" in table else ()
    position = table.get("context-param")
    if position is not None and (not isinstance(position, int) or position < 0):
        raise RecordError(f"{where}: context-param must be a position (0, 1, ...)")
    return Suspends(
        calls=patterns(where, table, "calls"),
        unless_keywords=frozenset(unless),
        functions=optional("functions"),
        registrars=optional("registrars"),
        nested=_flag(where, table, "nested"),
        prefix=_flag(where, table, "prefix"),
        context_param=position,
        nests=optional("nests"),
    )


_HOSTED_KEYS = {"calls", "role", "arguments", "when", "sync-only"}


def hosted(where: str, data: dict[str, Any]) -> tuple[Hosted, ...]:
    entries = data.get("hosted", [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise RecordError(f"{where}: [[hosted]] must be an array of tables")
    found = []
    for index, table in enumerate(entries):
        at = f"{where} [[hosted]] {index + 1}"
        known(at, table, _HOSTED_KEYS)
        role = table.get("role")
        if role not in ROLES:
            raise RecordError(f"{at}: role must be one of {', '.join(ROLES)}")
        when = table.get("when")
        pair: tuple[str, str] | None = None
        if when is not None:
            if not (
                isinstance(when, dict)
                and set(when) == {"path", "equals"}
                and all(isinstance(v, str) for v in when.values())
            ):
                raise RecordError(f"{at}: when must be {{ path = ..., equals = ... }}")
            pair = (when["path"], when["equals"])
        found.append(
            Hosted(
                calls=patterns(at, table, "calls"),
                role=role,
                arguments=strings(at, table, "arguments"),
                when=pair,
                sync_only=_flag(at, table, "sync-only"),
            )
        )
    return tuple(found)


def aliases(where: str, data: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    table = data.get("aliases", {})
    if not isinstance(table, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in table.items()
    ):
        raise RecordError(f"{where}: [aliases] must map package paths to package paths")
    return tuple(sorted(table.items()))
