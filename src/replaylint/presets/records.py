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

import re
import sys
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

from replaylint.core.docs import rules_dir

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

VERSIONING_MODELS = ("patching", "pinned")
_NEVER = re.compile(r"(?!)")


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
class Versioning:
    """What `check --base` needs of a framework: its versioning model, the calls and decorated
    functions its history records as durable commands (by kind), how a target is read from a
    command's arguments, its version gates and their deprecation, its handler decorators, and
    how a workflow's registered name is declared. Every pattern matches a resolved path."""

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

    def command_kind(self, path: str, keywords: frozenset[str]) -> str | None:
        """The kind of durable command a call of `path` is (given its keyword arguments)."""
        for kind, patterns in self.commands.items():
            if patterns.matches(path):
                return kind
        for kind, (keyword, patterns) in self.given.items():
            if keyword in keywords and patterns.matches(path):
                return kind
        return None

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


@dataclass(frozen=True)
class Preset:
    name: str
    title: str
    packages: tuple[str, ...]  # import names: what the prefilter looks for, and annotation roots
    versioning: Versioning  # how a deploy meets runs in flight, and what `check --base` reads
    workflow_classes: Patterns  # class decorators marking a workflow class
    workflow_methods: Patterns  # its handler decorators: those methods run replayed
    workflow_functions: Patterns  # function decorators: the body is replayed
    workflow_registrars: Patterns  # calls whose function argument is replayed
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
    remedies: dict[str, str]  # a rule's remedy key (its code, or a named case) -> the text
    fixes: tuple[dict[str, Any], ...] = field(default=())  # entries as rules/fixes.toml's

    def remedy(self, key: str) -> str | None:
        return self.remedies.get(key)


_TOP_KEYS = {"title", "packages", "versioning", "safe", "entries", "recorded", "cheap"}
_VERSIONING_KEYS = {"model", "commands", "given", "steps", "targets", "gates", "deprecations"}
_VERSIONING_KEYS |= {"handlers", "name-keyword", "name-decorators", "patching-when"}
_VERSIONING_KEYS |= {"pinned-when"}
_TOP_KEYS |= {"remedies", "fixes"}
_ENTRY_KEYS = {"classes", "methods", "functions", "registrars", "context-types"}
_ENTRY_KEYS |= {"context-param", "context-type"}
_RECORDED_KEYS = {"decorators", "registrars", "calls", "child-workflows", "inline-decorators"}
_CHEAP_KEYS = {"import-needle", "needles", "names", "keywords", "registers"}


def _table(where: str, data: dict[str, Any], key: str, known: set[str]) -> dict[str, Any]:
    table = data.get(key)
    if not isinstance(table, dict):
        raise RecordError(f"{where}: [{key}] is missing")
    _known(f"{where} [{key}]", table, known)
    return table


def _known(where: str, table: dict[str, Any], known: set[str]) -> None:
    unknown = sorted(set(table) - known)
    if unknown:
        raise RecordError(f"{where}: unknown key {unknown[0]!r}")


def _strings(where: str, table: dict[str, Any], key: str) -> tuple[str, ...]:
    value = table.get(key)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RecordError(f"{where}: {key} must be a list of strings")
    return tuple(value)


def _patterns(where: str, table: dict[str, Any], key: str) -> Patterns:
    sources = _strings(where, table, key)
    for source in sources:
        try:
            re.compile(source)
        except re.error as error:
            problem = f"{source!r} is no regular expression: {error}"
            raise RecordError(f"{where}: {key}: {problem}") from None
    return Patterns(sources)


def _bytes_patterns(where: str, table: dict[str, Any], key: str) -> tuple[bytes, ...]:
    return tuple(p.encode() for p in _patterns(where, table, key).sources)


