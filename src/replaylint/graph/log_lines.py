"""What only writes a log line: a value that reaches no more decides nothing a replay compares
(graph/flow.py), and neither does a branch whose every block only logs."""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from replaylint.graph.bodies import Body
from replaylint.graph.syntax import written
from replaylint.resolve.model import FunctionInfo

IsLogger = Callable[[str], bool]  # a resolved path that only writes a log line
_LOG_METHODS = frozenset(
    {"trace", "debug", "info", "warning", "warn", "error", "exception", "critical", "log", "fatal"}
)
# What carries a value into the container or string around it, unchanged.
_CARRIERS = (
    cst.Element,
    cst.DictElement,
    cst.List,
    cst.Tuple,
    cst.Dict,
    cst.FormattedString,
)
_COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)
# Builtins that hand on what they are given, or its elements, or its text: what they make of
# a value only logged is only logged too (`log.info("%s", next(iter(s)))`).
_PASSING_ON = frozenset({"list", "tuple", "next", "iter", "str", "repr", "sorted"})


def logs(path: str, call: cst.Call, logger: IsLogger) -> bool:
    """Does `call` (resolved to `path`, "" when it was not) only write a log line?"""
    if path:
        return logger(path)
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value in _LOG_METHODS:
        return "log" in written(func.value).lower()  # `logger.info`, `self._log.debug`
    # The builtin, which the walk leaves unresolved (the catalog has nothing under it).
    return isinstance(func, cst.Name) and func.value == "print" and logger("builtins.print")


def only_logged(body: Body, function: FunctionInfo, node: cst.CSTNode, logger: IsLogger) -> bool:
    """Is the value of `node` only written into a log line: an argument of a log call, inside
    a container, string or comprehension built for one (`extra={"seen": list(s)}`,
    `log.info("%s", [x.name for x in s])`), or kept in a local only ever logged?"""
    child, parent = _carried(body, node)
    if isinstance(parent, cst.Assign) and parent.value is child and len(parent.targets) == 1:
        target = parent.targets[0].target
        statement = body.statement_of(child)
        if not isinstance(target, cst.Name) or statement is None:
            return False
        uses = body.uses_after(target.value, statement)
        return bool(uses) and all(_logged_here(body, function, use, logger) for use in uses)
    return _logged_here(body, function, node, logger)


def _logged_here(body: Body, function: FunctionInfo, node: cst.CSTNode, logger: IsLogger) -> bool:
    child, parent = _carried(body, node)
    call = body.parent_of(parent) if isinstance(parent, cst.Arg) else None
    if not isinstance(call, cst.Call) or call.func is child:
        return False
    return logs(function.external.get(id(call), ""), call, logger)


def _carried(body: Body, node: cst.CSTNode) -> tuple[cst.CSTNode, cst.CSTNode | None]:
    """The outermost expression that holds `node`'s value unchanged or merely reshaped (a
    container, an f-string, a comprehension over it, a builtin passing it on), and its parent."""
    child, parent = node, body.parent_of(node)
    while True:
        if isinstance(parent, _CARRIERS) or (
            isinstance(parent, cst.FormattedStringExpression) and parent.expression is child
        ):
            child, parent = parent, body.parent_of(parent)
        elif isinstance(parent, cst.CompFor) and parent.iter is child:
            comprehension = body.parent_of(parent)
            while isinstance(comprehension, cst.CompFor):  # an inner `for` of the same one
                comprehension = body.parent_of(comprehension)
            if not isinstance(comprehension, _COMPREHENSIONS):
                return child, parent
            child, parent = comprehension, body.parent_of(comprehension)
        elif isinstance(parent, cst.Arg) and _passes_on(call := body.parent_of(parent), parent):
            assert call is not None  # a builtin's call, passing its one argument on
            child, parent = call, body.parent_of(call)
        else:
            return child, parent


def _passes_on(call: cst.CSTNode | None, arg: cst.Arg) -> bool:
    return (
        isinstance(call, cst.Call)
        and isinstance(call.func, cst.Name)
        and call.func.value in _PASSING_ON
        and len(call.args) == 1
        and call.args[0] is arg
    )


def only_logs(function: FunctionInfo, branch: cst.If, logger: IsLogger) -> bool:
    """Does every block of the branch (its `elif`s and `else` too) only write log lines, or
    nothing, and some a line (`if legacy and not new: warnings.warn(...)`)? A branch of `pass`
    alone is still taken for a decision, as it is written to be one."""
    wrote = False
    blocks: list[cst.BaseSuite] = [branch.body]
    rest = branch.orelse
    while rest is not None:
        blocks.append(rest.body)
        rest = rest.orelse if isinstance(rest, cst.If) else None
    for block in blocks:
        lines = block.body if isinstance(block, cst.IndentedBlock) else [block]
        for line in lines:
            if not isinstance(line, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
                return False
            for small in line.body:
                if isinstance(small, cst.Pass):
                    continue
                call = small.value if isinstance(small, cst.Expr) else None
                if isinstance(call, cst.Await):
                    call = call.expression
                if not isinstance(call, cst.Call):
                    return False
                if not logs(function.external.get(id(call), ""), call, logger):
                    return False
                wrote = True
    return wrote
