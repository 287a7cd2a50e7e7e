"""Per-function summaries of followed code: which calls are unsafe roots, which run followed code.

A function is summarised once (per receiver class, for a method reached through a subclass);
chains are shortest paths over these summaries (replaylint.installed.Installed.chain).
"""

from __future__ import annotations

from dataclasses import dataclass

from astroid import nodes

from replaylint.core.findings import ChainLink
from replaylint.installed.values import Cls, Fn, Inst, InstalledEvaluator, InstalledValue, call_args
from replaylint.resolve.catalog import Catalog, Entry


@dataclass(frozen=True)
class Edge:
    """One call in a function's body: an unsafe root (`entry`), or a call into followed code."""

    step: ChainLink
    entry: Entry | None = None
    callee: Fn | None = None


def calls_in(fn: nodes.FunctionDef) -> list[nodes.Call]:
    """The calls a function's body makes, in source order. Lambdas count as the function's
    own code (they are mostly called by it: `sorted(key=lambda ...)`); nested defs and classes
    are separate, followed when they are called."""
    found: list[nodes.Call] = []
    for stmt in fn.body:
        if not isinstance(stmt, (nodes.FunctionDef, nodes.ClassDef)):
            found += stmt.nodes_of_class(nodes.Call, skip_klass=(nodes.FunctionDef, nodes.ClassDef))
    found.sort(key=lambda call: (call.lineno or 0, call.col_offset or 0))
    return found


class Summaries:
    def __init__(self, evaluator: InstalledEvaluator, catalog: Catalog) -> None:
        self._ev = evaluator
        self._catalog = catalog
        self._edges: dict[Fn, tuple[Edge, ...]] = {}

    def __len__(self) -> int:
        return len(self._edges)

    def edges(self, fn: Fn) -> tuple[Edge, ...]:
        cached = self._edges.get(fn)
        if cached is None:
            cached = self._edges[fn] = self._summarise(fn)
        return cached

    def targets(self, value: InstalledValue) -> list[Fn]:
        """The followed functions that calling `value` runs."""
        if isinstance(value, Fn):
            return [value]
        if isinstance(value, Cls):  # construction runs __init__ (its own or a base's)
            value = Inst(value)
            member = "__init__"
        elif isinstance(value, Inst):
            member = "__call__"
        elif isinstance(value, str) and value != "builtins.super":
            # What resolve leaves as a path is not followed code: nothing more to run.
            resolved = [r for r in self._ev.resolve(value) if not isinstance(r, str)]
            return list(dict.fromkeys(f for r in resolved for f in self.targets(r)))
        else:
            return []
        found = self._ev.member(value, member)
        return [f for f in found if isinstance(f, Fn)]

    def _summarise(self, fn: Fn) -> tuple[Edge, ...]:
        path = fn.node.root().file or ""
        edges: list[Edge] = []
        for call in calls_in(fn.node):
            step = ChainLink(path, call.lineno or 0, call.func.as_string())
            args = call_args(call)
            funcs = self._ev.expr(call.func, fn)
            for func in funcs:
                entry = None
                if isinstance(func, str):
                    # The catalog wins, also over a followed package it describes.
                    entry, _ = self._catalog.classify_call(func, args)
                if entry is not None:
                    edges.append(Edge(step, entry=entry))
                    continue
                edges += [Edge(step, callee=callee) for callee in self.targets(func)]
            if any(f in self._catalog.recorders for f in funcs if isinstance(f, str)):
                continue  # the callable handed to a recorder is the remedy, not a root
            for arg in [*call.args, *(k.value for k in call.keywords or ())]:
                if isinstance(arg, (nodes.Name, nodes.Attribute)):  # `partial(time.time)`
                    for value in self._ev.expr(arg, fn):
                        entry = (
                            self._catalog.reference_entry(value) if isinstance(value, str) else None
                        )
                        if entry is not None:
                            text = arg.as_string()
                            edges.append(Edge(ChainLink(path, arg.lineno or 0, text), entry))
        return tuple(dict.fromkeys(edges))
