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

from replaylint.core import docs
from replaylint.core.docs import rules_dir
from replaylint.presets import mechanisms
from replaylint.presets.mechanisms import Hosted, Suspends
from replaylint.presets.parts import (
    Cheap,
    Integration,
    Patterns,
    RecordError,
    ReplayFacts,
    byte_patterns,
    integrations,
    known,
    optional_patterns,
    optional_strings,
    patterns,
    replay_facts,
    required_table,
    shipped_records,
    strings,
)
from replaylint.presets.versioning_parts import VERSIONING_MODELS, Versioning, versioning_facts

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

# What other modules take from the parts through this one.
__all__ = ["Integration", "Patterns", "Preset", "RecordError", "VERSIONING_MODELS", "Versioning"]


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
_ENTRY_KEYS = {"classes", "methods", "functions", "registrars", "context-types"}
_ENTRY_KEYS |= {"context-param", "context-type", "bases", "method-names", "calls"}
_RECORDED_KEYS = {"decorators", "registrars", "calls", "child-workflows", "inline-decorators"}
_CHEAP_KEYS = {"import-needle", "needles", "names", "keywords", "registers", "not-entries"}


def build(name: str, data: dict[str, Any], where: str) -> Preset:
    """A Preset from one record's table; the first problem raises RecordError."""
    known(where, data, _TOP_KEYS)
    entries = required_table(where, data, "entries", _ENTRY_KEYS)
    recorded = required_table(where, data, "recorded", _RECORDED_KEYS)
    cheap = required_table(where, data, "cheap", _CHEAP_KEYS)
    remedies = data.get("remedies")
    if not isinstance(remedies, dict) or not all(isinstance(v, str) for v in remedies.values()):
        raise RecordError(f"{where}: [remedies] is missing or holds a value that is no text")
    versioning = versioning_facts(where, data.get("versioning"))
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
        workflow_bases=optional_patterns(where, entries, "bases"),
        method_names=frozenset(optional_strings(where, entries, "method-names")),
        entry_calls=optional_patterns(where, entries, "calls"),
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
            needles=byte_patterns(where, cheap, "needles"),
            names=strings(where, cheap, "names"),
            keywords=strings(where, cheap, "keywords"),
            registers=byte_patterns(where, cheap, "registers"),
            not_entries=optional_strings(where, cheap, "not-entries"),
        ),
        replay=replay_facts(where, data),
        remedies=dict(remedies),
        fixes=tuple(fixes),
        suspends=mechanisms.suspends(where, data),
        hosted=mechanisms.hosted(where, data),
        aliases=mechanisms.aliases(where, data),
        local_folders=bool(data.get("local-folders", False)),
        integrations=integrations(where, data),
    )


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
    with shipped_records():
        return load(docs.records_dir())


def inline_activity(path: str) -> bool:
    """Is `path` an activity decorator whose function runs inline when called directly (every
    record's, whichever frameworks a run enables: the body is exempt either way)?"""
    return any(preset.inline_activities.matches(path) for preset in presets().values())


def preset_packages() -> dict[str, tuple[str, ...]]:
    """The packages of each record that a local folder never stands in for (a record whose
    package name is a common folder name, Cloudflare's `workers`, lets the project's own win)."""
    return {name: p.packages for name, p in presets().items() if not p.local_folders}


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
    known("runtime.toml", data, {"versioning"})
    return versioning_facts("runtime.toml", data.get("versioning"))
