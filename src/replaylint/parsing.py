"""Parsing one module: CPython's parser judges what is Python, then LibCST builds the tree we walk.

CPython is the judge because a worker imports the module with it: a file it refuses never runs
(ADK-E001 with its reason and line), a file it accepts must be checked. Nothing is executed: the
tree is compiled, as an import would, and the code object dropped. It is also the cheap guard in
front of LibCST, whose parser accepts literals CPython rejects (`"\\N{NO SUCH NAME}"`, NUL bytes, over-long ints) and
takes minutes and gigabytes on nesting CPython refuses at once.
"""

from __future__ import annotations

import ast
import io
import re
import sys
import tokenize
import warnings
from types import FrameType

import libcst as cst


class ParseFailure(Exception):
    def __init__(self, reason: str, line: int, column: int = 0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line
        self.column = column


def judge(source: bytes, limit: int | None = None) -> list[int]:
    """Raise ParseFailure unless CPython's parser accepts the module at `limit`, the recursion
    limit a worker importing it would have (the engine raises the limit for its own walk).

    Returns the first line of each top-level statement (a decorator's, for a decorated one),
    which lets positions be found by generating code for one statement, not the module."""
    previous = sys.getrecursionlimit()
    try:
        if limit is not None:
            # As on a fresh import: the frames of our own walk (a chain of local imports loads
            # each module inside the last) do not count against the module's own nesting.
            sys.setrecursionlimit(limit + _depth())
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escape sequences are warnings, not errors
            tree = ast.parse(source)
            # The compiler's own refusals (`return` outside a function, more than 20 nested
            # blocks) come after parsing; compiling the tree only builds a code object, which
            # is dropped: nothing runs.
            compile(tree, "<checked module>", "exec", dont_inherit=True)
        return [_first_line(statement) for statement in tree.body]
    except SyntaxError as error:
        line = error.lineno or 1
        message = str(error.msg).split("\n")[0]
        column = max((error.offset or 1) - 1, 0)
        raise ParseFailure(f"syntax error: {message} (line {line})", line, column) from None
    except (RecursionError, MemoryError):
        raise ParseFailure("too deeply nested for Python to compile", 1) from None
    except ValueError as error:  # e.g. NUL bytes on Python versions that raise ValueError
        raise ParseFailure(f"cannot parse the file: {error}", 1) from None
    finally:
        sys.setrecursionlimit(previous)


def _first_line(statement: ast.stmt) -> int:
    decorators = getattr(statement, "decorator_list", None)
    return (
        min(statement.lineno, *(d.lineno for d in decorators)) if decorators else statement.lineno
    )


def _depth() -> int:
    frame: FrameType | None = sys._getframe()
    depth = 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    return depth


# A backslash continuation alone on a line inside a block: CPython joins it to the next line,
# LibCST refuses it. Removing the backslash keeps every line where it was.
_LONE_CONTINUATION = re.compile(rb"^([ \t]*)\\(\r\n|\r|\n)", re.MULTILINE)


def parse(source: bytes, limit: int | None = None) -> tuple[cst.Module, list[int] | None]:
    """The LibCST tree of a module CPython accepts at recursion `limit` (raises ParseFailure),
    and where each of its top-level statements starts (see `statement_origins`)."""
    first_lines = judge(source, limit)
    try:
        tree = cst.parse_module(source)
    except (cst.ParserSyntaxError, SyntaxError, UnicodeDecodeError, LookupError):
        tree = _reparse(source)
    except (ValueError, TypeError, RecursionError, MemoryError) as error:
        raise ParseFailure(f"cannot parse the file: {type(error).__name__}: {error}", 1) from None
    return tree, statement_origins(tree, first_lines)


def statement_origins(tree: cst.Module, first_lines: list[int]) -> list[int] | None:
    """For each top-level LibCST statement, the source line its own generated code starts on
    (its leading blank and comment lines included); None when the two parsers' statements do
    not pair up, and positions then fall back to generating the whole module."""
    origins: list[int] = []
    index = 0
    for statement in tree.body:
        if index >= len(first_lines):
            return None
        leading = len(statement.leading_lines)
        decorators = getattr(statement, "decorators", ())
        if decorators:
            leading += len(decorators[0].leading_lines)
        origins.append(first_lines[index] - leading)
        index += len(statement.body) if isinstance(statement, cst.SimpleStatementLine) else 1
    return origins if index == len(first_lines) else None


def _reparse(source: bytes) -> cst.Module:
    try:
        return cst.parse_module(source)
    except (cst.ParserSyntaxError, SyntaxError, UnicodeDecodeError, LookupError) as first:
        # CPython accepted these bytes: read them as it does (a stray non-UTF-8 byte in a
        # comment, a lone continuation line) and try once more, keeping every line in place.
        try:
            return cst.parse_module(_as_cpython_reads(source))
        except (cst.ParserSyntaxError, SyntaxError, UnicodeDecodeError, LookupError):
            pass
        message = str(first).strip().splitlines()[0] if str(first).strip() else "parse error"
        line = getattr(first, "raw_line", 1) or 1
        raise ParseFailure(
            f"LibCST cannot parse this module, which Python accepts: {message}", line
        ) from None


def _as_cpython_reads(source: bytes) -> str:
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
    except SyntaxError:
        encoding = "utf-8"
    cleaned = _LONE_CONTINUATION.sub(rb"\2", source)
    text = cleaned.decode(encoding, errors="replace")
    return text[1:] if text.startswith("\ufeff") else text
