"""One record per framework (rules/frameworks/<name>.toml), loaded and checked once per process.

A record holds everything the tool knows of a framework: its packages, how its workflow code is
declared, what it records, its safe APIs, its remedies and fixes, the byte needles and names of
the cheap decisions, the registrations that invalidate the index, and its versioning model.
Every other table that names a framework is derived from these records.

Patterns match *resolved* paths (after imports, aliases and instances are folded), never the
spelling in the source: `@wf.defn` is Temporal only when `wf` is `temporalio.workflow`. Instance
paths carry `()`: `restate.Service().handler` is the `handler` method of a Service.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from replaylint.core.docs import rules_dir
from replaylint.presets import mechanisms
from replaylint.presets.mechanisms import (
    Hosted,
    Keys,
    Patterns,
    RecordError,
    Suspends,
    known,
    patterns,
    strings,
)

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

VERSIONING_MODELS = ("patching", "pinned")
__all__ = ["Patterns", "Preset", "RecordError", "presets"]


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
        frameworks' packages), since each needle is one more pass over every byte of a tree."""
        return self.import_needle or package.split(".")[-1]


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
class Preset:
    name: str
    title: str
    packages: tuple[str, ...]  # import names: what the prefilter looks for, and annotation roots
    versioning: str  # "patching" or "pinned": how a deploy meets runs already in flight
    workflow_classes: Patterns  # class decorators marking a workflow class
    workflow_methods: Patterns  # its handler decorators: those methods run replayed
    workflow_functions: Patterns  # function decorators: the body is replayed
    workflow_registrars: Patterns  # calls whose function argument is replayed
    workflow_bases: Patterns  # base classes marking a workflow class (`WorkflowEntrypoint`)
    method_names: frozenset[str]  # methods of a workflow class replayed by name (`run`)
    entry_calls: Patterns  # calls that mark the function making them an entry
    context_types: Patterns  # parameter annotations naming the run context
    context_param: int | None  # position of an unannotated context parameter
    context_type: str  # what that parameter is bound to
    recorded_decorators: Patterns  # activities, steps: served from history
    recorded_registrars: Patterns  # calls registering an activity function
    recorders: Patterns  # calls that run the callable they are given, recorded
    inline_activities: Patterns  # activity decorators whose body runs inline when called directly
    child_workflows: bool  # a workflow calling another directly starts a recorded child
    safe: frozenset[str]  # catalog roots that this framework makes deterministic
    cheap: Cheap
    replay: ReplayFacts
    remedies: dict[str, str]  # a rule's remedy key (its code, or a named case) -> the text
    fixes: tuple[dict[str, Any], ...] = field(default=())  # entries as rules/fixes.toml's
    suspends: Suspends = Suspends()  # calls a run stops at, and what they make replayed
    hosted: tuple[Hosted, ...] = ()  # callables the framework calls inside its workflows
    # Paths under a key are the same objects as under its value: a renamed package's old path
    # (`temporalio.contrib.openai_agents`), another package's engine vendored under this one.
    aliases: tuple[tuple[str, str], ...] = ()
    local_folders: bool = False  # a local folder of a package's name is the project's own
    integrations: tuple[Integration, ...] = ()

    def remedy(self, key: str) -> str | None:
        return self.remedies.get(key)


_TOP_KEYS = {"title", "packages", "versioning", "safe", "entries", "recorded", "cheap"}
_TOP_KEYS |= {"remedies", "fixes", "replay", "integrations", "suspends", "hosted"}
_TOP_KEYS |= {"aliases", "local-folders"}
_INTEGRATION_KEYS = {"what", "source", "runs", "clients", "factories", "keyword", "holds"}
_REPLAY_KEYS = {"commands", "loggers", "fixed-environment", "module-state", "shared-when-keyword"}
_REPLAY_KEYS |= {"shared-when-runners", "passed-through", "config-files", "config-key"}
_REPLAY_KEYS |= {"replayed-when", "keys"}
MODULE_STATES = ("shared", "per-run")
_ENTRY_KEYS = {"classes", "methods", "functions", "registrars", "context-types"}
_ENTRY_KEYS |= {"context-param", "context-type", "bases", "method-names", "calls"}
_RECORDED_KEYS = {"decorators", "registrars", "calls", "child-workflows", "inline-decorators"}
_CHEAP_KEYS = {"import-needle", "needles", "names", "keywords", "registers"}


def _table(where: str, data: dict[str, Any], key: str, keys: set[str]) -> dict[str, Any]:
    table = data.get(key)
    if not isinstance(table, dict):
        raise RecordError(f"{where}: [{key}] is missing")
    known(f"{where} [{key}]", table, keys)
    return table


def _byte_patterns(where: str, table: dict[str, Any], key: str) -> tuple[bytes, ...]:
    return tuple(p.encode() for p in patterns(where, table, key).sources)


