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
import tokenize
from functools import partial

import libcst as cst

from replaylint.parse import normalise, pyast, stacks, unvalidated
from replaylint.parse.quiet import quiet
from replaylint.parse.versions import RUNNING, Version, newer_syntax, shown


class ParseFailure(Exception):
    def __init__(self, reason: str, line: int, column: int = 0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line
        self.column = column


def judge(source: bytes) -> None:
    """Raise ParseFailure unless CPython accepts the module, at the process's recursion limit
    and, like a fresh import, without our own frames counting against its nesting."""
    if stacks.depth() > _FRESH_DEPTH:
        # A chain of local imports loads each module inside the last: judge on a new thread,
        # where the stack is empty, rather than let our frames decide the module's verdict.
        return stacks.on_fresh_stack(partial(judge, source), 16 * stacks.MIB, "replaylint-judge")
    try:
        with quiet():  # invalid escape sequences are warnings, not errors
            # Compiled from the bytes, exactly as an import compiles them (compiling the Python
            # AST object is stricter on deep nesting): the compiler's own refusals, `return`
            # outside a function or more than 20 nested blocks, come after parsing. The code
            # object is dropped; nothing runs.
            compile(source, "<checked module>", "exec", dont_inherit=True)
    except SyntaxError as error:
        line = error.lineno or 1
        message = str(error.msg).split("\n")[0]
        column = max((error.offset or 1) - 1, 0)
        raise ParseFailure(f"syntax error: {message} (line {line})", line, column) from None
    except (RecursionError, MemoryError):
        raise ParseFailure("too deeply nested for Python to compile", 1) from None
    except ValueError as error:
        # A NUL byte: Python 3.10 (and 3.11 before 3.11.4) raise ValueError where later ones
        # raise SyntaxError with the same words; reported the same on every version.
        raise ParseFailure(f"syntax error: {error} (line 1)", 1) from None


def statement_lines(source: bytes | str) -> list[int]:
    """The first line of every statement of a module CPython accepts, in preorder (a
    decorator's, for a decorated one), which lets positions be found by generating code for one
    statement, not the module. Empty when building the Python tree is deeper than compiling
    was: positions then come from the whole module. Asked for only where a position is wanted
    (most modules never are): building CPython's tree costs a third of LibCST's parse."""
    try:
        with quiet():
            return _first_lines(pyast.parse(source))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []


def _first_line(statement: ast.stmt) -> int:
    decorators = getattr(statement, "decorator_list", None)
    return (
        min(statement.lineno, *(d.lineno for d in decorators)) if decorators else statement.lineno
    )


_FRESH_DEPTH = 40  # frames below which the judge runs where it is called


# A backslash continuation alone on a line: CPython joins the next line to it (its indentation
# is the backslash line's), LibCST refuses it. Moving that indentation onto the next line, in
# place of its own, keeps every line where it was.
_LONE_CONTINUATION = re.compile(rb"^([ \t]*)\\(\r\n|\r|\n)[ \t]*", re.MULTILINE)


def parse(source: bytes, target: Version = RUNNING) -> tuple[cst.Module, bool]:
    """The LibCST tree of a module CPython accepts (raises ParseFailure), and whether CPython
    read it (so statement_lines gives its statements' first lines for positions.py).

    `target`: the Python the module is for. For a newer one than this interpreter, CPython is
    not the judge of syntax it does not know: what LibCST reads is checked (positions then come
    from LibCST's tree alone). For an older one, syntax it does not have is ADK-E001."""
    try:
        judge(source)
    except ParseFailure as failure:
        later = _later_syntax(source, failure)
        if later is None:
            raise
        if target > RUNNING:
            return later, False  # syntax of a newer Python than this one: LibCST's reading
        # LibCST reads what CPython refuses: syntax of a later Python than the target.
        reason = f"{failure.reason}: not Python {shown(target)} syntax"
        raise ParseFailure(reason, failure.line, failure.column) from None
    try:
        tree = unvalidated.parse_module(source)
    except (cst.ParserSyntaxError, SyntaxError, UnicodeDecodeError, LookupError):
        tree = _reparse(source)
    except RecursionError:
        raise ParseFailure("parser limit: nested too deeply for LibCST's parser", 1) from None
    except MemoryError:
        raise ParseFailure("memory: ran out of memory parsing the module", 1) from None
    except (ValueError, TypeError) as error:
        raise ParseFailure(f"cannot parse the file: {type(error).__name__}: {error}", 1) from None
    newer = newer_syntax(source, tree, target)
    if newer is not None:
        message, line = newer
        raise ParseFailure(
            f"syntax error: {message} (line {line}): not Python {shown(target)} syntax", line
        )
    return tree, True


def _later_syntax(source: bytes, failure: ParseFailure) -> cst.Module | None:
    """The tree of a module CPython refused, when LibCST reads it (a later Python's syntax).
    Not for what no Python reads (nesting CPython refuses, NUL bytes): LibCST's parser would
    take minutes and gigabytes on those."""
    reason = failure.reason
    if not reason.startswith("syntax error:") or "nest" in reason or "null bytes" in reason:
        return None
    try:
        return cst.parse_module(source)
    except (cst.ParserSyntaxError, SyntaxError, UnicodeDecodeError, LookupError, ValueError):
        return None
    except (RecursionError, MemoryError):
        return None


def _first_lines(tree: ast.Module) -> list[int]:
    """Every statement's first line, in the preorder positions.statement_origins walks LibCST's
    statements in: a body, then handlers, `else` and `finally` (an `elif` is a nested `if`)."""
    lines: list[int] = []
    stack: list[ast.stmt] = list(reversed(tree.body))
    while stack:
        statement = stack.pop()
        lines.append(_first_line(statement))
        inner: list[ast.stmt] = []
        for name in ("body", "handlers", "orelse", "finalbody", "cases"):
            for item in getattr(statement, name, ()):
                inner.extend([item] if isinstance(item, ast.stmt) else item.body)
        stack.extend(reversed(inner))
    return lines


def tree_of(source: bytes) -> cst.Module:
    """LibCST's tree of a module read as parse() reads it, without CPython's verdict (for
    code that edits files: --add-ignore). Raises ParseFailure."""
    try:
        return cst.parse_module(source)
    except (cst.ParserSyntaxError, SyntaxError, UnicodeDecodeError, LookupError):
        return _reparse(source)
    except (ValueError, TypeError, RecursionError, MemoryError) as error:
        raise ParseFailure(f"cannot parse the file: {type(error).__name__}", 1) from None


def _reparse(source: bytes) -> cst.Module:
    try:
        return cst.parse_module(source)
    except (cst.ParserSyntaxError, SyntaxError, UnicodeDecodeError, LookupError) as first:
        # CPython accepted these bytes: read them as it does (a stray non-UTF-8 byte in a
        # comment, a lone continuation line) and try once more, keeping every line in place;
        # then with what LibCST's parser cannot take rewritten (normalise.py).
        text = _as_cpython_reads(source)
        try:
            return cst.parse_module(text)
        except (cst.ParserSyntaxError, SyntaxError, UnicodeDecodeError, LookupError):
            pass
        try:
            rewritten = normalise.normalised(text)
        except normalise.ParserLimit as limit:
            raise ParseFailure(limit.reason, limit.line) from None
        if rewritten is not None:
            try:
                return cst.parse_module(rewritten)
            except (cst.ParserSyntaxError, SyntaxError, UnicodeDecodeError, LookupError):
                pass
        raise _parser_limit(first) from None


def _parser_limit(error: Exception) -> ParseFailure:
    """LibCST refused what CPython accepts: its limit, never a "syntax error" (it is not one).
    LibCST's own message starts "Syntax Error @ line:column"; what it expected is kept."""
    line = getattr(error, "raw_line", 1) or 1
    expected = getattr(error, "message", "") or ""
    if not expected:
        text = str(error).strip()
        expected = text.splitlines()[0] if text else "parse error"
    expected = re.sub(r"(?i)syntax error\s*(@\s*[0-9:]+)?\.?\s*", "", expected).strip()
    detail = f" ({expected})" if expected else ""
    return ParseFailure(
        f"parser limit: LibCST cannot parse line {line}, which Python accepts{detail}", line
    )


def _as_cpython_reads(source: bytes) -> str:
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
    except SyntaxError:
        encoding = "utf-8"
    cleaned = _LONE_CONTINUATION.sub(rb"\2\1", source)
    text = cleaned.decode(encoding, errors="replace")
    return text[1:] if text.startswith("\ufeff") else text
