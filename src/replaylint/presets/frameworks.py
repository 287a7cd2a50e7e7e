"""The questions the analysis asks of the enabled presets: is this decorator, call or annotation
a workflow entry, a recorded zone or a run context of one of them? The facts are the records'
(presets/records.py); this class only matches resolved paths against them, after the records'
`aliases` have named each path as its framework does (a renamed or vendored package)."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from replaylint.presets.mechanisms import Hosted
from replaylint.presets.records import Patterns, Preset, presets


@lru_cache(maxsize=1)
def _aliases() -> tuple[re.Pattern[str] | None, dict[str, str]]:
    """Every record's aliases (a rename is a fact of the packages, whichever presets a run
    enables): one pattern of the old prefixes, longest first, and where each leads."""
    table = {old: new for preset in presets().values() for old, new in preset.aliases}
    if not table:
        return None, {}
    olds = sorted(table, key=len, reverse=True)
    pattern = re.compile("|".join(re.escape(old) + r"(?=\.|\(|$)" for old in olds))
    return pattern, table


def canonical(path: str) -> str:
    """`path` as its framework names it: `temporalio.contrib.openai_agents.workflow.x` is
    `temporalio.openai_agents.workflow.x` since the package moved."""
    pattern, table = _aliases()
    if pattern is None:
        return path
    found = pattern.match(path)
    return table[found.group(0)] + path[found.end() :] if found else path


# The patterns of a record that Frameworks._first looks through, by name.
_PARTS: dict[str, Callable[[Preset], Patterns]] = {
    "workflow_classes": lambda p: p.workflow_classes,
    "workflow_bases": lambda p: p.workflow_bases,
    "workflow_functions": lambda p: p.workflow_functions,
    "workflow_registrars": lambda p: p.workflow_registrars,
    "entry_calls": lambda p: p.entry_calls,
    "recorded_decorators": lambda p: p.recorded_decorators,
    "recorded_registrars": lambda p: p.recorded_registrars,
    "context_types": lambda p: p.context_types,
    "recorders": lambda p: p.recorders,
    "suspend_functions": lambda p: p.suspends.functions,
    "suspend_registrars": lambda p: p.suspends.registrars,
}


_ANSWERS: dict[tuple[int, ...], tuple[tuple[Preset, ...], dict[tuple[str, object], object]]] = {}


class Frameworks:
    """The enabled presets, asked by the evaluator about decorators, calls and annotations."""

    def __init__(
        self,
        names: tuple[str, ...] | None = None,
        declared: dict[str, str] | None = None,
        bases: dict[str, str] | None = None,
    ) -> None:
        self.presets = (
            tuple(presets().values()) if names is None else tuple(presets()[n] for n in names)
        )
        self._roots = tuple(p for preset in self.presets for p in preset.packages)
        # `workflow-decorators`: a decorator's qualified name -> the preset whose rules apply to
        # what it decorates (a wrapper framework's own decorator, a company's).
        self._declared = {name: presets()[preset] for name, preset in (declared or {}).items()}
        self._hosted = tuple((p, rule) for p in self.presets for rule in p.hosted)
        # `workflow-bases`: a base class's qualified name -> the preset whose workflows its
        # subclasses are (a framework built on another turns them into workflows at run time).
        self._bases = {name: presets()[preset] for name, preset in (bases or {}).items()}
        # The walk asks about the same few paths again and again: each answer is kept, and
        # shared by every Frameworks of the same records in this process (each batch's Project
        # has one), since an answer depends on the records alone.
        key = tuple(map(id, self.presets))
        kept = _ANSWERS.get(key)
        if kept is None:  # the records are kept with their answers, so no id is reused
            kept = _ANSWERS[key] = (self.presets, {})
        self._answers: dict[tuple[str, object], object] = kept[1]

    def _first(self, part: str, path: str) -> Preset | None:
        """The first preset whose `part` patterns match `path` (as its framework names it)."""
        key = (part, path)
        if key not in self._answers:
            canon = canonical(path)
            patterns = _PARTS[part]
            found = next((p for p in self.presets if patterns(p).matches(canon)), None)
            self._answers[key] = found
        return self._answers[key]  # type: ignore[return-value]

    def declared_base(self, path: str) -> Preset | None:
        """The preset whose workflows subclasses of `path` are, by the `workflow-bases`
        setting. A local class's name may carry the folders above its import root
        (`app.sdk.Pipeline` for `sdk.Pipeline`)."""
        if not self._bases:
            return None
        found = self._bases.get(path)
        if found is None:
            found = next((p for name, p in self._bases.items() if path.endswith("." + name)), None)
        return found

    def _declared_preset(self, path: str) -> Preset | None:
        # `app.workflow` on an instance resolves to `mcp_agent.app.MCPApp().workflow`; the
        # declaration names the method as `mcp_agent.app.MCPApp.workflow`.
        return self._declared.get(path.replace("()", "")) if self._declared else None

    def get(self, name: str) -> Preset | None:
        return next((p for p in self.presets if p.name == name), None)

    def safe_paths(self, names: list[str]) -> frozenset[str]:
        found: set[str] = set()
        for name in names:
            preset = self.get(name)
            if preset is not None:
                found |= preset.safe
        return frozenset(found)

    def workflow_class(self, path: str) -> Preset | None:
        declared = self._declared_preset(path)
        if declared is not None:
            return declared
        return self._first("workflow_classes", path)

    def workflow_base(self, path: str) -> Preset | None:
        """The preset whose workflow classes derive from this base (`WorkflowEntrypoint`)."""
        return self._first("workflow_bases", path)

    def workflow_method(
        self, framework: str, decorators: list[str], name: str, by_base: bool = False
    ) -> bool:
        """Does this method of a workflow class of `framework` run in workflow context itself?
        `by_base`: the class is one by its framework's base class, whose methods named in the
        record's `method-names` are (a decorated Temporal workflow's `info` is no hook)."""
        preset = self.get(framework)
        if preset is None:
            return False
        if name == "__init__" or (by_base and name in preset.method_names):
            return True  # the workflow object is built on every run and replay
        return any(preset.workflow_methods.matches(canonical(path)) for path in decorators)

    def workflow_function(self, path: str) -> Preset | None:
        declared = self._declared_preset(path)
        if declared is not None:
            return declared
        return self._first("workflow_functions", path)

    def workflow_registrar(self, path: str) -> Preset | None:
        return self._first("workflow_registrars", path)

    def entry_call(self, path: str) -> Preset | None:
        """The preset whose entries are marked by making this call (wrapping the run context)."""
        return self._first("entry_calls", path)

    def recorded_decorator(self, path: str) -> Preset | None:
        return self._first("recorded_decorators", path)

    def recorded_registrar(self, path: str) -> Preset | None:
        return self._first("recorded_registrars", path)

    def context_parameter(self, path: str) -> Preset | None:
        """The preset whose run context a parameter annotation names (`ctx: OrchestrationContext`)."""
        return self._first("context_types", path)

    def recorder(self, path: str) -> Preset | None:
        """The preset that runs the callable handed to this call recorded (`ctx.run(fn)`)."""
        return self._first("recorders", path)

    # ------------------------------------------------------------------ suspending calls

    def suspending(self, path: str, keywords: frozenset[str]) -> Preset | None:
        """The preset whose run stops at this call until it is resumed (`interrupt()`)."""
        key = ("suspends", (path, keywords))
        if key not in self._answers:
            canon = canonical(path)
            found = next((p for p in self.presets if p.suspends.suspends(canon, keywords)), None)
            self._answers[key] = found
        return self._answers[key]  # type: ignore[return-value]

    def conditional_function(self, path: str) -> Preset | None:
        """The preset that replays what this decorator marks only when it reaches a suspend."""
        return self._first("suspend_functions", path)

    def conditional_registrar(self, path: str) -> Preset | None:
        return self._first("suspend_registrars", path)

    # ------------------------------------------------------------------ hosted callables

    def hosted(self, path: str) -> list[tuple[Preset, Hosted]]:
        """The rules of callables the framework calls inside a workflow that this call is in."""
        if not self._hosted:
            return []
        key = ("hosted", path)
        if key not in self._answers:
            canon = canonical(path)
            found = [(preset, rule) for preset, rule in self._hosted if rule.calls.matches(canon)]
            self._answers[key] = found
        return list(self._answers[key])  # type: ignore[call-overload]

    # ------------------------------------------------------------------ replay facts

    def command(self, path: str) -> bool:
        """Does the history record this call's arguments (a recorder, a timer, a signal, ...)?"""
        key = ("command", path)
        if key not in self._answers:
            canon = canonical(path)
            self._answers[key] = any(
                p.recorders.matches(canon) or p.replay.commands.matches(canon) for p in self.presets
            )
        return bool(self._answers[key])

    def keys(self, path: str) -> tuple[str, ...] | None:
        """The arguments by which a replay finds this recorded call's result (None: all)."""
        key = ("keys", path)
        if key not in self._answers:
            canon = canonical(path)
            matching = (
                k.arguments for p in self.presets for k in p.replay.keys if k.calls.matches(canon)
            )
            self._answers[key] = next(matching, None)
        return self._answers[key]  # type: ignore[return-value]

    def answers(self, decorator: str) -> bool:
        """Does this decorator make an entry whose result only answers its caller (a query)?"""
        return self._replay_fact("answers", decorator)

    def logger(self, path: str) -> bool:
        return self._replay_fact("loggers", path)

    def not_rerun(self, decorator: str) -> bool:
        """Does this decorator make an entry a replay never runs again (an update's validator)?"""
        return self._replay_fact("not_rerun", decorator)

    def _replay_fact(self, fact: str, path: str) -> bool:
        """Does some preset's [replay] `fact` (its patterns) match `path`? Once per path."""
        key = (fact, path)
        if key not in self._answers:
            canon = canonical(path)
            self._answers[key] = any(getattr(p.replay, fact).matches(canon) for p in self.presets)
        return bool(self._answers[key])

    def fixed_environment(self, path: str, names: list[str]) -> bool:
        """Is `path` a read whose value the frameworks `names` fix per deployed version?"""
        for name in names:
            preset = self.get(name)
            fixed = preset.replay.fixed_environment if preset is not None else ()
            if any(
                path == f or path.startswith(f + ".") or path.startswith(f + "[") for f in fixed
            ):
                return True
        return False

    def integration_runs(self, module: str, qualname: str) -> bool:
        """Is `qualname` of `module` (the integration's own source) a durable runner that a
        record's integration names (`dbos_openai_agents.DBOSRunner` for `DBOSRunner.run` in
        `dbos_openai_agents.runner`)? Every record's, whichever frameworks a run enables."""
        top, owner = module.split(".")[0], qualname.split(".")[0]
        return any(
            runner.split(".")[0] == top and runner.rsplit(".", 1)[-1] == owner
            for preset in presets().values()
            for integration in preset.integrations
            for runner in integration.runs
        )

    def is_framework_path(self, path: str) -> bool:
        return any(path == root or path.startswith(root + ".") for root in self._roots)
