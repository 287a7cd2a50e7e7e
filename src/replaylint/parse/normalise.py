"""Python that CPython compiles but LibCST's parser refuses, rewritten so that LibCST reads the
same program, with every position outside what is rewritten kept exactly.

- Indentation that mixes tabs and spaces (a block indented `\\t    ` inside one indented four
  spaces): LibCST wants each block's indentation to begin with its parent's. CPython accepts
  a module only if its blocks nest the same way with a tab counted as 8 columns and as 1, so
  writing each tab of an indentation as one space keeps every block where it is, and every
  line its length: no column moves.
- More than about 3,000 string literals concatenated by juxtaposition (`"a" "b" ...`): LibCST's
  parser stops at some 3,000. The run becomes one literal of the same value, on its first
  line; its other lines keep their line breaks (and continuation backslashes) and become
  blank, so every line, and every column outside the run, stays where it was. A run that
  holds f-strings cannot be joined this way (their expressions are code to check): that is
  LibCST's limit, reported as such (ParserLimit).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize

# Runs of this many literals or more are joined: far below LibCST's limit, far above code.
LONG_RUN = 500
_STRING_PARTS = {
    getattr(tokenize, name)
    for name in ("STRING", "FSTRING_MIDDLE", "TSTRING_MIDDLE")
    if hasattr(tokenize, name)
}
_FSTRING_START = {
    getattr(tokenize, n) for n in ("FSTRING_START", "TSTRING_START") if hasattr(tokenize, n)
}
_FSTRING_END = {
    getattr(tokenize, n) for n in ("FSTRING_END", "TSTRING_END") if hasattr(tokenize, n)
}
_BETWEEN = {tokenize.NL, tokenize.COMMENT}


class ParserLimit(Exception):
    """What LibCST's parser cannot read, named for the reader: "more than ... strings"."""

    def __init__(self, reason: str, line: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line


def normalised(text: str) -> str | None:
    """`text` rewritten for LibCST as above, or None when there is nothing to rewrite.
    Raises ParserLimit for a long run of concatenated f-strings."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text, newline="").readline))
    except (tokenize.TokenError, SyntaxError):
        return None
    lines = io.StringIO(text, newline="").readlines()
    changed = _untabbed(lines, tokens)
    for run in reversed(_long_runs(tokens)):
        _join(lines, run)
        changed = True
    return "".join(lines) if changed else None


def _untabbed(lines: list[str], tokens: list[tokenize.TokenInfo]) -> bool:
    """Each tab of a line's indentation as one space, except on lines that begin inside a
    string (their leading whitespace is the string's)."""
    inside: set[int] = set()
    for token in tokens:
        if token.type in _STRING_PARTS and token.end[0] > token.start[0]:
            inside.update(range(token.start[0] + 1, token.end[0] + 1))
    changed = False
    for number, line in enumerate(lines, 1):
        indentation = line[: len(line) - len(line.lstrip(" \t"))]
        if "\t" in indentation and number not in inside:
            lines[number - 1] = indentation.replace("\t", " ") + line[len(indentation) :]
            changed = True
    return changed


Piece = tuple[tuple[int, int], tuple[int, int], bool]  # start, end, is an f-string


def _long_runs(tokens: list[tokenize.TokenInfo]) -> list[list[Piece]]:
    """Runs of LONG_RUN or more string literals next to one another (comments and line breaks
    between them), in source order; a run holding an f-string raises ParserLimit."""
    runs: list[list[Piece]] = []
    run: list[Piece] = []
    depth = 0  # inside an f-string's own tokens (3.12+), nested ones included
    opened = (0, 0)
    for token in tokens:
        if token.type in _FSTRING_START:
            opened = token.start if depth == 0 else opened
            depth += 1
        elif depth:
            if token.type in _FSTRING_END:
                depth -= 1
                if depth == 0:
                    run.append((opened, token.end, True))
        elif token.type == tokenize.STRING:
            formatted = re.match(r"[a-zA-Z]*[fFtT]", token.string) is not None  # before 3.12
            run.append((token.start, token.end, formatted))
        elif token.type not in _BETWEEN:
            _close(run, runs)
            run = []
    _close(run, runs)
    return runs


def _close(run: list[Piece], runs: list[list[Piece]]) -> None:
    if len(run) < LONG_RUN:
        return
    if any(formatted for _, _, formatted in run):
        raise ParserLimit(
            f"parser limit: LibCST cannot parse {len(run):,} implicitly concatenated strings "
            f"in one expression (from line {run[0][0][0]}), and the f-strings among them keep "
            "them from being joined",
            run[0][0][0],
        )
    runs.append(run)


def _join(lines: list[str], run: list[Piece]) -> None:
    """Replace the run, from its first literal to its last, by one literal of its value."""
    (first_row, first_col), (last_row, last_col) = run[0][0], run[-1][1]
    region = [lines[row - 1] for row in range(first_row, last_row + 1)]
    region[-1] = region[-1][:last_col]
    region[0] = region[0][first_col:] if first_row != last_row else region[0][first_col:last_col]
    value = ast.literal_eval("(" + "".join(region) + "\n)")
    literal = repr(value)
    if first_row == last_row:
        width = last_col - first_col
        if len(literal) > width:
            raise ParserLimit(
                f"parser limit: LibCST cannot parse {len(run):,} implicitly concatenated "
                f"strings in one expression (line {first_row})",
                first_row,
            )
        line = lines[first_row - 1]
        lines[first_row - 1] = line[:first_col] + literal.ljust(width) + line[last_col:]
        return
    head = lines[first_row - 1]
    body = head.rstrip("\r\n")
    continued = body.rstrip().endswith("\\")
    lines[first_row - 1] = (
        head[:first_col] + literal + (" \\" if continued else "") + head[len(body) :]
    )
    for row in range(first_row + 1, last_row + 1):
        line = lines[row - 1]
        cut = last_col if row == last_row else len(line)
        lines[row - 1] = _blank(line[:cut]) + line[cut:]


def _blank(text: str) -> str:
    """Spaces for every character but line breaks and a continuation backslash."""
    body = text.rstrip("\r\n")
    ending = text[len(body) :]
    continued = body.rstrip().endswith("\\")
    blank = " " * len(body)
    if continued:
        blank = blank[: len(body.rstrip()) - 1] + "\\" + blank[len(body.rstrip()) :]
    return blank + ending
