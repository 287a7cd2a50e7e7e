"""Where a fix's findings sit: the top-level statements holding their lines, and LibCST's
position of every node in those statements, worked out for them alone.

A fix finds each finding's node by its span. LibCST's PositionProvider records a range for
every node of the module by generating its whole code with a position kept per node: most of
the cost of the [*] marks on a 4,000-line test module whose findings sit in two functions. So
CPython's first line of each statement (parse/parsing.py's statement_lines, as the check's
positions use) says where each top-level statement's code starts, and only the statements
holding a finding's line have their code generated, from that line on, with the provider's own
state: the same ranges, for the nodes a span can name. Without CPython's lines (a tree deeper
than CPython builds) the whole module's positions are computed as before.
"""

from __future__ import annotations

import bisect
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider
from libcst.metadata.position_provider import PositionProvidingCodegenState

from replaylint.parse.parsing import statement_lines
from replaylint.parse.positions import statement_origins


@dataclass(frozen=True)
class Placed:
    positions: Mapping[cst.CSTNode, CodeRange]  # every node of the statements `holding`
    holding: Collection[int] | None  # ids of the top-level statements holding a line; None: all


def located(module: cst.Module, lines: Iterable[int] | None, source: bytes | str) -> Placed:
    """The positions a fix of findings on `lines` looks up, `module` being `source` parsed."""
    if lines is None:
        return Placed(_whole(module), None)
    starts = _top_starts(module, source)
    if starts is None:
        positions = _whole(module)
        return Placed(positions, _holding_by_range(module, set(lines), positions))
    # A line before the first statement's code (the module's header) is in none.
    holding = sorted({bisect.bisect_right(starts, line) - 1 for line in lines} - {-1})
    found: dict[cst.CSTNode, CodeRange] = {}
    for i in holding:
        found.update(_positions(module, module.body[i], starts[i]))
    return Placed(found, {id(module.body[i]) for i in holding})


def _whole(module: cst.Module) -> Mapping[cst.CSTNode, CodeRange]:
    return MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)


def _top_starts(module: cst.Module, source: bytes | str) -> list[int] | None:
    """The line each top-level statement's code (its leading blank and comment lines
    included) starts on, ascending; None when CPython's statements and LibCST's do not pair."""
    if not module.body:
        return []
    first_lines = statement_lines(source)
    if not first_lines:
        return None
    origins = statement_origins(module, first_lines)
    if origins is None:
        return None
    return [origins[id(statement)][0] for statement in module.body]


class _Ranges:
    """What PositionProvidingCodegenState writes its ranges into (a provider's `_computed`)."""

    def __init__(self) -> None:
        self._computed: dict[cst.CSTNode, CodeRange] = {}


def _positions(
    module: cst.Module, statement: cst.CSTNode, line: int
) -> dict[cst.CSTNode, CodeRange]:
    """PositionProvider's range of every node of a top-level `statement` whose code starts on
    `line`: its code generated alone, as the module's generation reaches it (no indentation
    at the top level, the module's newline and indentation defaults)."""
    ranges = _Ranges()
    provider: Any = ranges  # the state only writes its `_computed`
    state = PositionProvidingCodegenState(
        default_indent=module.default_indent,
        default_newline=module.default_newline,
        provider=provider,
    )
    state.line = line
    statement._codegen(state)
    return ranges._computed


def _holding_by_range(
    module: cst.Module, lines: set[int], positions: Mapping[cst.CSTNode, CodeRange]
) -> set[int]:
    """The top-level statements whose range (their decorators' included) holds a line."""
    holding = set()
    for statement in module.body:
        nodes = (statement, *getattr(statement, "decorators", ()))
        ranges = [positions[n] for n in nodes if n in positions]
        if not ranges:
            holding.add(id(statement))  # unknown: kept
            continue
        first = min(r.start.line for r in ranges)
        last = max(r.end.line for r in ranges)
        if any(first <= line <= last for line in lines):
            holding.add(id(statement))
    return holding
