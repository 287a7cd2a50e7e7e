"""The headers of compound statements: from a statement's first line (its first decorator's,
for a decorated def or class) to the line of the colon that ends its header.

A formatter that splits a header moves a trailing comment to the header's last line
(`def f(\\n    a=time.time(),\\n):  # replaylint: ...`), so a directive on any line of a header
must cover every line of it. Found from tokens, like the directives themselves, so the
lines are the source's whatever LibCST makes of the module.
"""

from __future__ import annotations

import io
import tokenize
from typing import NamedTuple

# Keywords that open a compound statement (`match` and `case` are soft: a header only when
# the line has its colon at bracket depth 0).
_OPENERS = frozenset(
    {"if", "elif", "else", "while", "for", "with", "def", "class", "try", "except", "finally"}
    | {"match", "case", "async"}
)
_OPEN, _CLOSE = frozenset("([{"), frozenset(")]}")
_SKIPPED = frozenset({tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT})


class Header(NamedTuple):
    first: int
    last: int
    definition: bool  # a def or a class: a directive on it covers the body too


def headers(text: str) -> list[Header]:
    """Every compound statement's header, in source order (what tokenizes; none if nothing)."""
    found: list[Header] = []
    decorators: int | None = None  # the first line of decorators waiting for their def
    try:
        for line in _logical_lines(text):
            first = line[0]
            if first.type == tokenize.OP and first.string == "@":
                decorators = first.start[0] if decorators is None else decorators
                continue
            colon = _header_colon(line) if first.string in _OPENERS else None
            if colon is not None:
                start = decorators if decorators is not None else first.start[0]
                definition = _keyword(line) in ("def", "class")
                found.append(Header(start, colon, definition))
            decorators = None
    except (tokenize.TokenError, SyntaxError):
        pass  # the headers read so far still hold
    return found


def _logical_lines(text: str) -> list[list[tokenize.TokenInfo]]:
    lines: list[list[tokenize.TokenInfo]] = []
    current: list[tokenize.TokenInfo] = []
    for token in tokenize.generate_tokens(io.StringIO(text, newline="").readline):
        if token.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
            if current:
                lines.append(current)
            current = []
        elif token.type not in _SKIPPED:
            current.append(token)
    return lines


def _keyword(line: list[tokenize.TokenInfo]) -> str:
    if line[0].string == "async" and len(line) > 1:
        return line[1].string
    return line[0].string


def _header_colon(line: list[tokenize.TokenInfo]) -> int | None:
    """The line of the colon that ends the header: the first at bracket depth 0 that no
    `lambda` at depth 0 takes for its own."""
    depth = 0
    lambdas = 0
    for token in line[1:]:
        if token.type == tokenize.OP and token.string in _OPEN:
            depth += 1
        elif token.type == tokenize.OP and token.string in _CLOSE:
            depth -= 1
        elif depth == 0 and token.type == tokenize.NAME and token.string == "lambda":
            lambdas += 1
        elif depth == 0 and token.type == tokenize.OP and token.string == ":":
            if not lambdas:
                return token.start[0]
            lambdas -= 1
    return None
