"""The parts of a framework record and how each is read: patterns on resolved paths, the cheap
decisions' needles, replay facts, durable integrations and the versioning model; the first
problem of a part is a RecordError naming the file and the key."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from replaylint.presets.patterns import Patterns

# Whether `patterns` compiles each source to refuse a bad one. The shipped records are read on
# every run, warm ones included, and their 300-odd patterns are proven by the test suite (every
# pattern of every shipped record compiles): `shipped_records` reads them without recompiling.
_CHECK_PATTERNS: ContextVar[bool] = ContextVar("check_patterns", default=True)


@contextmanager
def shipped_records() -> Iterator[None]:
    """Read records whose patterns the test suite has already compiled."""
    token = _CHECK_PATTERNS.set(False)
    try:
        yield
    finally:
        _CHECK_PATTERNS.reset(token)


class RecordError(ValueError):
    """A framework record that is not well formed: one line naming the file and the key."""


@dataclass(frozen=True)
class Cheap:
    """What the byte prefilter and CPython's ast gate look for before anything is parsed."""

    import_needle: (
        str  # the substring that finds a package's name in a file's bytes ("": its last name)
    )
    needles: tuple[bytes, ...]  # byte patterns of an entry's spelling
    names: tuple[str, ...]  # identifiers (regular expressions) entries are spelled with
    keywords: tuple[str, ...]  # keyword arguments that declare an entry (`rerun_on_resume`)
    registers: tuple[bytes, ...]  # registrations of another file's functions (index-wide)
    # Qualified names spelled like an entry that are none (`temporalio.activity.defn`).
    not_entries: tuple[str, ...] = ()

    def needle(self, package: str) -> str:
        """One substring per package, shared where names overlap ("durable" covers three
        frameworks' packages), since each needle is one more pass over every byte of a tree.
        A package the import needle is not in (LangGraph's `langchain.agents`) is found by its
        top-level name."""
        if self.import_needle:
            return self.import_needle if self.import_needle in package else package.split(".")[0]
        return package.split(".")[-1]


@dataclass(frozen=True)
class Keys:
    """The arguments of recorded calls by which a replay finds their recorded result (a step's
    id or name): a value there decides the replay. Declared for a call, only these do; an empty
    list says the result is found by the call's position alone."""

    calls: Patterns
    arguments: tuple[str, ...]


@dataclass(frozen=True)
class ReplayFacts:
    """How a framework's replay treats what decision-aware rules ask about."""

    commands: Patterns  # calls (beside the recorders) whose arguments the history records
    loggers: Patterns  # calls that only write a log line, which a replay may drop
    fixed_environment: frozenset[str]  # reads whose value is fixed per deployed version
    module_state: str  # "shared" by every run on a worker, or "per-run" (a sandbox)
    shared_when_keyword: str  # an entry decorator's keyword that, False, turns the sandbox off
    shared_when_runners: Patterns  # worker runners that run workflows without the sandbox
    passed_through: Patterns  # context managers whose imports every run shares
    config_files: tuple[str, ...]  # a settings file beside the app that says which engine runs
    config_key: str  # ... its top-level key
    replayed_when: str  # ... and the value under which the workflows are replayed ("": always)
    keys: tuple[Keys, ...] = ()  # the arguments of recorded calls their results are found by
    # Entries whose result only answers a caller, never recorded nor replayed (a query).
    answers: Patterns = Patterns()
    # Entries a replay never runs again (an update's validator): nothing they decide is compared.
    not_rerun: Patterns = Patterns()


@dataclass(frozen=True)
class Integration:
    """A durable integration of an agent SDK that records its model and tool calls: `runs`
    names the runners (classes or functions) whose calls record them; else an agent or runner
    built by one of `clients`/`factories` with `keyword` holding an instance of one of `holds`
    (the last part of its name) is recorded (`Agent(m, capabilities=[TemporalDurability()])`)."""

    what: str
    runs: tuple[str, ...] = ()
    clients: tuple[str, ...] = ()
    factories: tuple[str, ...] = ()
    keyword: str = ""
    holds: tuple[str, ...] = ()


_INTEGRATION_KEYS = {"what", "source", "runs", "clients", "factories", "keyword", "holds"}
_REPLAY_KEYS = {"commands", "loggers", "fixed-environment", "module-state", "shared-when-keyword"}
_REPLAY_KEYS |= {"shared-when-runners", "passed-through", "config-files", "config-key"}
_REPLAY_KEYS |= {"replayed-when", "keys", "answers", "not-rerun"}
MODULE_STATES = ("shared", "per-run")


