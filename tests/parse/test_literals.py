"""A literal's value is what LibCST's `evaluated_value` (CPython's `ast.literal_eval`) gives,
whether it is read from its text directly or asked of CPython: same type, same value, same
error."""

from __future__ import annotations

import warnings

import libcst as cst
import pytest

from replaylint.parse import pyast

LITERALS = [
    "'plain'",
    '"double"',
    "''",
    '""',
    "''''''",
    "'''triple'''",
    '"""a\nb"""',
    '"\'"',
    "'\"'",
    "u'unicode'",
    "U'Unicode'",
    "r'\\d+'",
    "R'\\''",
    "rb'raw bytes'",
    "b'bytes'",
    "br'\\x'",
    "'tab\\t'",
    "'\\N{BULLET}'",
    "'\\u00e9'",
    "'é ∑ 日本'",
    "'line \\\ncontinued'",
    "'''ends with quote\"'''",
    "0",
    "00",
    "42",
    "1_000_000",
    "0x1F",
    "0XfF",
    "0o17",
    "0O17",
    "0b101",
    "0B1_0",
    "1.5",
    ".5",
    "5.",
    "1e10",
    "1E-3",
    "1_0.2_5",
    "1e1_0",
    "0.1",
    "1e400",
    "'a' 'b'",
    "'a' \"b\" '''c'''",
    "b'a' b'b'",
    "'a' f'{x}'",
    "f'{x}' 'a'",
    "r'\\n' 'x'",
]


@pytest.mark.parametrize("text", LITERALS)
def test_a_literal_reads_as_literal_eval_reads_it(text: str) -> None:
    node = cst.parse_expression(text)

    def outcome(read):  # type: ignore[no-untyped-def]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                value = read()
            except Exception as error:  # the error is part of what is compared
                return "raised", type(error)
        return type(value), repr(value)

    assert outcome(lambda: pyast.evaluated(node)) == outcome(lambda: node.evaluated_value)


@pytest.mark.parametrize(
    ("text", "value"),
    [("'plain'", "plain"), ("r'\\d'", "\\d"), ("0x1F", 31), ("1_0.5", 10.5), ("'a' 'b'", "ab")],
)
def test_plain_literals_are_read_without_asking_cpython(text: str, value: object) -> None:
    assert pyast._plain(cst.parse_expression(text)) == value


@pytest.mark.parametrize("text", ["b'x'", "'\\n'", "'\\N{BULLET}'", "f'{x}'", "'\"\\r\"'"])
def test_escapes_bytes_and_formatted_strings_are_asked_of_cpython(text: str) -> None:
    assert pyast._plain(cst.parse_expression(text)) is pyast._ASK
