"""The questions the analysis asks of the enabled presets: is this decorator, call or annotation
a workflow entry, a recorded zone or a run context of one of them? The facts are the records'
(presets/records.py); this class only matches resolved paths against them."""

from __future__ import annotations

from replaylint.presets.records import Preset, presets


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
        # `workflow-bases`: a base class's qualified name -> the preset whose workflows its
        # subclasses are (a framework built on another turns them into workflows at run time).
        self._bases = {name: presets()[preset] for name, preset in (bases or {}).items()}

    def workflow_base(self, path: str) -> Preset | None:
        """The preset whose workflows subclasses of `path` are. A local class's name may carry
        the folders above its import root (`app.sdk.Pipeline` for `sdk.Pipeline`)."""
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
        return next((p for p in self.presets if p.workflow_classes.matches(path)), None)

    def workflow_method(self, framework: str, decorators: list[str], name: str) -> bool:
        """Does this method of a workflow class of `framework` run in workflow context itself?"""
        preset = self.get(framework)
        if preset is None:
            return False
        if name == "__init__":
            return True  # the workflow object is built on every run and replay
        return any(preset.workflow_methods.matches(path) for path in decorators)

    def workflow_function(self, path: str) -> Preset | None:
        declared = self._declared_preset(path)
        if declared is not None:
            return declared
        return next((p for p in self.presets if p.workflow_functions.matches(path)), None)

    def workflow_registrar(self, path: str) -> Preset | None:
        return next((p for p in self.presets if p.workflow_registrars.matches(path)), None)

    def recorded_decorator(self, path: str) -> Preset | None:
        return next((p for p in self.presets if p.recorded_decorators.matches(path)), None)

    def recorded_registrar(self, path: str) -> Preset | None:
        return next((p for p in self.presets if p.recorded_registrars.matches(path)), None)

    def context_parameter(self, path: str) -> Preset | None:
        """The preset whose run context a parameter annotation names (`ctx: OrchestrationContext`)."""
        return next((p for p in self.presets if p.context_types.matches(path)), None)

    def recorder(self, path: str) -> bool:
        return any(p.recorders.matches(path) for p in self.presets)

    def command(self, path: str) -> bool:
        """Does the history record this call's arguments (a recorder, a timer, a signal, ...)?"""
        return any(
            p.recorders.matches(path) or p.replay.commands.matches(path) for p in self.presets
        )

    def logger(self, path: str) -> bool:
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
