"""Positions between the guard (1-based lines, 0-based code-point columns) and LSP (0-based
lines, columns in the negotiated unit: UTF-16 code units unless the client chose otherwise)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from lsprotocol import types

from replaylint.core.findings import Span

# LSP and Python's tokenizer agree on these three line breaks only; str.splitlines() would also
# split on form feeds and U+2028, which Python source keeps inside a line.
_LINE_BREAK = re.compile(r"\r\n|\r|\n")

UTF8 = types.PositionEncodingKind.Utf8.value
UTF16 = types.PositionEncodingKind.Utf16.value
UTF32 = types.PositionEncodingKind.Utf32.value


def source_lines(text: str) -> list[str]:
    """The lines of a buffer without their line breaks (a final break ends no extra line)."""
    lines = _LINE_BREAK.split(text)
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()
    return lines


def _units(text: str, encoding: str) -> int:
    if encoding == UTF32:
        return len(text)
    if encoding == UTF8:
        return len(text.encode("utf-8", "surrogatepass"))
    # UTF-16: a code point beyond the Basic Multilingual Plane takes a surrogate pair.
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


def to_units(line: str, column: int, encoding: str) -> int:
    """A code-point column of `line` in the client's units (clamped to the line's end)."""
    return _units(line[: max(column, 0)], encoding)


def to_column(line: str, units: int, encoding: str) -> int:
    """The code-point column of a client position on `line` (one inside a character, or past the
    line's end, is moved to the nearest column at or before it)."""
    if encoding == UTF32:
        return min(max(units, 0), len(line))
    counted = 0
    for column, char in enumerate(line):
        counted += _units(char, encoding)
        if counted > units:
            return column
    return len(line)


def _line(lines: Sequence[str], number: int) -> str:
    return lines[number] if 0 <= number < len(lines) else ""


def span_range(span: Span, lines: Sequence[str], encoding: str) -> types.Range:
    """A finding's span as an LSP range over the text it was found in."""
    start_line, end_line = max(span.line - 1, 0), max(span.end_line - 1, 0)
    return types.Range(
        start=types.Position(start_line, to_units(_line(lines, start_line), span.column, encoding)),
        end=types.Position(end_line, to_units(_line(lines, end_line), span.end_column, encoding)),
    )


def line_range(number: int, lines: Sequence[str], encoding: str) -> types.Range:
    """The code of 1-based line `number`, from its first non-blank character to its end."""
    index = max(number - 1, 0)
    text = _line(lines, index)
    indent = len(text) - len(text.lstrip())
    return types.Range(
        start=types.Position(index, to_units(text, indent, encoding)),
        end=types.Position(index, to_units(text, len(text), encoding)),
    )


def contains(outer: types.Range, position: types.Position) -> bool:
    start, end = outer.start, outer.end
    after_start = (position.line, position.character) >= (start.line, start.character)
    return after_start and (position.line, position.character) <= (end.line, end.character)


def overlaps(first: types.Range, second: types.Range) -> bool:
    """Do two ranges share a position (an empty range touching the other counts)?"""
    first_start = (first.start.line, first.start.character)
    first_end = (first.end.line, first.end.character)
    second_start = (second.start.line, second.start.character)
    second_end = (second.end.line, second.end.character)
    return first_start <= second_end and second_start <= first_end
