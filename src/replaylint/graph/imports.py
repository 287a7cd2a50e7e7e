"""Import-edge identity coverage: how much of what a workflow module runs its identity covers."""

from __future__ import annotations

import hashlib
import importlib.util
import logging
from dataclasses import dataclass
from functools import cache

from replaylint.core.paths import display_path
from replaylint.project.roots import STDLIB, framework_tops
from replaylint.resolve.model import ImportEdge, ModuleInfo

log = logging.getLogger("replaylint")

RUNTIME = "replaylint.workflows"


@dataclass(frozen=True)
class Coverage:
    coverage: str  # "unproven", "entry-only" or "self-contained-static"
    identity: str  # "sha256:<hex>"
    # (module, kind): stdlib runtime local distribution dynamic unresolved, or missing (a
    # relative import of a project module that is not there)
    edges: tuple[tuple[str, str], ...]
    missing: int = 0


@cache
def _installed(top: str) -> bool:
    """Is there an installed top-level module of this name? The path finders only look for it:
    nothing is imported or run (reading every distribution's metadata instead costs tens of ms)."""
    try:
        return importlib.util.find_spec(top) is not None
    except (ImportError, ValueError):
        return False


def edge_kind(edge: ImportEdge) -> str:
    if edge.dynamic:
        return "dynamic"
    if edge.broken is not None:
        return "broken"  # a local module that cannot be parsed: nothing of it was checked
    if edge.local is not None:
        return "local"
    name = edge.module
    top = name.split(".")[0]
    if name == RUNTIME or name.startswith(RUNTIME + "."):
        return "runtime"
    if edge.relative and top not in framework_tops():
        return "missing"  # a module of the project that is not there: what it runs is unknown
    if not name or name.startswith("."):
        return "unresolved"
    if top in STDLIB:
        return "stdlib"
    if _installed(top):
        return "distribution"
    return "unresolved"


def _why_unproven(kind: str, edge: ImportEdge) -> str | None:
    """Why an import edge leaves the coverage unproven, as the debug log says it."""
    if kind == "dynamic":
        named = f" ({edge.module})" if edge.module else ""
        return f"a module is imported by a computed name{named}"
    if kind == "broken" and edge.broken is not None:
        return f"a local module it imports cannot be parsed ({display_path(edge.broken)})"
    return None  # a missing local module is said where its import is resolved (project.py)


def reached_modules(entry: ModuleInfo) -> list[ModuleInfo]:
    seen: dict[int, ModuleInfo] = {id(entry): entry}
    order = [entry]
    index = 0
    while index < len(order):
        for edge in order[index].imports:
            if edge.local is not None and id(edge.local) not in seen:
                seen[id(edge.local)] = edge.local
                order.append(edge.local)
        index += 1
    return order


def classify(entry: ModuleInfo, has_findings: bool) -> Coverage:
    modules = reached_modules(entry)
    edges: list[tuple[str, str]] = []
    for module in modules:
        for edge in module.imports:
            kind = edge_kind(edge)
            edges.append((edge.module or "<dynamic>", kind))
            if kind == "unresolved":
                log.debug(
                    "%s: import %s is neither in the project nor installed (coverage entry-only)",
                    module.display,
                    edge.module,
                )
            elif (why := _why_unproven(kind, edge)) is not None:
                log.debug("%s: %s (coverage unproven)", module.display, why)
        if module.dynamic_accesses:
            log.debug(
                "%s: %d access(es) could not be folded to a name (coverage unproven)",
                module.display,
                module.dynamic_accesses,
            )
    kinds = {kind for _, kind in edges}
    unfoldable = any(module.dynamic_accesses for module in modules)
    if has_findings or kinds & {"dynamic", "missing", "broken"} or unfoldable:
        coverage = "unproven"
    elif kinds & {"distribution", "unresolved"}:
        coverage = "entry-only"
    else:
        coverage = "self-contained-static"
    # Module names and bytes only: the same project gives the same identity wherever it is
    # checked from (a display path would change with the working directory).
    digest = hashlib.sha256()
    for module in sorted(modules, key=lambda m: (m.canonical or m.name, m.display)):
        name = module.canonical or module.name
        digest.update(name.encode("utf-8", "surrogateescape") + b"\0")
        digest.update(hashlib.sha256(module.source).digest())
    missing = sum(1 for _, kind in edges if kind == "missing")
    return Coverage(coverage, "sha256:" + digest.hexdigest(), tuple(sorted(set(edges))), missing)
