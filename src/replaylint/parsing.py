"""Parsing one module's bytes into a LibCST tree, with CPython's parser naming what is refused."""

from __future__ import annotations

import ast
import sys

import libcst as cst


class ParseFailure(Exception):
    def __init__(self, reason: str, line: int, column: int = 0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line
        self.column = column


# LibCST's parser slows down sharply on very long single expressions, and overflows its stack on
# the longest; CPython refuses those anyway. Files with a line this long are pre-checked with
# CPython's parser so that what cannot be compiled is reported at once.
_LONG_LINE = 10_000
_DEFAULT_RECURSION_LIMIT = 1_000


def _has_long_line(source: bytes) -> bool:
    if len(source) <= _LONG_LINE:
        return False
    start = 0
    while True:
        end = source.find(b"\n", start)
        if end == -1:
            return len(source) - start > _LONG_LINE
        if end - start > _LONG_LINE:
            return True
        start = end + 1


def parse(source: bytes) -> cst.Module:
    if _has_long_line(source):
        # At the interpreter's default recursion limit, as a worker importing the module would be.
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(_DEFAULT_RECURSION_LIMIT)
        try:
            ast.parse(source)
        except (SyntaxError, ValueError) as error:
            line = getattr(error, "lineno", None) or 1
            raise ParseFailure(
                f"syntax error: {getattr(error, 'msg', error)} (line {line})", line
            ) from None
        except (RecursionError, MemoryError):
            raise ParseFailure("too deeply nested for Python to compile", 1) from None
        finally:
            sys.setrecursionlimit(limit)
    try:
        return cst.parse_module(source)
    except cst.ParserSyntaxError as error:
        # CPython's parser names the cause and the line more precisely than LibCST's message;
        # it only parses, nothing is executed.
        try:
            ast.parse(source)
        except SyntaxError as precise:
            line = precise.lineno or error.raw_line
            raise ParseFailure(
                f"syntax error: {precise.msg} (line {line})",
                line,
                max((precise.offset or 1) - 1, 0),
            ) from None
        except (ValueError, UnicodeDecodeError):
            pass
        message = str(error).strip().splitlines()[0] if str(error).strip() else "syntax error"
        raise ParseFailure(f"syntax error: {message}", error.raw_line, error.raw_column) from None
    except (UnicodeDecodeError, LookupError, SyntaxError) as error:
        raise ParseFailure(f"cannot decode the file: {error}", 1) from None
    except (ValueError, TypeError, RecursionError) as error:
        raise ParseFailure(f"cannot parse the file: {error}", 1) from None