def build(name: str, data: dict[str, Any], where: str) -> Preset:
    """A Preset from one record's table; the first problem raises RecordError."""
    _known(where, data, _TOP_KEYS)
    entries = _table(where, data, "entries", _ENTRY_KEYS)
    recorded = _table(where, data, "recorded", _RECORDED_KEYS)
    cheap = _table(where, data, "cheap", _CHEAP_KEYS)
    remedies = data.get("remedies")
    if not isinstance(remedies, dict) or not all(isinstance(v, str) for v in remedies.values()):
        raise RecordError(f"{where}: [remedies] is missing or holds a value that is no text")
    versioning = versioning_facts(where, data.get("versioning"))
    packages = _strings(where, data, "packages")
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
        workflow_classes=_patterns(where, entries, "classes"),
        workflow_methods=_patterns(where, entries, "methods"),
        workflow_functions=_patterns(where, entries, "functions"),
        workflow_registrars=_patterns(where, entries, "registrars"),
        context_types=_patterns(where, entries, "context-types"),
        context_param=context_param,
        context_type=str(entries.get("context-type", "")),
        recorded_decorators=_patterns(where, recorded, "decorators"),
        recorded_registrars=_patterns(where, recorded, "registrars"),
        recorders=_patterns(where, recorded, "calls"),
        inline_activities=_patterns(where, recorded, "inline-decorators"),
        child_workflows=bool(recorded.get("child-workflows", False)),
        safe=frozenset(_strings(where, data, "safe")),
        cheap=Cheap(
            import_needle=str(cheap.get("import-needle", "")),
            needles=_bytes_patterns(where, cheap, "needles"),
            names=_strings(where, cheap, "names"),
            keywords=_strings(where, cheap, "keywords"),
            registers=_bytes_patterns(where, cheap, "registers"),
        ),
        remedies=dict(remedies),
        fixes=tuple(fixes),
    )


def versioning_facts(where: str, table: object) -> Versioning:
    """A record's [versioning] table (also the runtime's own, rules/runtime.toml)."""
    if not isinstance(table, dict) or table.get("model") not in VERSIONING_MODELS:
        models = ", ".join(VERSIONING_MODELS)
        raise RecordError(f"{where}: [versioning] needs a model, one of {models}")
    place = f"{where} [versioning]"
    _known(place, table, _VERSIONING_KEYS)
    given: dict[str, tuple[str, Patterns]] = {}
    for kind, spec in _subtable(place, table, "given").items():
        if not isinstance(spec, dict) or not isinstance(spec.get("keyword"), str):
            raise RecordError(f"{place}: given.{kind} needs a keyword and calls")
        _known(f"{place} given.{kind}", spec, {"keyword", "calls"})
        given[kind] = (spec["keyword"], _patterns(f"{place} given.{kind}", spec, "calls"))
    name_keyword = table.get("name-keyword", "name")
    if not isinstance(name_keyword, str):
        raise RecordError(f"{place}: name-keyword must be text")
    return Versioning(
        model=table["model"],
        commands=_kinds(place, table, "commands"),
        given=given,
        steps=_kinds(place, table, "steps"),
        targets={
            kind: _strings(f"{place} targets", _subtable(place, table, "targets"), kind)
            for kind in _subtable(place, table, "targets")
        },
        gates=_optional_patterns(place, table, "gates"),
        deprecations=_optional_patterns(place, table, "deprecations"),
        handlers=_kinds(place, table, "handlers"),
        name_keyword=name_keyword,
        name_decorators=_optional_patterns(place, table, "name-decorators"),
        patching_when=_optional_patterns(place, table, "patching-when").sources,
        pinned_when=_optional_patterns(place, table, "pinned-when").sources,
    )


def _subtable(where: str, table: dict[str, Any], key: str) -> dict[str, Any]:
    found = table.get(key, {})
    if not isinstance(found, dict):
        raise RecordError(f"{where}: {key} must be a table")
    return found


def _kinds(where: str, table: dict[str, Any], key: str) -> dict[str, Patterns]:
    """A table of kind -> patterns (`activity = ['temporalio\\.workflow\\.execute_activity']`)."""
    kinds = _subtable(where, table, key)
    return {kind: _patterns(f"{where} {key}", kinds, kind) for kind in kinds}


def _optional_patterns(where: str, table: dict[str, Any], key: str) -> Patterns:
    return _patterns(where, table, key) if key in table else Patterns()


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
    return {name: preset.packages for name, preset in presets().items()}


@lru_cache(maxsize=1)
def runtime_versioning() -> Versioning:
    """The replaylint.workflows runtime's versioning facts (rules/runtime.toml): the runtime is
    no preset, so it keeps only the record schema's [versioning] table."""
    path = rules_dir() / "runtime.toml"
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except tomllib.TOMLDecodeError as error:
        raise RecordError(f"runtime.toml: invalid TOML: {error}") from None
    _known("runtime.toml", data, {"versioning"})
    return versioning_facts("runtime.toml", data.get("versioning"))
