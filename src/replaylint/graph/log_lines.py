"""What only writes a log line: a value that reaches no more decides nothing a replay compares
(graph/flow.py), and neither does a branch whose every block only logs."""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from replaylint.graph.syntax import written
from replaylint.resolve.model import FunctionInfo

IsLogger = Callable[[str], bool]  # a resolved path that only writes a log line
_LOG_METHODS = frozenset(
    {"trace", "debug", "info", "warning", "warn", "error", "exception", "critical", "log", "fatal"}
)


def logs(path: str, call: cst.Call, logger: IsLogger) -> bool:
    """Does `call` (resolved to `path`, "" when it was not) only write a log line?"""
    if path:
        return logger(path)
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value in _LOG_METHODS:
        return "log" in written(func.value).lower()  # `logger.info`, `self._log.debug`
    return False


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
