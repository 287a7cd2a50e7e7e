"""Statements found by their first word, only where a statement starts."""

from __future__ import annotations

import pytest

from replaylint.parse.statement_starts import StatementStarts

IMPORT = StatementStarts(rb"import[ \t]+temporalio\b", simple=True)
WITH_PARAMETERS = StatementStarts(
    rb"class[ \t]+\w+[ \t]*\[", rb"def[ \t]+\w+[ \t]*\[", before=b"async"
)


@pytest.mark.parametrize(
    ("source", "found"),
    [
        (b"import temporalio\n", True),
        (b"x = 1\n    import temporalio\n", True),
        (b"x = 1; import temporalio\n", True),
        (b"try: import temporalio\nexcept ImportError: pass\n", True),
        (b"x = 1\r  import temporalio\r", True),  # a lone CR ends the line before
        (b"\xef\xbb\xbfimport temporalio\n", True),  # after a byte-order mark
        (b'"""Then import temporalio and go."""\n', False),
        (b"# import temporalio\n", False),
        (b"reimport temporalio\n", False),
    ],
)
def test_a_simple_statement_starts_a_line_or_follows_a_semicolon_or_colon(
    source: bytes, found: bool
) -> None:
    assert (IMPORT.search(source) is not None) is found


@pytest.mark.parametrize(
    ("source", "found"),
    [
        (b"class Box[T]:\n    pass\n", True),
        (b"    async def first[T](items): ...\n", True),
        (b'"""A subclass of [`Base`]."""\n', False),
        (b"x = 1; class Box[T]: pass\n", False),  # a compound statement starts its own line
        (b"await def f[T](): ...\n", False),
    ],
)
def test_a_compound_statement_starts_a_line_after_an_allowed_word(
    source: bytes, found: bool
) -> None:
    assert (WITH_PARAMETERS.search(source) is not None) is found


def test_each_statement_is_found_in_the_order_written() -> None:
    source = b"import temporalio\nx = '''import temporalio'''\nif y: import temporalio\n"
    assert [m.start() for m in IMPORT.finditer(source)] == [0, source.rindex(b"import")]