def required_table(where: str, data: dict[str, Any], key: str, keys: set[str]) -> dict[str, Any]:
    table = data.get(key)
    if not isinstance(table, dict):
        raise RecordError(f"{where}: [{key}] is missing")
    known(f"{where} [{key}]", table, keys)
    return table


def known(where: str, table: dict[str, Any], keys: set[str]) -> None:
    unknown = sorted(set(table) - keys)
    if unknown:
        raise RecordError(f"{where}: unknown key {unknown[0]!r}")


def strings(where: str, table: dict[str, Any], key: str) -> tuple[str, ...]:
    value = table.get(key)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RecordError(f"{where}: {key} must be a list of strings")
    return tuple(value)


def patterns(where: str, table: dict[str, Any], key: str) -> Patterns:
    sources = strings(where, table, key)
    for source in sources if _CHECK_PATTERNS.get() else ():
        try:
            re.compile(source)
        except re.error as error:
            problem = f"{source!r} is no regular expression: {error}"
            raise RecordError(f"{where}: {key}: {problem}") from None
    return Patterns(sources)


def byte_patterns(where: str, table: dict[str, Any], key: str) -> tuple[bytes, ...]:
    return tuple(p.encode() for p in patterns(where, table, key).sources)


def integrations(where: str, data: dict[str, Any]) -> tuple[Integration, ...]:
    tables = data.get("integrations", [])
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise RecordError(f"{where}: [[integrations]] must be an array of tables")
    return tuple(
        _integration(f"{where} [[integrations]] {t.get('what', '?')!r}", t) for t in tables
    )


def _integration(where: str, table: dict[str, Any]) -> Integration:
    known(where, table, _INTEGRATION_KEYS)
    if not isinstance(table.get("what"), str) or not isinstance(table.get("source"), str):
        raise RecordError(f"{where}: an integration says what it is and where its package shows it")
    lists = {
        key: optional_strings(where, table, key)
        for key in ("runs", "clients", "factories", "holds")
    }
    built = lists["clients"] or lists["factories"]
    if bool(lists["runs"]) == bool(built) or bool(built) != bool(lists["holds"]):
        raise RecordError(
            f"{where}: give `runs`, or `clients`/`factories` with `keyword` and `holds`"
        )
    return Integration(
        what=table["what"],
        runs=lists["runs"],
        clients=lists["clients"],
        factories=lists["factories"],
        keyword=str(table.get("keyword", "")),
        holds=lists["holds"],
    )


def replay_facts(where: str, data: dict[str, Any]) -> ReplayFacts:
    table = required_table(where, data, "replay", _REPLAY_KEYS)
    state = table.get("module-state", "shared")
    if state not in MODULE_STATES:
        raise RecordError(f"{where} [replay]: module-state must be one of shared, per-run")
    files = optional_strings(where, table, "config-files")

    def optional(key: str) -> Patterns:
        return optional_patterns(where, table, key)

    return ReplayFacts(
        commands=optional("commands"),
        loggers=optional("loggers"),
        fixed_environment=frozenset(optional_strings(where, table, "fixed-environment")),
        module_state=state,
        shared_when_keyword=str(table.get("shared-when-keyword", "")),
        shared_when_runners=optional("shared-when-runners"),
        passed_through=optional("passed-through"),
        config_files=files,
        config_key=str(table.get("config-key", "")),
        replayed_when=str(table.get("replayed-when", "")),
        keys=_keys(f"{where} [replay]", table),
        answers=optional("answers"),
        not_rerun=optional("not-rerun"),
    )


def _keys(where: str, table: dict[str, Any]) -> tuple[Keys, ...]:
    entries = table.get("keys", [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise RecordError(f"{where}: [[replay.keys]] must be an array of tables")
    found = []
    for index, entry in enumerate(entries):
        at = f"{where} [[replay.keys]] {index + 1}"
        known(at, entry, {"calls", "arguments"})
        found.append(Keys(patterns(at, entry, "calls"), strings(at, entry, "arguments")))
    return tuple(found)


def subtable(where: str, table: dict[str, Any], key: str) -> dict[str, Any]:
    found = table.get(key, {})
    if not isinstance(found, dict):
        raise RecordError(f"{where}: {key} must be a table")
    return found


def optional_patterns(where: str, table: dict[str, Any], key: str) -> Patterns:
    return patterns(where, table, key) if key in table else Patterns()


def optional_strings(where: str, table: dict[str, Any], key: str) -> tuple[str, ...]:
    return strings(where, table, key) if key in table else ()
