"""Once-per-process caches: `if key not in CACHE: CACHE[key] = build()` decides only whether
a memo is filled (a client or an engine kept per event loop, per region), and the code after
reads the same entry either way. So does the early-return form, `if key in CACHE: return
CACHE[key]` and then, in the same block, the entry built and stored. A value that only keys one
decides nothing a replay compares (graph/flow.py); the fill must be exactly that, and build
nothing the run records."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import libcst as cst

from replaylint.graph.bodies import Body
from replaylint.graph.syntax import binds_locally
from replaylint.parse.children import children
from replaylint.resolve.model import FunctionInfo

BodyOf = Callable[[FunctionInfo], Body]
IsCommand = Callable[[str], bool]  # a resolved path whose call the history records


def fills_a_cache(
    function: FunctionInfo, statement: cst.If, body_of: BodyOf, command: IsCommand
) -> bool:
    """`if key not in CACHE: CACHE[key] = build()` with CACHE a module's name, and building
    the entry awaits nothing and runs no durable command, step or child workflow (nor does any
    helper it calls)."""
    fill = cache_fill(statement) or _filled_after_return(statement, body_of(function))
    if fill is None:
        return False
    cache, built = fill
    if cache.value not in function.module.exports:
        return False
    enclosing: FunctionInfo | None = function
    while enclosing is not None:
        if binds_locally(body_of(enclosing), cache.value):
            return False  # a run's own local, built anew by every run: its state
        enclosing = enclosing.parent
    body = body_of(function)
    stack: list[cst.CSTNode] = list(built)
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.Await, cst.Yield)):
            return False
        if isinstance(node, cst.Call):
            path = function.external.get(id(node), "")
            if path and command(path):
                return False
            helper = body.helpers.get(id(node))
            if helper is not None and _commands(helper.target, command, set()):
                return False
        stack.extend(children(node))
    return True


def _commands(function: FunctionInfo, command: IsCommand, seen: set[int]) -> bool:
    """Does calling `function` run a durable command, a step or a child workflow, itself or
    through the helpers it calls?"""
    if function.is_exempt() or function.entry is not None:
        return True
    seen.add(id(function))
    if any(command(path) for path in function.external.values()):
        return True
    return any(
        _commands(call.target, command, seen)
        for call in function.calls
        if id(call.target) not in seen
    )


def cache_fill(statement: cst.If) -> tuple[cst.Name, list[cst.CSTNode]] | None:
    """(the cache, what builds the value stored) of `if key not in cache: cache[key] = value`,
    exactly that (one statement, no else, the cache a plain name): the key decides only whether
    a memo is filled, and the code after reads the same entry either way. None for any other
    `if`."""
    tested = _membership(statement, cst.NotIn)
    if tested is None:
        return None
    cache, key = tested
    assign = _sole(statement.body.body)
    if not isinstance(assign, cst.Assign) or not _stores(assign, cache, key):
        return None
    return cache, [assign.value]


def _filled_after_return(
    statement: cst.If, body: Body
) -> tuple[cst.Name, list[cst.CSTNode]] | None:
    """(the cache, the statements that build and store the entry) of `if key in cache: return
    cache[key]`, followed in the same block by statements that build the entry, store it
    (`cache[key] = value`) and return it (`return cache[key]`, or the name stored): the entry
    is returned either way. Nothing of the build may return; None for any other `if`."""
    tested = _membership(statement, cst.In)
    if tested is None:
        return None
    cache, key = tested
    if not _returns_entry(_sole(statement.body.body), cache, key, None):
        return None
    block = body.parents.get(id(statement))
    lines = getattr(block, "body", None)
    if not isinstance(lines, (list, tuple)) or statement not in lines:
        return None
    after = list(lines[lines.index(statement) + 1 :])
    for count, line in enumerate(after):
        if _holds_a_return(line):
            return None  # returns something before the entry is stored
        stored = _sole([line])
        if isinstance(stored, cst.Assign) and _stores(stored, cache, key):
            rest = after[count + 1 : count + 2]
            if rest and _returns_entry(_sole(rest), cache, key, stored.value):
                return cache, list(after[: count + 1])
            return None  # the store is not followed by a return of the entry
    return None


def _returns_entry(
    line: cst.CSTNode | None, cache: cst.Name, key: str, stored: cst.BaseExpression | None
) -> bool:
    """`return cache[key]`, or `return name` of the name whose value was stored."""
    if not isinstance(line, cst.Return) or line.value is None:
        return False
    if _entry_of(line.value) == (cache.value, key):
        return True
    return (
        isinstance(stored, cst.Name)
        and isinstance(line.value, cst.Name)
        and line.value.value == stored.value
    )


def _holds_a_return(node: cst.CSTNode) -> bool:
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, cst.Return):
            return True
        if isinstance(current, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        stack.extend(children(current))
    return False


def _membership(statement: cst.If, operator: type[cst.BaseCompOp]) -> tuple[cst.Name, str] | None:
    """(the cache, the key as written) of an `if key in cache` (or `not in`) without else."""
    test = statement.test
    if statement.orelse is not None or not isinstance(test, cst.Comparison):
        return None
    if len(test.comparisons) != 1 or not isinstance(test.comparisons[0].operator, operator):
        return None
    cache = test.comparisons[0].comparator
    if not isinstance(cache, cst.Name):
        return None
    return cache, _code(test.left)


def _sole(lines: Sequence[cst.BaseStatement | cst.BaseSmallStatement]) -> cst.CSTNode | None:
    """The one small statement of a block of one line, else None."""
    if len(lines) != 1:
        return None
    line = lines[0]
    smalls = line.body if isinstance(line, cst.SimpleStatementLine) else [line]
    return smalls[0] if len(smalls) == 1 else None


def _stores(assign: cst.Assign, cache: cst.Name, key: str) -> bool:
    return len(assign.targets) == 1 and _entry_of(assign.targets[0].target) == (cache.value, key)


def _entry_of(target: cst.BaseExpression) -> tuple[str, str] | None:
    """(container, key) of `container[key]`, as written."""
    if not isinstance(target, cst.Subscript) or len(target.slice) != 1:
        return None
    index = target.slice[0].slice
    if not isinstance(index, cst.Index):
        return None
    return _code(target.value), _code(index.value)


def _code(node: cst.CSTNode) -> str:
    return " ".join(cst.Module(body=[]).code_for_node(node).split())
