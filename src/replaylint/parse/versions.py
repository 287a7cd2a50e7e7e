"""Syntax a module uses that its target Python does not have: CPython's own parser judges it
for the versions it knows (`feature_version`), and f-strings quoted as only 3.12 allows are
found in LibCST's tree (CPython does not check those against an older version)."""

from __future__ import annotations

import ast
import re
import sys
import warnings
from collections.abc import Iterator

import libcst as cst

from replaylint.parse import pyast
from replaylint.parse.children import children
from replaylint.parse.statement_starts import GAP, SPACE, StatementStarts

Version = tuple[int, int]
RUNNING: Version = (sys.version_info.major, sys.version_info.minor)
_OLDEST_FEATURE_VERSION: Version = (3, 7)  # the oldest `feature_version` CPython accepts


# What CPython refuses under an older `feature_version`, by the version that added it, as bytes
# a module must hold to use it: most modules hold none, and are spared a second parse by CPython.
# Only what it checks is listed (3.11 on: walrus, positional-only and `f"{x=}"` 3.8,
# parenthesized context managers 3.9, match 3.10, except* 3.11, type aliases and parameters
# 3.12). It holds no decorator expression (3.9) nor star in a subscript (`tuple[int, *Ts]`,
# 3.11) against an older version: a byte test for those would only buy a parse that finds nothing.
# The later ones are statements: sought by their first word where a statement starts. A
# parenthesized `async with` is not refused: only a `with` at a statement's start counts.
_PARENTHESIZED_WITH = StatementStarts(rb"with" + GAP + rb"\(")
_ADDED: tuple[tuple[Version, re.Pattern[bytes] | StatementStarts], ...] = (
    # `:=`; a `/` before `,` `)` `:` (a lambda's), a comment or a continuation; `=` ending an
    # f-string's expression, before its conversion or format too (`{x=!r}`, `{x=:>10}`)
    ((3, 8), re.compile(rb":=|/\s*[,):#\\]|=\s*[}!:]")),
    ((3, 9), _PARENTHESIZED_WITH),
    ((3, 10), StatementStarts(rb"match\b", rb"case\b")),  # soft keywords: `match = 1` too
    ((3, 11), StatementStarts(rb"except" + GAP + rb"\*")),
    (
        (3, 12),
        StatementStarts(
            rb"type" + SPACE + rb"\w+" + GAP + rb"[=\[]",  # type X = ..., type X[T] = ...
            rb"def" + SPACE + rb"\w+" + GAP + rb"\[",  # def f[T](...)
            rb"class" + SPACE + rb"\w+" + GAP + rb"\[",  # class C[T]
            before=b"async",
            simple=True,
        ),
    ),
)
_LONE_CR = re.compile(rb"\r(?!\n)")
# An f-string whose braces hold a quote of its own kind (PEP 701).
_OWN_QUOTE = re.compile(rb"""[fF][rR]?("|')[^\n]*?\{[^}\n]*\1""")


def newer_syntax(source: bytes, tree: cst.Module, target: Version) -> tuple[str, int] | None:
    """(what needs a newer Python, its line) for the first such construct in a module this
    interpreter compiled, else None."""
    if target >= RUNNING or target < _OLDEST_FEATURE_VERSION:
        return None
    if any(version > target and pattern.search(source) for version, pattern in _ADDED):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                pyast.parse_for(source, target)
        except SyntaxError as error:
            message = str(error.msg).split("\n")[0]
            return message, _construct_line(source, message, error.lineno or 1)
        except (ValueError, RecursionError, MemoryError):
            pass  # deeper than CPython's tree goes: the module compiled, so let it be
    # An interpreter older than 3.12 has already refused such an f-string (its tokenizer ends
    # the string at the inner quote, leaving a brace open): only a newer one needs the walk.
    if target < (3, 12) <= RUNNING and _OWN_QUOTE.search(source):
        line = _pep701_fstring(tree)
        if line is not None:
            return "f-string: a quote of the string's own kind inside it needs Python 3.12", line
    return None


