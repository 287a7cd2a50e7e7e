"""A record's [versioning] table: what `check --base` compares for one framework (also the
runtime's own, rules/runtime.toml)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from replaylint.presets.parts import (
    RecordError,
    known,
    optional_patterns,
    optional_strings,
    patterns,
    strings,
    subtable,
)
from replaylint.presets.patterns import Patterns

VERSIONING_MODELS = ("patching", "pinned")


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
    # A call whose target sits elsewhere than its kind's (`enqueue_workflow(queue, func)`).
    call_targets: tuple[tuple[Patterns, tuple[str, ...]], ...] = ()
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
    # False: a class that is workflow code only by deriving from the framework's own base
    # (Temporal's interceptors) is registered under no name: no run is bound to it.
    bases_named: bool = True
    # The entry decorator's keyword that sets one workflow's own model, by the last name of the
    # value given (Temporal's `versioning_behavior=VersioningBehavior.PINNED`): model-values.
    model_keyword: str = ""
    # The project text that fixes the version its runs are recovered under, in priority order,
    # each with the version as its first group or the whole match (DBOS's application_version,
    # else enable_patching's constant): runs in flight replay on the new code only when both
    # sides fix the same version. Without one, each deploy is a version of its own.
    fixed_versions: tuple[str, ...] = ()
    model_values: dict[str, str] = field(default_factory=dict)

    def command_kind(self, path: str, keywords: frozenset[str]) -> str | None:
        """The kind of durable command a call of `path` is (given its keyword arguments): a kind
        `given` a keyword first (Prefect's suspend with a key), none when one of its `unless`
        keywords is given (a suspend of another flow run)."""
        for kind, (keyword, calls) in self.given.items():
            if keyword in keywords and calls.matches(path):
                return kind
        for kind, calls in self.commands.items():
            if calls.matches(path):
                return None if keywords & set(self.unless.get(kind, ())) else kind
        return None

    def target_keys(self, kind: str, path: str) -> tuple[str, ...]:
        """The arguments that name what a command of `kind`, a call of `path`, runs."""
        for calls, keys in self.call_targets:
            if calls.matches(path):
                return keys
        return self.targets.get(kind, ("0",))

    def argued(self, kind: str) -> bool:
        """Does the skeleton keep the code of this kind's other arguments? For a keyed kind, it
        tells a renamed key from new work; where an addition at the end is silent (fresh-tail,
        a sequence of its own), it tells a command inserted before its like from one appended."""
        return kind in self.keyed or kind in self.apart or self.fresh_tail

    def step_kind(self, decorators: tuple[str, ...]) -> str | None:
        """The kind of command calling a function with these decorators is (a DBOS step)."""
        for kind, made_by in self.steps.items():
            if any(made_by.matches(path) for path in decorators):
                return kind
        return None

    def handler_kind(self, decorators: tuple[str, ...]) -> str | None:
        for kind, made_by in self.handlers.items():
            if any(made_by.matches(path) for path in decorators):
                return kind
        return None


_VERSIONING_KEYS = {"model", "commands", "given", "steps", "targets", "call-targets"}
_VERSIONING_KEYS |= {"gates", "deprecations", "handlers", "name-keyword", "name-decorators"}
_VERSIONING_KEYS |= {"patching-when", "pinned-when", "unless", "keyed", "apart", "fresh-tail"}
_VERSIONING_KEYS |= {"version-keyword", "name-in-code", "qualified-names", "folder-names"}
_VERSIONING_KEYS |= {"bases-named", "model-keyword", "model-values", "fixed-versions"}


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
    targets = subtable(place, table, "targets")
    unless = subtable(place, table, "unless")
    return Versioning(
        model=table["model"],
        commands=commands,
        given=given,
        steps=steps,
        targets={kind: strings(f"{place} targets", targets, kind) for kind in targets},
        call_targets=_call_targets(place, table),
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
        bases_named=_flag(place, table, "bases-named", True),
        model_keyword=_text(place, table, "model-keyword", ""),
        fixed_versions=optional_patterns(place, table, "fixed-versions").sources,
        model_values=_model_values(place, table),
    )


def _call_targets(
    place: str, table: dict[str, Any]
) -> tuple[tuple[Patterns, tuple[str, ...]], ...]:
    """call pattern -> the argument keys naming its target, for calls that differ from their
    kind's `targets`."""
    found = subtable(place, table, "call-targets")
    where = f"{place} call-targets"
    return tuple(
        (patterns(where, {"calls": [call]}, "calls"), strings(where, found, call)) for call in found
    )


def _model_values(place: str, table: dict[str, Any]) -> dict[str, str]:
    """value name -> the model a workflow given it runs under (`PINNED = "pinned"`)."""
    values = subtable(place, table, "model-values")
    if not all(v in VERSIONING_MODELS for v in values.values()):
        raise RecordError(f"{place}: model-values must each be one of {VERSIONING_MODELS}")
    return dict(values)


def _given(place: str, table: dict[str, Any]) -> dict[str, tuple[str, Patterns]]:
    """kind -> (keyword, calls): a call given that keyword is a command of that kind."""
    given: dict[str, tuple[str, Patterns]] = {}
    for kind, spec in subtable(place, table, "given").items():
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


def _kinds(where: str, table: dict[str, Any], key: str) -> dict[str, Patterns]:
    """A table of kind -> patterns (`activity = ['temporalio\\.workflow\\.execute_activity']`)."""
    kinds = subtable(where, table, key)
    return {kind: patterns(f"{where} {key}", kinds, kind) for kind in kinds}
