"""Statements found in a module's bytes by their first word, kept only where a statement can
start: nothing but blanks before the word on its line (or one word allowed there, `async`), or,
for a simple statement, a `;` or a compound statement's colon (`try: import restate`).

Searching for the word is a literal search, several times faster than a pattern tried at every
line's start, and it finds the statements written after a `;` or a colon in the same pass; the
few places the word occurs are then looked at one by one. A word in a docstring's prose ("a
subclass of [`Agent`]", "*except* for") is not a statement's start.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

# For the forms' patterns: blanks inside a statement, backslash continuations included (GAP),
# and the same, at least one (SPACE), as between `import` and the module it names.
GAP = rb"[ \t\f]*(?:\\(?:\r\n|\r|\n)[ \t\f]*)*"
SPACE = rb"(?:[ \t\f]|\\(?:\r\n|\r|\n))+"

_BLANK = frozenset(b" \t\f")
_BREAK = frozenset(b"\r\n")  # a line ends at LF, CR LF or a lone CR, as CPython reads it
_SIMPLE_END = frozenset(b";:")
_BYTE_ORDER_MARK = b"\xef\xbb\xbf"  # may open a module's first line


class StatementStarts:
    """The statements of some forms, each a pattern that starts with the statement's first
    word."""

    __slots__ = ("_before", "_patterns", "_simple")

    def __init__(self, *forms: bytes, before: bytes = b"", simple: bool = False) -> None:
        self._patterns = tuple(re.compile(form) for form in forms)
        self._before = before
        self._simple = simple

    def finditer(self, source: bytes) -> Iterator[re.Match[bytes]]:
        """Each form's statements, form after form, in the source's order."""
        for pattern in self._patterns:
            for found in pattern.finditer(source):
                if self._starts(source, found.start()):
                    yield found

    def search(self, source: bytes) -> re.Match[bytes] | None:
        return next(self.finditer(source), None)

    def _starts(self, source: bytes, start: int) -> bool:
        # Read back from the word over blanks only: a search back to the line's start would
        # cost the line's length at each word (a long one-line file, the square of its size).
        end = _past_blanks(source, start)
        if _line_starts(source, end) or (self._simple and source[end - 1] in _SIMPLE_END):
            return True
        word = self._before
        return (
            bool(word)
            and source.endswith(word, 0, end)
            and _line_starts(source, _past_blanks(source, end - len(word)))
        )


def _past_blanks(source: bytes, end: int) -> int:
    """Where the blanks that end at `end` begin."""
    while end and source[end - 1] in _BLANK:
        end -= 1
    return end


def _line_starts(source: bytes, end: int) -> bool:
    """Whether only a line break, or the module's start, stands before `end`."""
    if end == 0 or source[end - 1] in _BREAK:
        return True
    return end == len(_BYTE_ORDER_MARK) and source.startswith(_BYTE_ORDER_MARK)
