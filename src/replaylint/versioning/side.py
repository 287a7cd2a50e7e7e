"""One version of the code read into workflows: its modules walked once (facts of the calls
kept), each entry's skeleton built, every position computed in one pass per module."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from pathlib import Path

from replaylint.engine.project import project_for
from replaylint.graph.suspends import settle
from replaylint.parse.parsing import ParseFailure
from replaylint.presets.records import Versioning, presets, runtime_versioning
from replaylint.project.config import Config
from replaylint.resolve.model import FunctionInfo, ModuleInfo
from replaylint.versioning.entries import RUNTIME, Entries
from replaylint.versioning.model import Block, Workflow
from replaylint.versioning.places import Places
from replaylint.versioning.skeleton import Builder, CallFacts

log = logging.getLogger("replaylint")

_RUNTIME_CONTEXT = ("replaylint.workflows.RunContext()", 0)


def versioning_facts() -> dict[str, Versioning]:
    facts = {name: preset.versioning for name, preset in presets().items()}
    facts[RUNTIME] = runtime_versioning()
    return facts


@dataclasses.dataclass
class Module:
    """A workflow candidate of this side: where it is, how reports show it, and its bytes."""

    path: Path
    relative: str  # from the repository's root
    shown: str
    data: bytes


def read_side(
    modules: list[Module],
    config_of: Callable[[str], Config],
    errors: list[str],
    places: Places,
) -> tuple[list[Workflow], dict[str, ModuleInfo]]:
    """The workflows of the modules (grouped by their settings, one walk each) and the walked
    modules by their path from the repository's root (a module that cannot be read is not
    among them: its workflows are neither compared nor taken for removed)."""
    groups: dict[int, tuple[Config, list[Module]]] = {}
    for module in modules:
        config = config_of(str(module.path))
        groups.setdefault(id(config), (config, []))[1].append(module)
    workflows: list[Workflow] = []
    walked: dict[str, ModuleInfo] = {}
    for config, members in groups.values():
        found, loaded = _read_group(config, members, errors, places)
        workflows += found
        walked.update(loaded)
    return workflows, walked


def _read_group(
    config: Config, members: list[Module], errors: list[str], places: Places
) -> tuple[list[Workflow], dict[str, ModuleInfo]]:
    calls = CallFacts()
    project = project_for(config)
    project.sink = calls  # only the call facts: no rule runs on this walk
    places.names.update({m.path.resolve(): m.shown for m in members})
    loaded: dict[str, ModuleInfo] = {}
    for member in members:
        try:
            loaded[member.relative] = project.load(member.path, member.data, display=member.shown)
        except (ParseFailure, RecursionError) as failure:
            log.debug("%s: cannot be compared: %s", member.shown, failure)
        except Exception as error:  # a bug of ours: say where, compare the other modules
            errors.append(f"{member.shown}: internal error: {type(error).__name__}: {error}")
    modules = [m for m in project.modules.values() if m is not None]
    # Every module is read: the functions replayed because they suspend are entries now (a
    # LangGraph node that interrupts, a Prefect flow that suspends, a Resonate function).
    settle(modules, project.frameworks)
    helpers: dict[int, list[FunctionInfo]] = {}
    for module in modules:
        for function in [module.top, *module.functions]:
            for call in function.calls:
                if not call.dead:
                    helpers.setdefault(id(call.node), []).append(call.target)
    facts = versioning_facts()
    children = frozenset(p.name for p in project.frameworks.presets if p.child_workflows)
    contexts = {
        p.name: (p.context_type + "()", p.context_param)
        for p in project.frameworks.presets
        if p.context_type
    }
    entries: Entries

    def skeleton(function: FunctionInfo, framework: str) -> Block:
        builder = Builder(
            calls,
            helpers,
            facts[framework],
            places,
            lambda f: entries.registered_name(f, framework),
            children,
            _RUNTIME_CONTEXT if framework == RUNTIME else contexts.get(framework, ("", None)),
        )
        return builder.build(function)

    entries = Entries(facts, places, skeleton)
    workflows = [w for rel, m in loaded.items() for w in entries.workflows(m, rel)]
    return workflows, loaded
