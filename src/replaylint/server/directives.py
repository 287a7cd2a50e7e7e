"""The text behind the "ignore" code actions: the line form exactly as `check --add-ignore`
writes it, and `# replaylint: file-ignore[CODE]` near the top of the module, merged into a
file-wide directive already there."""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass

from replaylint.core.codes import Code
from replaylint.core.findings import Finding
from replaylint.suppressions.add_ignore import REASON, annotate

# The directive grammar has one home, suppressions.py: reuse its pattern, never restate it.
from replaylint.suppressions.directives import _DIRECTIVE as DIRECTIVE

# PEP 263: a coding declaration on line 1 or 2; a shebang only on line 1. Both must stay there.
_CODING = re.compile(r"^[ \t\f]*#.*?coding[:=][ \t]*[-\w.]+")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True)
class Edit:
    """Replace columns [start, end) of 0-based `line` (code points) with `text`."""

    line: int
    start: int
    end: int
    text: str


def line_ignored(data: bytes, encoding: str, finding: Finding) -> str | None:
    """The module (its bytes, in `encoding`) with `finding` silenced on its line: the code
    merged into a directive there or a new `# replaylint: ignore[CODE] -- <reason>`, on the
    line the suppression grammar reads for it, as `check --add-ignore` places it. None where
    no line can take one."""
    new, added, unplaced = annotate(data, [finding])
    if not added or unplaced:
        return None
    try:
        return new.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        return None


def _comments(text: str) -> dict[int, tuple[int, str]]:
    """The comment ending each line (1-based), with its column."""
    found: dict[int, tuple[int, str]] = {}
    # Universal newlines, as the engine splits lines (a lone \r ends a line too).
    readline = io.StringIO(text, newline=None).readline
    try:
        for token in tokenize.generate_tokens(readline):
            if token.type == tokenize.COMMENT:
                found[token.start[0]] = (token.start[1], token.string)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass  # the tokens read so far still hold the comments before the problem
    return found


def _with_code(comment: str, match: re.Match[str], code: Code) -> str | None:
    """The directive comment with `code` added to its list (None when it already names it)."""
    codes = match.group("codes")
    if codes is None or not codes.strip():  # `file-ignore` with no list yet, or `[]`
        at, end = match.end("kind"), match.end()
        return f"{comment[:at]}[{code.value}]{comment[end:]}"
    named = [item.strip() for item in codes.split(",") if item.strip()]
    if code.value in named:
        return None
    listed = ", ".join([*named, code.value])
    return f"{comment[: match.start('codes')]}{listed}{comment[match.end('codes') :]}"


def _header_lines(lines: list[str] | tuple[str, ...]) -> int:
    """How many leading lines must stay first: a shebang, then a coding declaration."""
    count = 0
    if lines and lines[0].startswith("#!"):
        count = 1
    for index in range(count, min(2, len(lines))):
        if _CODING.match(lines[index]):
            count = index + 1
    return count


def file_ignore(text: str, lines: list[str] | tuple[str, ...], code: Code) -> Edit | None:
    """The edit that silences `code` in the whole module: the code merged into the first
    `replaylint: file-ignore` directive, or a new one with a reason to write on its own line at
    the top of the module (after a shebang and a coding declaration). None when the module's
    file-wide directive already names it."""
    comments = _comments(text)
    for line in sorted(comments):
        column, body = comments[line]
        for match in DIRECTIVE.finditer(body):
            if match.group("kind").lower() != "file-ignore":
                continue
            merged = _with_code(body, match, code)
            if merged is None:
                return None
            return Edit(line - 1, column, column + len(body), merged)
    found = _LINE_BREAK.search(text)
    newline = found.group() if found else "\n"
    at = _header_lines(lines)
    directive = f"# replaylint: file-ignore[{code.value}] -- {REASON}"
    if at >= len(lines) and at > 0 and not text.endswith(("\n", "\r")):
        # The header is the whole file, with no line break after it: start a line first.
        last = len(lines) - 1
        return Edit(last, len(lines[last]), len(lines[last]), f"{newline}{directive}")
    return Edit(at, 0, 0, f"{directive}{newline}")
