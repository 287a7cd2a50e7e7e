"""Positions for raw findings: code generation over only the statements that hold one."""

from __future__ import annotations

import libcst as cst

from replaylint.core.codes import RULES, Code
from replaylint.core.findings import ChainLink, Finding, Span
from replaylint.engine.raw import Raw
from replaylint.graph.callgraph import Hop
from replaylint.parse import positions
from replaylint.resolve.model import ModuleInfo


def locate(raw: list[Raw]) -> list[Finding]:
    """One Finding per raw item, in order. A module too deep for code generation loses only its
    own findings: each becomes that module's one ADK-E001."""
    try:
        return _locate(raw)
    except RecursionError:
        return _locate_per_module(raw)


def _locate_per_module(raw: list[Raw]) -> list[Finding]:
    located: dict[int, Finding] = {}
    by_module: dict[int, list[int]] = {}
    for index, item in enumerate(raw):
        by_module.setdefault(id(item.where), []).append(index)
    for indexes in by_module.values():
        items = [raw[i] for i in indexes]
        try:
            placed = _locate(items)
        except RecursionError:
            module = items[0].where
            failure = Finding(
                Code.E001,
                module.display,
                Span(1, 0, 1, 0),
                "too deeply nested to locate findings",
                RULES[Code.E001].remedy,
            )
            placed = [failure] * len(items)
        located.update(zip(indexes, placed, strict=True))
    return [located[i] for i in range(len(raw))]


def _locate(raw: list[Raw]) -> list[Finding]:
    """Positions for every node that needs one: code generation over only the innermost
    statements that hold one (the whole module where the parsers' statements did not pair up)."""
    wanted: dict[int, tuple[ModuleInfo, dict[cst.CSTNode, cst.CSTNode | None]]] = {}
    hops: dict[int, Hop] = {}  # chains share their hops: each is placed once
    for item in raw:
        wanted.setdefault(id(item.where), (item.where, {}))[1][item.node] = item.statement
        hops.update(zip(map(id, item.chain), item.chain, strict=True))
        if item.decision is not None:
            home = item.decision.function.module
            wanted.setdefault(id(home), (home, {}))[1][item.decision.node] = item.decision.statement
    for hop in hops.values():
        wanted.setdefault(id(hop.module), (hop.module, {}))[1][hop.node] = hop.statement
    spans: dict[int, dict[cst.CSTNode, Span]] = {
        key: positions.spans_in_statements(module.tree, nodes, module.first_lines, module.source)
        for key, (module, nodes) in wanted.items()
    }
    link_of = {
        key: ChainLink(hop.module.display, spans[id(hop.module)][hop.node].line, hop.call)
        for key, hop in hops.items()
    }
    findings: list[Finding] = []
    for item in raw:
        span = spans[id(item.where)][item.node]
        links = tuple(map(link_of.__getitem__, map(id, item.chain)))
        root = item.chain[-1].code if item.chain else None
        if root is Code.W005:  # a call into followed installed code: no catalog code of its own
            root = None
        findings.append(
            Finding(
                item.code,
                item.where.display,
                span,
                item.call,
                item.remedy,
                links + item.tail,
                root,
                item.fix,
                _decision(item, spans),
            )
        )
    return findings


def _decision(item: Raw, spans: dict[int, dict[cst.CSTNode, Span]]) -> str:
    """`it reaches the condition on line 12` (in another file: `... on app/flow.py:12`)."""
    decision = item.decision
    if decision is None:
        return item.says
    home = decision.function.module
    line = spans[id(home)][decision.node].line
    where = f"line {line}" if home is item.where else f"{home.display}:{line}"
    return f"{item.says} {decision.what} on {where}"