# CPython names some constructs at the end of the statement that holds them (an `except*` at
# its `try`'s last line, a parenthesized `with` after its body): where the construct itself is
# written, by what the message says, is found in the tree of the module (which this interpreter
# compiled), so an example in a docstring is not taken for it.
_CONSTRUCTS: tuple[tuple[str, tuple[type[ast.stmt], ...]], ...] = (
    ("Exception groups", tuple(filter(None, [getattr(ast, "TryStar", None)]))),
    ("Pattern matching", (ast.Match,)),
    ("Parenthesized context managers", (ast.With,)),
)
_BRACKET = re.compile(rb"[()\[\]{}]")
_COLON = re.compile(GAP + rb":")


def _construct_line(source: bytes, message: str, line: int) -> int:
    kinds = next((kinds for words, kinds in _CONSTRUCTS if message.startswith(words)), ())
    if not kinds:
        return line
    if b"\r" in source:  # a lone CR ends a line for CPython: so it does for _line_at
        source = _LONE_CR.sub(b"\n", source)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = pyast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return line
    # Of the withs, only `with (a as b, ...):` is refused, not `with (a) as b:`, whose
    # parenthesis holds an expression.
    refused = _refused_with_lines(source) if ast.With in kinds else None
    found = [
        node
        for node in ast.walk(tree)
        if isinstance(node, kinds)
        and node.lineno <= line
        and (refused is None or node.lineno in refused)
    ]
    # The statement CPython names is the one ending last before its line; of nested ones ending
    # together, the outermost.
    ended = [node for node in found if (node.end_lineno or node.lineno) <= line] or found
    if not ended:
        return line
    node = max(ended, key=lambda node: (node.end_lineno or node.lineno, -node.lineno))
    handlers = getattr(node, "handlers", None)
    return handlers[0].lineno if handlers else node.lineno


def _refused_with_lines(source: bytes) -> set[int]:
    return {
        _line_at(source, found.start())
        for found in _PARENTHESIZED_WITH.finditer(source)
        if _colon_follows(source, found.end())
    }


def _line_at(source: bytes, offset: int) -> int:
    return source.count(b"\n", 0, offset) + 1


def _colon_follows(source: bytes, inside: int) -> bool:
    """Whether the statement's colon follows the bracket opened just before `inside` (brackets
    counted, not read: one in a string may mislead it, and then the line is CPython's)."""
    depth = 1
    for bracket in _BRACKET.finditer(source, inside):
        depth += 1 if bracket.group() in b"([{" else -1
        if depth == 0:
            return _COLON.match(source, bracket.end()) is not None
    return False


def _pep701_fstring(tree: cst.Module) -> int | None:
    """The line of an f-string holding a string quoted like itself (`f"{x or "n/a"}"`), which
    only Python 3.12 reads (PEP 701); lines are counted from the module's code, generated only
    once one is found (most modules the byte test lets through hold none, and generating a
    module's code costs about as much as this walk)."""
    for node in _formatted_strings(tree):
        quote = node.end
        for part in node.parts:
            if isinstance(part, cst.FormattedStringExpression) and _quotes(part, quote):
                code = tree.code
                text = tree.code_for_node(node)
                return code[: code.find(text)].count("\n") + 1 if text in code else 1
    return None


def _formatted_strings(tree: cst.Module) -> Iterator[cst.FormattedString]:
    """The f-strings under `tree`, in _walk's order: the same walk without a generator frame
    per node nor a test of every node against an abstract class (a 300 KB module has 160,000
    nodes)."""
    stack: list[cst.CSTNode] = [tree]
    pop, extend = stack.pop, stack.extend
    while stack:
        node = pop()
        if type(node) is cst.FormattedString:
            yield node
        extend(children(node))


def _quotes(part: cst.FormattedStringExpression, quote: str) -> bool:
    for node in _walk(part.expression):
        if isinstance(node, cst.SimpleString) and node.quote in (quote, quote * 3):
            return True
        if isinstance(node, cst.FormattedString) and node.end == quote:
            return True
    return False


def _walk(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(children(current))


def shown(version: Version) -> str:
    return f"{version[0]}.{version[1]}"
