"""The parts of a framework record and how each is read: patterns on resolved paths, the cheap
decisions' needles, replay facts, durable integrations and the versioning model; the first
problem of a part is a RecordError naming the file and the key."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from replaylint.presets.patterns import Patterns

VERSIONING_MODELS = ("patching", "pinned")
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


@dataclass(frozen=True)
class Versioning:
    """What `check --base` needs of a framework: its versioning model, the calls and decorated
    functions its history records as durable commands (by kind), how a target is read from a
    command's arguments, how a replay finds each kind again (by position, in one sequence or in
    one of its own, or by its key), its version gates and their deprecation, its handler
    decorators, and how a workflow's registered name is declared. Every pattern matches a
    resolved path."""

    model: str  # "patching" or "pinned": how a deploy meets runs already in flight
    commands: dict[str, Patterns] = field(default_factory=dict)  # kind -> calls
    given: dict[str, tuple[str, Patterns]] = field(default_factory=dict)  # kind -> (keyword, calls)
    steps: dict[str, Patterns] = field(default_factory=dict)  # kind -> decorators of functions
    targets: dict[str, tuple[str, ...]] = field(default_factory=dict)  # kind -> argument keys
    gates: Patterns = Patterns()  # calls whose truth opens a version gate (patched)
    deprecations: Patterns = Patterns()  # calls that retire a gate (deprecate_patch)
    handlers: dict[str, Patterns] = field(default_factory=dict)  # kind -> method decorators
    name_keyword: str = "name"  # the entry decorator's keyword that sets the registered name
    name_decorators: Patterns = Patterns()  # decorators whose argument is the registered name
    patching_when: tuple[str, ...] = ()  # project text that switches a pinned model to patching
    pinned_when: tuple[str, ...] = ()  # project text that switches a patching model to pinned
    unless: dict[str, tuple[str, ...]] = field(default_factory=dict)  # kind -> keywords: no command
    # Kinds a replay finds by their key (the target: Inngest's step id), not by their position.
    keyed: frozenset[str] = frozenset()
    # Kinds numbered in a sequence of their own (LangGraph's interrupts count apart from tasks).
    apart: frozenset[str] = frozenset()
    # A command added after every command of the base is new work for a run in flight (its
    # history holds nothing past the base's last command): not reported.
    fresh_tail: bool = False
    version_keyword: str = ""  # the entry decorator's keyword whose value joins the name
    # False: the registered name lives outside the code (Cloudflare's wrangler binding names the
    # workflow, the class is only what it runs): a class renamed in place is the same workflow.
    name_in_code: bool = True
    # True: a function is recorded under its qualified name (`Messages.create`, a method's class
    # and all), as the runtime and DBOS record steps; else under its own name.
    qualified_names: bool = False
    # True: an entry registered by a registrar call (not a decorator) is named by the folder
    # that holds its module, as the Azure Functions host names a function.json function.
    folder_names: bool = False

    def command_kind(self, path: str, keywords: frozenset[str]) -> str | None:
        """The kind of durable command a call of `path` is (given its keyword arguments): a kind
        `given` a keyword first (Prefect's suspend with a key), none when one of its `unless`
        keywords is given (a suspend of another flow run)."""
        for kind, (keyword, patterns) in self.given.items():
            if keyword in keywords and patterns.matches(path):
                return kind
        for kind, patterns in self.commands.items():
            if patterns.matches(path):
                return None if keywords & set(self.unless.get(kind, ())) else kind
        return None

    def argued(self, kind: str) -> bool:
        """Does the skeleton keep the code of this kind's other arguments? For a keyed kind, it
        tells a renamed key from new work; where an addition at the end is silent (fresh-tail,
        a sequence of its own), it tells a command inserted before its like from one appended."""
        return kind in self.keyed or kind in self.apart or self.fresh_tail

    def step_kind(self, decorators: tuple[str, ...]) -> str | None:
        """The kind of command calling a function with these decorators is (a DBOS step)."""
        for kind, patterns in self.steps.items():
            if any(patterns.matches(path) for path in decorators):
                return kind
        return None

    def handler_kind(self, decorators: tuple[str, ...]) -> str | None:
        for kind, patterns in self.handlers.items():
            if any(patterns.matches(path) for path in decorators):
                return kind
        return None


_INTEGRATION_KEYS = {"what", "source", "runs", "clients", "factories", "keyword", "holds"}
_REPLAY_KEYS = {"commands", "loggers", "fixed-environment", "module-state", "shared-when-keyword"}
_REPLAY_KEYS |= {"shared-when-runners", "passed-through", "config-files", "config-key"}
_REPLAY_KEYS |= {"replayed-when", "keys", "answers", "not-rerun"}
MODULE_STATES = ("shared", "per-run")
_VERSIONING_KEYS = {"model", "commands", "given", "steps", "targets", "gates", "deprecations"}
_VERSIONING_KEYS |= {"handlers", "name-keyword", "name-decorators", "patching-when"}
_VERSIONING_KEYS |= {"pinned-when", "unless", "keyed", "apart", "fresh-tail", "version-keyword"}
_VERSIONING_KEYS |= {"name-in-code", "qualified-names", "folder-names"}


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


def versioning_facts(where: str, table: object) -> Versioning:
    """A record's [versioning] table (also the runtime's own, rules/runtime.toml)."""
    if not isinstance(table, dict) or table.get("model") not in VERSIONING_MODELS:
        models = ", ".join(VERSIONING_MODELS)
        raise RecordError(f"{where}: [versioning] needs a model, one of {models}")
    place = f"{where} [versioning]"
    known(place, table, _VERSIONING_KEYS)
    given = _given(place, table)
    commands, steps = _kinds(place, table, "commands"), _kinds(place, table, "steps")
    kinds = {*commands, *given, *steps}
    targets = _subtable(place, table, "targets")
    unless = _subtable(place, table, "unless")
    return Versioning(
        model=table["model"],
        commands=commands,
        given=given,
        steps=steps,
        targets={kind: strings(f"{place} targets", targets, kind) for kind in targets},
        gates=optional_patterns(place, table, "gates"),
        deprecations=optional_patterns(place, table, "deprecations"),
        handlers=_kinds(place, table, "handlers"),
        name_keyword=_text(place, table, "name-keyword", "name"),
        name_decorators=optional_patterns(place, table, "name-decorators"),
        patching_when=optional_patterns(place, table, "patching-when").sources,
        pinned_when=optional_patterns(place, table, "pinned-when").sources,
        unless={kind: strings(f"{place} unless", unless, kind) for kind in unless},
        keyed=_declared_kinds(place, table, "keyed", kinds),
        apart=_declared_kinds(place, table, "apart", kinds),
        fresh_tail=_flag(place, table, "fresh-tail", False),
        version_keyword=_text(place, table, "version-keyword", ""),
        name_in_code=_flag(place, table, "name-in-code", True),
        qualified_names=_flag(place, table, "qualified-names", False),
        folder_names=_flag(place, table, "folder-names", False),
    )


def _given(place: str, table: dict[str, Any]) -> dict[str, tuple[str, Patterns]]:
    """kind -> (keyword, calls): a call given that keyword is a command of that kind."""
    given: dict[str, tuple[str, Patterns]] = {}
    for kind, spec in _subtable(place, table, "given").items():
        if not isinstance(spec, dict) or not isinstance(spec.get("keyword"), str):
            raise RecordError(f"{place}: given.{kind} needs a keyword and calls")
        known(f"{place} given.{kind}", spec, {"keyword", "calls"})
        given[kind] = (spec["keyword"], patterns(f"{place} given.{kind}", spec, "calls"))
    return given


def _declared_kinds(place: str, table: dict[str, Any], key: str, kinds: set[str]) -> frozenset[str]:
    """A list of kinds (`keyed`, `apart`), each one the record declares."""
    listed = optional_strings(place, table, key)
    unknown = sorted(set(listed) - kinds)
    if unknown:
        raise RecordError(f"{place}: {key} names {unknown[0]!r}, which is no command or step kind")
    return frozenset(listed)


def _text(place: str, table: dict[str, Any], key: str, default: str) -> str:
    value = table.get(key, default)
    if not isinstance(value, str):
        raise RecordError(f"{place}: {key} must be text")
    return value


def _flag(place: str, table: dict[str, Any], key: str, default: bool) -> bool:
    value = table.get(key, default)
    if not isinstance(value, bool):
        raise RecordError(f"{place}: {key} must be true or false")
    return value


def _subtable(where: str, table: dict[str, Any], key: str) -> dict[str, Any]:
    found = table.get(key, {})
    if not isinstance(found, dict):
        raise RecordError(f"{where}: {key} must be a table")
    return found


def _kinds(where: str, table: dict[str, Any], key: str) -> dict[str, Patterns]:
    """A table of kind -> patterns (`activity = ['temporalio\\.workflow\\.execute_activity']`)."""
    kinds = _subtable(where, table, key)
    return {kind: patterns(f"{where} {key}", kinds, kind) for kind in kinds}


def optional_patterns(where: str, table: dict[str, Any], key: str) -> Patterns:
    return patterns(where, table, key) if key in table else Patterns()


def optional_strings(where: str, table: dict[str, Any], key: str) -> tuple[str, ...]:
    return strings(where, table, key) if key in table else ()
