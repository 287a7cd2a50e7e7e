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
from replaylint.presets.parts import (
    VERSIONING_MODELS,
    Cheap,
    Integration,
    Patterns,
    RecordError,
    ReplayFacts,
    Versioning,
    _bytes_patterns,
    _integrations,
    _known,
    _patterns,
    _replay,
    _strings,
    _table,
    versioning_facts,
)

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
    integrations: tuple[Integration, ...] = ()

    def remedy(self, key: str) -> str | None:
        return self.remedies.get(key)


_TOP_KEYS = {"title", "packages", "versioning", "safe", "entries", "recorded", "cheap"}
_TOP_KEYS |= {"remedies", "fixes", "replay", "integrations"}
_ENTRY_KEYS = {"classes", "methods", "functions", "registrars", "context-types"}
_ENTRY_KEYS |= {"context-param", "context-type"}
_RECORDED_KEYS = {"decorators", "registrars", "calls", "child-workflows", "inline-decorators"}
_CHEAP_KEYS = {"import-needle", "needles", "names", "keywords", "registers"}


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
        replay=_replay(where, data),
        remedies=dict(remedies),
        fixes=tuple(fixes),
        integrations=_integrations(where, data),
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
