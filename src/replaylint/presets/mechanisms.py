"""The parts of a record that shape what a walk marks: suspending calls, hosted callables, keys."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any

_NEVER = re.compile(r"(?!)")
ROLES = ("holds", "runs", "hosts")


class RecordError(ValueError):
    """A framework record that is not well formed: one line naming the file and the key."""


@dataclass(frozen=True)
class Patterns:
    """Alternatives matched against a whole resolved path; compiled on first use."""

    sources: tuple[str, ...] = ()

    @cached_property
    def compiled(self) -> re.Pattern[str]:
        if not self.sources:
            return _NEVER
        return re.compile("|".join(f"(?:{p})" for p in self.sources))

    def matches(self, path: str) -> bool:
        return bool(self.sources) and self.compiled.fullmatch(path) is not None


@dataclass(frozen=True)
class Suspends:
    """Calls that end a run until something resumes it (LangGraph's `interrupt()`, Prefect's
    `suspend_flow_run`, Resonate's durable operations): on resume the code that led to them runs
    again. Some functions are replayed only when they reach one: those declared by `functions`
    (decorators) or `registrars`, and with `nested` the functions the framework records, which
    are then replayed instead. With `prefix` such a function is replayed only up to its last
    suspending call: what follows runs once."""

    calls: Patterns = Patterns()
    unless_keywords: frozenset[str] = frozenset()  # the call suspends another run, not this one
    functions: Patterns = Patterns()
    registrars: Patterns = Patterns()
    nested: bool = False
    prefix: bool = False

    def suspends(self, path: str, keywords: frozenset[str]) -> bool:
        return self.calls.matches(path) and not (keywords & self.unless_keywords)


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


@dataclass(frozen=True)
class Keys:
    """The arguments of recorded calls by which a replay finds their recorded result (a step's
    id or name): a value there decides the replay. Declared for a call, only these do; an empty
    list says the result is found by the call's position alone."""

    calls: Patterns
    arguments: tuple[str, ...]


def strings(where: str, table: dict[str, Any], key: str) -> tuple[str, ...]:
    value = table.get(key)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RecordError(f"{where}: {key} must be a list of strings")
    return tuple(value)


def patterns(where: str, table: dict[str, Any], key: str) -> Patterns:
    sources = strings(where, table, key)
    for source in sources:
        try:
            re.compile(source)
        except re.error as error:
            problem = f"{source!r} is no regular expression: {error}"
            raise RecordError(f"{where}: {key}: {problem}") from None
    return Patterns(sources)


def known(where: str, table: dict[str, Any], keys: set[str]) -> None:
    unknown = sorted(set(table) - keys)
    if unknown:
        raise RecordError(f"{where}: unknown key {unknown[0]!r}")


def _flag(where: str, table: dict[str, Any], key: str) -> bool:
    value = table.get(key, False)
    if not isinstance(value, bool):
        raise RecordError(f"{where}: {key} must be true or false")
    return value


_SUSPENDS_KEYS = {"calls", "unless-keywords", "functions", "registrars", "nested", "prefix"}


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
    return Suspends(
        calls=patterns(where, table, "calls"),
        unless_keywords=frozenset(unless),
        functions=optional("functions"),
        registrars=optional("registrars"),
        nested=_flag(where, table, "nested"),
        prefix=_flag(where, table, "prefix"),
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


def keys(where: str, table: dict[str, Any]) -> tuple[Keys, ...]:
    entries = table.get("keys", [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise RecordError(f"{where}: [[replay.keys]] must be an array of tables")
    found = []
    for index, entry in enumerate(entries):
        at = f"{where} [[replay.keys]] {index + 1}"
        known(at, entry, {"calls", "arguments"})
        found.append(Keys(patterns(at, entry, "calls"), strings(at, entry, "arguments")))
    return tuple(found)


def aliases(where: str, data: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    table = data.get("aliases", {})
    if not isinstance(table, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in table.items()
    ):
        raise RecordError(f"{where}: [aliases] must map package paths to package paths")
    return tuple(sorted(table.items()))
