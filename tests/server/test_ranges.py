"""Columns between code points (the guard's) and the client's units (UTF-16 unless negotiated)."""

from __future__ import annotations

import pytest
from lsprotocol import types

from replaylint.core.findings import Span
from replaylint.server.ranges import (
    UTF8,
    UTF16,
    UTF32,
    line_range,
    source_lines,
    span_range,
    to_column,
    to_units,
)

# "é" is 2 UTF-8 bytes and 1 UTF-16 unit; "🕒" is 4 bytes and 2 units; both one code point.
LINE = 'x = "é🕒", time.time()'


@pytest.mark.parametrize(("encoding", "units"), [(UTF16, 11), (UTF8, 14), (UTF32, 10)])
def test_a_column_after_wide_characters(encoding: str, units: int):
    assert LINE[10:19] == "time.time"
    assert to_units(LINE, 10, encoding) == units
    assert to_column(LINE, units, encoding) == 10


def test_a_client_position_inside_a_character_or_past_the_end_is_clamped():
    assert to_column(LINE, 7, UTF16) == 6  # between the two halves of the surrogate pair
    assert to_column(LINE, 100, UTF16) == len(LINE)
    assert to_units(LINE, 100, UTF16) == len(LINE) + 1


def test_only_lsp_line_breaks_split_lines():
    assert source_lines("a\r\nb\rc\nd\x0ce\u2028f\n") == ["a", "b", "c", "d\x0ce\u2028f"]
    assert source_lines("") == [""]


def test_a_span_becomes_a_zero_based_range_in_utf16_units():
    lines = ["import time", LINE]
    assert span_range(Span(2, 10, 2, 21), lines, UTF16) == types.Range(
        types.Position(1, 11), types.Position(1, 22)
    )


def test_a_chain_hop_covers_its_lines_code():
    lines = ["def make():", "    return 'é🕒'"]
    assert line_range(2, lines, UTF16) == types.Range(types.Position(1, 4), types.Position(1, 16))
    assert line_range(9, lines, UTF16) == types.Range(types.Position(8, 0), types.Position(8, 0))
