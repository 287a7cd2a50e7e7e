"""Which functions of the checked code reach an unsafe root, and by which chain (ADK-W005)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import libcst as cst

from replaylint.core.codes import Code
from replaylint.core.findings import ChainLink
from replaylint.resolve.model import FunctionInfo, HelperCall, ModuleInfo


@dataclass(frozen=True)
class Hop:
    """One hop of a reason chain: `call` written at `node` in `module`."""

    module: ModuleInfo
    node: cst.CSTNode
    call: str
    statement: cst.CSTNode | None = None  # the innermost statement holding node
    tail: tuple[ChainLink, ...] = ()  # hops inside installed code, after this one
    code: Code | None = None  # at a chain's root: the code of what it reaches


class UnsafeHelpers:
    """Propagates unsafety backwards from functions with a direct root to everything calling them.

    A breadth-first pass from the direct roots gives every function its shortest chain, and it
    needs no recursion guard: recursion and mutual recursion are just edges already visited.
    The pass goes a level at a time, and a function that reaches several callees of the same
    level takes the first of its own calls to them: its chain depends on its own code, not on
    the order its project happened to load modules in (which differs between a cold run and one
    that re-checks an edited module alone).
    """

    def __init__(
        self,
        functions: Iterable[FunctionInfo],
        safe: frozenset[str] = frozenset(),
        safe_paths: Callable[[ModuleInfo], frozenset[str]] | None = None,
        child_workflow_frameworks: frozenset[str] = frozenset(),
        ignored: frozenset[int] = frozenset(),
    ) -> None:
        """`ignored`: ids of hits that reach nothing a replay depends on (decision-aware rules
        confirmed them nowhere): no root, so no ADK-W005 either."""
        # id(function) -> (its first step, the function that step calls or None at the root).
        # Linked, not copied: a chain of n helpers costs n entries, not n squared.
        self._links: dict[int, tuple[Hop, FunctionInfo | None]] = {}
        self._chains: dict[int, tuple[Hop, ...]] = {}  # id(function) -> its whole chain
        # In DBOS a workflow called from a workflow runs as a checkpointed child workflow.
        self._children = child_workflow_frameworks
        self._safe = safe
        functions = list(functions)
        # id(callee) -> (caller, the call, its place among the caller's calls)
        callers: dict[int, list[tuple[FunctionInfo, HelperCall, int]]] = {}
        level: list[FunctionInfo] = []
        for info in functions:
            for place, call in enumerate(info.calls):
                # After its last suspend a prefix function runs once: no chain goes that way.
                if not call.dead and info.replays(call.statement):
                    callers.setdefault(id(call.target), []).append((info, call, place))
            if self._blocked(info):
                continue
            allowed = safe_paths(info.module) if safe_paths is not None else frozenset()
            for hit in info.hits:
                # An unproven access is reported where it is, not propagated (its rule says so).
                if not hit.propagates or hit.dead or hit.path in allowed or id(hit) in ignored:
                    continue
                if not info.replays(hit.statement):
                    continue
                self._links[id(info)] = (
                    Hop(info.module, hit.node, hit.call, hit.statement, hit.tail, hit.code),
                    None,
                )
                level.append(info)
                break
        while level:
            level = self._next_level(level, callers)

    def _next_level(
        self,
        level: list[FunctionInfo],
        callers: dict[int, list[tuple[FunctionInfo, HelperCall, int]]],
    ) -> list[FunctionInfo]:
        """The functions one call away from `level` that had no chain, each linked through its
        first call (in its own code) to a function of `level`."""
        first: dict[int, tuple[FunctionInfo, HelperCall, int, FunctionInfo]] = {}
        for callee in level:
            for caller, call, place in callers.get(id(callee), ()):
                if id(caller) in self._links or self._blocked(caller):
                    continue
                chosen = first.get(id(caller))
                if chosen is None or place < chosen[2]:
                    first[id(caller)] = (caller, call, place, callee)
        for caller, call, _, callee in first.values():
            self._links[id(caller)] = (
                Hop(caller.module, call.node, call.call, call.statement),
                callee,
            )
        return [caller for caller, _, _, _ in first.values()]

    def _blocked(self, info: FunctionInfo) -> bool:
        # A recorded activity is served from history on replay, so whatever it does is fine;
        # names declared safe in the configuration stop propagation the same way.
        if (
            info.activity == "recorded"
            or info.unit
            or (info.entry is not None and info.entry in self._children)
        ):
            return True
        return bool(self._safe) and f"{info.module.name}.{info.qualname}" in self._safe

    def chain(self, info: FunctionInfo, limit: int | None = None) -> list[Hop] | None:
        """The reason chain when calling info reaches an unsafe root, else None: every hop,
        or with a `limit` the first ones, then the root itself. Reporters decide how much to
        show (the text format cuts a long chain and says how many hops it left out)."""
        full = self._full_chain(info)
        if full is None:
            return None
        if limit is None or len(full) <= limit:
            return list(full)
        return [*full[: limit - 1], full[-1]]

    def _full_chain(self, info: FunctionInfo) -> tuple[Hop, ...] | None:
        """Every hop from info to its root, remembered per function: a caller's chain is its
        own step before its callee's, so each function's is built once, from the root up, by
        copying the callee's (a chain of n helpers costs n tuples, not n walks of n links)."""
        if id(info) in self._chains:
            return self._chains[id(info)]
        if id(info) not in self._links:
            return None
        unknown: list[tuple[int, Hop]] = []  # from info towards the root, until one is known
        current: FunctionInfo | None = info
        while current is not None and id(current) not in self._chains:
            step, following = self._links[id(current)]
            unknown.append((id(current), step))
            current = following
        suffix = self._chains[id(current)] if current is not None else ()
        for key, step in reversed(unknown):
            suffix = (step, *suffix)
            self._chains[key] = suffix
        return suffix
