"""The questions the analysis asks of the enabled presets: is this decorator, call or annotation
a workflow entry, a recorded zone or a run context of one of them? The facts are the records'
(presets/records.py); this class only matches resolved paths against them, after the records'
`aliases` have named each path as its framework does (a renamed or vendored package)."""

from __future__ import annotations

import re
from functools import lru_cache

from replaylint.presets.mechanisms import Hosted
from replaylint.presets.records import Preset, presets


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
        path = canonical(path)
        return next((p for p in self.presets if p.workflow_classes.matches(path)), None)

    def workflow_base(self, path: str) -> Preset | None:
        """The preset whose workflow classes derive from this base (`WorkflowEntrypoint`)."""
        path = canonical(path)
        return next((p for p in self.presets if p.workflow_bases.matches(path)), None)

    def workflow_method(self, framework: str, decorators: list[str], name: str) -> bool:
        """Does this method of a workflow class of `framework` run in workflow context itself?"""
        preset = self.get(framework)
        if preset is None:
            return False
        if name == "__init__" or name in preset.method_names:
            return True  # the workflow object is built on every run and replay
        return any(preset.workflow_methods.matches(canonical(path)) for path in decorators)

    def workflow_function(self, path: str) -> Preset | None:
        declared = self._declared_preset(path)
        if declared is not None:
            return declared
        path = canonical(path)
        return next((p for p in self.presets if p.workflow_functions.matches(path)), None)

    def workflow_registrar(self, path: str) -> Preset | None:
        path = canonical(path)
        return next((p for p in self.presets if p.workflow_registrars.matches(path)), None)

    def entry_call(self, path: str) -> Preset | None:
        """The preset whose entries are marked by making this call (wrapping the run context)."""
        path = canonical(path)
        return next((p for p in self.presets if p.entry_calls.matches(path)), None)

    def recorded_decorator(self, path: str) -> Preset | None:
        path = canonical(path)
        return next((p for p in self.presets if p.recorded_decorators.matches(path)), None)

    def recorded_registrar(self, path: str) -> Preset | None:
        path = canonical(path)
        return next((p for p in self.presets if p.recorded_registrars.matches(path)), None)

    def context_parameter(self, path: str) -> Preset | None:
        """The preset whose run context a parameter annotation names (`ctx: OrchestrationContext`)."""
        path = canonical(path)
        return next((p for p in self.presets if p.context_types.matches(path)), None)

    def recorder(self, path: str) -> Preset | None:
        """The preset that runs the callable handed to this call recorded (`ctx.run(fn)`)."""
        path = canonical(path)
        return next((p for p in self.presets if p.recorders.matches(path)), None)

    # ------------------------------------------------------------------ suspending calls

    def suspending(self, path: str, keywords: frozenset[str]) -> Preset | None:
        """The preset whose run stops at this call until it is resumed (`interrupt()`)."""
        path = canonical(path)
        return next((p for p in self.presets if p.suspends.suspends(path, keywords)), None)

    def conditional_function(self, path: str) -> Preset | None:
        """The preset that replays what this decorator marks only when it reaches a suspend."""
        path = canonical(path)
        return next((p for p in self.presets if p.suspends.functions.matches(path)), None)

    def conditional_registrar(self, path: str) -> Preset | None:
        path = canonical(path)
        return next((p for p in self.presets if p.suspends.registrars.matches(path)), None)

    # ------------------------------------------------------------------ hosted callables

    def hosted(self, path: str) -> list[tuple[Preset, Hosted]]:
        """The rules of callables the framework calls inside a workflow that this call is in."""
        if not self._hosted:
            return []
        path = canonical(path)
        return [(preset, rule) for preset, rule in self._hosted if rule.calls.matches(path)]

    # ------------------------------------------------------------------ replay facts

    def command(self, path: str) -> bool:
        """Does the history record this call's arguments (a recorder, a timer, a signal, ...)?"""
        path = canonical(path)
        return any(
            p.recorders.matches(path) or p.replay.commands.matches(path) for p in self.presets
        )

    def keys(self, path: str) -> tuple[str, ...] | None:
        """The arguments by which a replay finds this recorded call's result (None: all)."""
        path = canonical(path)
        for preset in self.presets:
            for keys in preset.replay.keys:
                if keys.calls.matches(path):
                    return keys.arguments
        return None

    def logger(self, path: str) -> bool:
        path = canonical(path)
        return any(p.replay.loggers.matches(path) for p in self.presets)

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