def build(name: str, data: dict[str, Any], where: str) -> Preset:
    """A Preset from one record's table; the first problem raises RecordError."""
    known(where, data, _TOP_KEYS)
    entries = _table(where, data, "entries", _ENTRY_KEYS)
    recorded = _table(where, data, "recorded", _RECORDED_KEYS)
    cheap = _table(where, data, "cheap", _CHEAP_KEYS)
    remedies = data.get("remedies")
    if not isinstance(remedies, dict) or not all(isinstance(v, str) for v in remedies.values()):
        raise RecordError(f"{where}: [remedies] is missing or holds a value that is no text")
    versioning = data.get("versioning")
    if versioning not in VERSIONING_MODELS:
        raise RecordError(f"{where}: versioning must be one of {', '.join(VERSIONING_MODELS)}")
    packages = strings(where, data, "packages")
    if not packages or not isinstance(data.get("title"), str):
        raise RecordError(f"{where}: a record needs a title and at least one package")
    context_param = entries.get("context-param")
    if context_param is not None and (not isinstance(context_param, int) or context_param < 0):
        raise RecordError(f"{where} [entries]: context-param must be a position (0, 1, ...)")
    fixes = data.get("fixes", [])
    if not isinstance(fixes, list) or not all(isinstance(f, dict) for f in fixes):
        raise RecordError(f"{where}: [[fixes]] must be an array of tables")
    return Preset(
        name=name,
        title=data["title"],
        packages=packages,
        versioning=versioning,
        workflow_classes=patterns(where, entries, "classes"),
        workflow_methods=patterns(where, entries, "methods"),
        workflow_functions=patterns(where, entries, "functions"),
        workflow_registrars=patterns(where, entries, "registrars"),
        workflow_bases=_optional(where, entries, "bases"),
        method_names=frozenset(_optional_strings(where, entries, "method-names")),
        entry_calls=_optional(where, entries, "calls"),
        context_types=patterns(where, entries, "context-types"),
        context_param=context_param,
        context_type=str(entries.get("context-type", "")),
        recorded_decorators=patterns(where, recorded, "decorators"),
        recorded_registrars=patterns(where, recorded, "registrars"),
        recorders=patterns(where, recorded, "calls"),
        inline_activities=patterns(where, recorded, "inline-decorators"),
        child_workflows=bool(recorded.get("child-workflows", False)),
        safe=frozenset(strings(where, data, "safe")),
        cheap=Cheap(
            import_needle=str(cheap.get("import-needle", "")),
            needles=_byte_patterns(where, cheap, "needles"),
            names=strings(where, cheap, "names"),
            keywords=strings(where, cheap, "keywords"),
            registers=_byte_patterns(where, cheap, "registers"),
        ),
        replay=_replay(where, data),
        remedies=dict(remedies),
        fixes=tuple(fixes),
        suspends=mechanisms.suspends(where, data),
        hosted=mechanisms.hosted(where, data),
        aliases=mechanisms.aliases(where, data),
        local_folders=bool(data.get("local-folders", False)),
        integrations=_integrations(where, data),
    )


def _integrations(where: str, data: dict[str, Any]) -> tuple[Integration, ...]:
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
        key: _optional_strings(where, table, key)
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


def _optional_strings(where: str, table: dict[str, Any], key: str) -> tuple[str, ...]:
    return strings(where, table, key) if key in table else ()


def _optional(where: str, table: dict[str, Any], key: str) -> Patterns:
    return patterns(where, table, key) if key in table else Patterns()


def _replay(where: str, data: dict[str, Any]) -> ReplayFacts:
    table = _table(where, data, "replay", _REPLAY_KEYS)
    state = table.get("module-state", "shared")
    if state not in MODULE_STATES:
        raise RecordError(f"{where} [replay]: module-state must be one of shared, per-run")
    files = _optional_strings(where, table, "config-files")

    def optional(key: str) -> Patterns:
        return _optional(where, table, key)

    return ReplayFacts(
        commands=optional("commands"),
        loggers=optional("loggers"),
        fixed_environment=frozenset(_optional_strings(where, table, "fixed-environment")),
        module_state=state,
        shared_when_keyword=str(table.get("shared-when-keyword", "")),
        shared_when_runners=optional("shared-when-runners"),
        passed_through=optional("passed-through"),
        config_files=files,
        config_key=str(table.get("config-key", "")),
        replayed_when=str(table.get("replayed-when", "")),
        keys=mechanisms.keys(f"{where} [replay]", table),
    )


def records_dir() -> Path:
    return rules_dir() / "frameworks"


def load(folder: Path) -> dict[str, Preset]:
    """Every record in `folder`, by name (the file's stem), in name order."""
    presets: dict[str, Preset] = {}
    for path in sorted(folder.glob("*.toml")):
        where = f"{path.parent.name}/{path.name}"
        try:
            with open(path, "rb") as handle:
                data = tomllib.load(handle)
        except tomllib.TOMLDecodeError as error:
            raise RecordError(f"{where}: invalid TOML: {error}") from None
        presets[path.stem] = build(path.stem, data, where)
    return presets


@lru_cache(maxsize=1)
def presets() -> dict[str, Preset]:
    """The shipped records, loaded once per process."""
    return load(records_dir())


def preset_names() -> tuple[str, ...]:
    return tuple(presets())


def inline_activity(path: str) -> bool:
    """Is `path` an activity decorator whose function runs inline when called directly (every
    record's, whichever frameworks a run enables: the body is exempt either way)?"""
    return any(preset.inline_activities.matches(path) for preset in presets().values())


def preset_packages() -> dict[str, tuple[str, ...]]:
    """The packages of each record that a local folder never stands in for (a record whose
    package name is a common folder name, Cloudflare's `workers`, lets the project's own win)."""
    return {name: p.packages for name, p in presets().items() if not p.local_folders}
