"""Decision-aware findings confirmed once the workflow paths are known: per workflow module,
each pending hit on its path is kept (with what its value reaches) or dropped."""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from replaylint.engine.project import Project
from replaylint.graph.flow import Flow, Sinks
from replaylint.graph.state import unsandboxed_classes
from replaylint.presets.frameworks import Frameworks
from replaylint.resolve.model import FunctionInfo, Hit, ModuleInfo
from replaylint.rules import rule_for
from replaylint.rules.base import FactRule, Reason, Replay

KEEP = Reason("")  # a hit no rule needs to confirm


class Verdicts:
    """Each pending hit's reason in each workflow module's context (None: dropped there)."""

    def __init__(self, checked: list[ModuleInfo], modules: list[ModuleInfo], project: Project):
        self._reasons: dict[tuple[int, int], Reason | None] = {}
        kept: set[int] = set()
        pending: set[int] = set()
        unsandboxed = unsandboxed_classes(modules, project.frameworks)
        if project.registrations is not None:  # the workers of registrars checked apart
            unsandboxed |= project.registrations.unsandboxed
        for module in checked:
            path = module.confirmed_path()
            replay: Replay | None = None
            for function in path:
                for hit in function.hits:
                    rule = rule_for(hit.code)
                    if not hit.pending or not isinstance(rule, FactRule):
                        continue
                    replay = replay or _replay(project, module, path, unsandboxed)
                    reason = rule.confirm(hit, function, replay)
                    self._reasons[(id(hit), id(module))] = reason
                    pending.add(id(hit))
                    if reason is not None:
                        kept.add(id(hit))
        # A hit no workflow module keeps is no root of a helper chain (ADK-W005) either.
        self.dropped = frozenset(pending - kept)

    def reason(self, hit: Hit, module: ModuleInfo) -> Reason | None:
        return self._reasons.get((id(hit), id(module)), KEEP)


def _replay(
    project: Project, module: ModuleInfo, path: list[FunctionInfo], unsandboxed: frozenset[str]
) -> Replay:
    """What confirming a decision-aware finding of `module` asks: its path's value flow."""
    frameworks = project.frameworks
    catalog = project.catalog

    def command(name: str) -> bool:
        return name in catalog.recorders or frameworks.command(name)

    def logger(name: str) -> bool:
        return catalog.logs(name) or frameworks.logger(name)

    def child_workflows(name: str) -> bool:
        preset = frameworks.get(name)
        return preset is not None and preset.child_workflows

    def answers(function: FunctionInfo) -> bool:
        return any(frameworks.answers(d) for d in function.decorators)

    sinks = Sinks(command, logger, child_workflows, frameworks.keys, answers)
    flow = Flow(path, sinks, _not_rerun(path, frameworks))
    return Replay(module, flow, frameworks, unsandboxed, _once_per_process(path))


# Decorators that run a function's body once per process for each set of arguments.
_CACHING = frozenset({"functools.lru_cache", "functools.cache"})


def _once_per_process(path: list[FunctionInfo]) -> frozenset[int]:
    """The functions of the path that run at most once per process: a cached function that
    takes no argument, and what is reached only through one. Every run on a worker sees what
    they did; none does it again."""
    if not any(_cached_without_arguments(f) for f in path):
        return frozenset()
    on_path = {id(f) for f in path}
    # Where each run starts: the entries, and in a module marked as workflow code (which has
    # none: every function of it is on the path), each function but its import-time code.
    starts = [f for f in path if _starts_a_run(f)]
    every_run = _reached(starts, on_path, _cached_without_arguments)
    return frozenset(on_path - every_run)


def _not_rerun(path: list[FunctionInfo], frameworks: Frameworks) -> frozenset[int]:
    """The functions of the path that only entries a replay never runs again reach (an
    update's validator and its helpers): what they decide, no replay compares."""
    roots = [f for f in path if any(frameworks.not_rerun(d) for d in f.decorators)]
    if not roots:
        return frozenset()
    on_path = {id(f) for f in path}
    rerun = _reached([f for f in path if _starts_a_run(f) and f not in roots], on_path)
    return frozenset(_reached(roots, on_path) - rerun)


def _starts_a_run(info: FunctionInfo) -> bool:
    return info.entry is not None or (info.module.marked and info is not info.module.top)


def _reached(
    starts: list[FunctionInfo],
    on_path: set[int],
    stop: Callable[[FunctionInfo], bool] = lambda info: False,
) -> set[int]:
    """The functions of the path the calls from `starts` reach (none through a `stop` one)."""
    reached: set[int] = set()
    queue = list(starts)
    while queue:
        info = queue.pop()
        if id(info) in reached or stop(info):
            continue
        reached.add(id(info))
        queue.extend(c.target for c in info.calls if id(c.target) in on_path and not c.dead)
    return reached


def _cached_without_arguments(info: FunctionInfo) -> bool:
    node = info.node
    if _CACHING.isdisjoint(info.decorators) or not isinstance(node, cst.FunctionDef):
        return False
    params = node.params
    named = params.params or params.posonly_params or params.kwonly_params
    return not named and not isinstance(params.star_arg, cst.Param) and params.star_kwarg is None
