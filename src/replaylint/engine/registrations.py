"""What the files that register other files' functions do to them, read once per run.

A registrar (`worker.add_orchestrator(fn)`, `wfr.register_workflow(fn)`, a LangGraph plugin
hosting a graph, a Temporal worker that runs workflows without the sandbox) changes what a
function of another module is: an entry, a recorded zone, replayed only if it suspends. Every
batch needs those facts for the modules it checks, so every batch used to read every registrar
again. Now the registrars are checked once, on a Project of their own, and what their walks did
to other modules' functions, with the workflow classes their workers run unsandboxed, becomes a
summary that each batch applies to the modules it loads: the registrars are parsed once per run,
and the records are those the batches computed before.

A function is named by its module's path, its qualified name and which of that module's
functions of that name it is (lambdas share one). The summary holds each touched function's
state after every registrar was walked, before anything is settled (graph/suspends.py settles
it again in each batch, from the same state).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the index reads stored summaries without importing LibCST
    from replaylint.presets.frameworks import Frameworks
    from replaylint.resolve.model import FunctionInfo, ModuleInfo

# The attributes of a function a registration sets. (Its `registration`, the call that named
# it, is a node of the registrar's tree: only `check --base` reads it, on a Project of its own.)
_SET = ("entry", "activity", "suspending", "unit", "hosted")


@dataclass(frozen=True)
class Touched:
    path: str  # the module's key path
    qualname: str
    nth: int  # which of the module's functions of this qualified name
    state: tuple[Any, ...]  # the values of _SET, in order


@dataclass
class Registrations:
    touched: list[Touched] = field(default_factory=list)
    unsandboxed: frozenset[str] = frozenset()
    # What the Project that computed it read (for a part of the registrars, checked apart from
    # the rest): its modules' paths and its classes' names.
    loaded: frozenset[str] = frozenset()
    classes: frozenset[str] = frozenset()

    def affected_by(self, whole: Registrations) -> bool:
        """Would the records computed with this part change under `whole` (the parts merged):
        does another part register a function of a module read here, or run a class of a name
        read here without the sandbox?"""
        from replaylint.graph.unsandboxed import EVERY_CLASS

        others = whole.unsandboxed - self.unsandboxed
        if others & self.classes or EVERY_CLASS in others:
            return True
        own = set(self.touched)
        return any(t.path in self.loaded and t not in own for t in whole.touched)

    def apply(self, modules: Iterable[ModuleInfo]) -> None:
        """Give the functions of `modules` what the registrars made them."""
        if not self.touched:
            return
        by_path: dict[str, list[Touched]] = {}
        for item in self.touched:
            by_path.setdefault(item.path, []).append(item)
        for module in modules:
            items = by_path.get(str(module.path))
            if not items:
                continue
            named = _by_name(module)
            for item in items:
                same = named.get(item.qualname, [])
                if item.nth < len(same):
                    _set(same[item.nth], item.state)

    def with_parts_merged(self, others: Iterable[Registrations]) -> Registrations:
        """This part and `others`, as one summary: a function two parts touched takes each
        attribute from the first part that set it."""
        found: dict[tuple[str, str, int], Touched] = {}
        unsandboxed = set(self.unsandboxed)
        for part in [self, *others]:
            unsandboxed |= part.unsandboxed
            for item in part.touched:
                key = (item.path, item.qualname, item.nth)
                kept = found.get(key)
                state = item.state if kept is None else _combined(kept.state, item.state)
                found[key] = Touched(*key, state)
        return Registrations([found[k] for k in sorted(found)], frozenset(unsandboxed))

    def to_json(self) -> dict[str, Any]:
        return {
            "touched": [[t.path, t.qualname, t.nth, list(t.state)] for t in self.touched],
            "unsandboxed": sorted(self.unsandboxed),
        }


def from_json(data: Any) -> Registrations:
    """Raises (KeyError, TypeError, ValueError) on anything but what to_json writes."""
    touched = [
        Touched(str(path), str(qualname), int(nth), tuple(state))
        for path, qualname, nth, state in data["touched"]
    ]
    if any(len(t.state) != len(_SET) for t in touched):
        raise ValueError("a touched function's state has another shape")
    return Registrations(touched, frozenset(str(name) for name in data["unsandboxed"]))


def summary(
    touched: Iterable[FunctionInfo], modules: Iterable[ModuleInfo], frameworks: Frameworks
) -> Registrations:
    """The summary of a Project that read the registrars: the functions their walks touched in
    other modules (Project.registered), as they are now, and the unsandboxed classes."""
    from replaylint.graph.state import unsandboxed_classes

    found: dict[tuple[str, str, int], Touched] = {}
    positions: dict[int, dict[str, list[FunctionInfo]]] = {}
    for info in touched:
        module = info.module
        named = positions.get(id(module))
        if named is None:
            named = positions[id(module)] = _by_name(module)
        same = named.get(info.qualname, [])
        nth = next((i for i, f in enumerate(same) if f is info), None)
        if nth is None:
            continue  # dropped from its module (a walk that failed): nothing to carry
        key = (str(module.path), info.qualname, nth)
        found[key] = Touched(*key, tuple(getattr(info, name) for name in _SET))
    read = list(modules)
    return Registrations(
        [found[key] for key in sorted(found)],
        unsandboxed_classes(read, frameworks),
        *_read(read),
    )


def reads(modules: Iterable[ModuleInfo]) -> Registrations:
    """What a Project that registers nothing read: a batch checked before the registrars' summary
    was known keeps its records when that summary is not affected_by() anything it read."""
    return Registrations([], frozenset(), *_read(list(modules)))


def _read(modules: list[ModuleInfo]) -> tuple[frozenset[str], frozenset[str]]:
    """The paths of `modules` and the names of their classes."""
    return frozenset(str(m.path) for m in modules), frozenset(
        c.name for m in modules for c in m.classes
    )


def _combined(first: tuple[Any, ...], second: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(a if a not in (None, False) else b for a, b in zip(first, second, strict=True))


def _by_name(module: ModuleInfo) -> dict[str, list[FunctionInfo]]:
    named: dict[str, list[FunctionInfo]] = {}
    for info in module.functions:
        named.setdefault(info.qualname, []).append(info)
    return named


def _set(info: FunctionInfo, state: tuple[Any, ...]) -> None:
    for name, value in zip(_SET, state, strict=True):
        setattr(info, name, value)
    framework = info.entry
    if framework is not None and framework not in info.module.frameworks:
        info.module.frameworks.append(framework)  # as Definitions._entry does
