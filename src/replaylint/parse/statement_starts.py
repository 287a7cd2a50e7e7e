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

_BLANKS = b" \t\f\xef\xbb\xbf"  # a UTF-8 byte-order mark may open a module's first line


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
        # A line ends at LF, CR LF or a lone CR, as CPython reads it.
        line = max(source.rfind(b"\n", 0, start), source.rfind(b"\r", 0, start)) + 1
        before = source[line:start].strip(_BLANKS)
        if not before or before == self._before:
            return True
        return self._simple and before[-1:] in (b";", b":")
