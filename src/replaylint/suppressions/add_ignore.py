"""`replaylint check --add-ignore`: a suppression comment for each finding, written on its line.

The comment is `# replaylint: ignore[ADK-W003] -- <reason: why this is replay safe>`: a valid
directive whose reason is left for a person to write. Codes are merged into a directive (ours
or a noqa naming our codes) already on the line, other comments are kept, and no byte of the
file changes outside the lines that get a comment (line endings, encoding and BOM stay).
Where a line can take one is decided as suppressions.py reads directives, and each file's
result is read back with that same parser before it is written: a code that would be left
unused (another directive covers its finding first) is not added.
"""

from __future__ import annotations

import codecs
import io
import re
import tokenize
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from replaylint.core.codes import UNSUPPRESSIBLE_CODES, Code, parse_code
from replaylint.core.files import replace_whole
from replaylint.core.findings import Finding, Report, Span

REASON = "<reason: why this is replay safe>"
# ADK-S001/S002 are about the comments themselves (remove or fix them), and the module of an
# ADK-E001 cannot be parsed, so no comment in it is read.
_STRING_STARTS = {
    getattr(tokenize, n) for n in ("FSTRING_START", "TSTRING_START") if hasattr(tokenize, n)
}
_STRING_ENDS = {
    getattr(tokenize, n) for n in ("FSTRING_END", "TSTRING_END") if hasattr(tokenize, n)
}


@dataclass
class Added:
    """What a run of --add-ignore wrote, and the findings no line could take a comment for."""

    suppressions: int = 0
    files: set[str] = field(default_factory=set)
    unplaced: list[Finding] = field(default_factory=list)
    # What no comment can silence, left after the run: stale or invalid suppressions (remove or
    # fix them) and modules that cannot be parsed.
    left: list[Finding] = field(default_factory=list)

    def warnings(self) -> list[str]:
        """One line for each finding left without a comment, saying why."""
        lines = [
            f"{f.path}:{f.line}: no line there can hold a comment for {f.code.value}"
            for f in self.unplaced
        ]
        lines += [
            f"{f.path}:{f.line}: {f.code.value} cannot be suppressed: {f.remedy}" for f in self.left
        ]
        return lines

    def message(self) -> str:
        count, files = self.suppressions, len(self.files)
        return (
            f"Added {count} suppression{'' if count == 1 else 's'} "
            f"in {files} file{'' if files == 1 else 's'}."
        )


def suppressible(finding: Finding) -> bool:
    return finding.code not in UNSUPPRESSIBLE_CODES


def suppress_all(check: Callable[[], Report]) -> tuple[Added, Report]:
    """Silence every finding of `check()` (returned with what was added, for its errors).

    The roots go first: a directive on a root's line vouches for it, so the ADK-W005 calls that
    reach only that root disappear, and a comment added for them would be unused. The check is
    run again and the calls still reported get theirs."""
    added = Added()
    first = report = check()
    roots = [f for f in report.findings if suppressible(f) and f.code is not Code.W005]
    if roots:
        write(roots, added)
        report = check()
    failed = {(f.path, f.span, f.code) for f in added.unplaced}
    rest = [
        f for f in report.findings if suppressible(f) and (f.path, f.span, f.code) not in failed
    ]
    if rest:
        write(rest, added)
    if roots or rest or any(not suppressible(f) for f in first.findings):
        added.left = [f for f in check().findings if not suppressible(f)]
    return added, first


def write(findings: Sequence[Finding], added: Added) -> None:
    """Annotate each file that holds some of `findings`, in place."""
    by_path: dict[str, list[Finding]] = {}
    for finding in findings:
        by_path.setdefault(finding.path, []).append(finding)
    for path in sorted(by_path):
        file = Path(path)
        try:
            data = file.read_bytes()
        except OSError:
            added.unplaced.extend(by_path[path])
            continue
        new, count, unplaced = annotate(data, by_path[path])
        added.unplaced.extend(unplaced)
        if count:
            replace_whole(file, new)  # whole or not at all, even if the run is stopped
            added.suppressions += count
            added.files.add(path)


@dataclass
class _Source:
    bom: bytes
    encoding: str
    raw: list[bytes]  # the lines as bytes, line breaks included
    lines: list[str]  # the same lines decoded

    @classmethod
    def read(cls, data: bytes) -> _Source | None:
        bom = codecs.BOM_UTF8 if data.startswith(codecs.BOM_UTF8) else b""
        try:
            encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
            encoding = "utf-8" if encoding == "utf-8-sig" else encoding
            text = data[len(bom) :].decode(encoding)
        except (SyntaxError, LookupError, UnicodeDecodeError):
            return None
        raw = data[len(bom) :].splitlines(keepends=True)
        # Universal newlines, as Python reads a module: \r\n, \n and a lone \r end a line.
        lines = io.StringIO(text, newline="").readlines()
        if len(raw) != len(lines):  # an encoding whose bytes do not split as its text does
            return None
        return cls(bom, encoding, raw, lines)

    @property
    def text(self) -> str:
        return "".join(self.lines)

    def bytes_with(self, edited: dict[int, str]) -> bytes:
        """The file with the lines in `edited` (1-based) replaced; every other byte as it was."""
        raw = list(self.raw)
        for line, text in edited.items():
            raw[line - 1] = text.encode(self.encoding)
        return self.bom + b"".join(raw)


def annotate(data: bytes, findings: Sequence[Finding]) -> tuple[bytes, int, list[Finding]]:
    """(the new bytes, how many codes were added, the findings left without a directive)."""
    from replaylint.parse.parsing import ParseFailure, tree_of
    from replaylint.suppressions import directives as suppressions
    from replaylint.suppressions.headers import headers

    source = _Source.read(data)
    if source is None:
        return data, 0, list(findings)
    ends, comments = _scan(source.text)
    try:
        extents = suppressions.statement_extents(tree_of(data))
    except (ParseFailure, RecursionError):
        extents = []
    # A compound statement's header is one statement too: a finding on a line of it that
    # cannot end in a comment (a backslash continuation) takes one on another of its lines.
    extents += [(header.first, header.last) for header in headers(source.text)]
    plan: dict[int, list[Code]] = {}
    for finding in sorted(findings, key=Finding.sort_key):
        line = _place(finding.span, ends, extents)
        if line is not None and finding.code not in plan.setdefault(line, []):
            plan[line].append(finding.code)
    # Read the result back as the linter will: keep only the codes that silence a finding.
    edited, _ = _edit(source, plan, comments)
    new = source.bytes_with(edited)
    try:
        directives = suppressions.parse(new, tree_of(new))
    except (ParseFailure, RecursionError):
        return data, 0, list(findings)
    used: set[tuple[int, Code]] = set()
    unplaced = []
    for finding in findings:
        directive = suppressions.covering(directives, finding.code, finding.span)
        if directive is None:
            unplaced.append(finding)
        else:
            used.add((directive.line, finding.code))
    kept = {line: [c for c in codes if (line, c) in used] for line, codes in plan.items()}
    edited, count = _edit(source, kept, comments)
    return source.bytes_with(edited), count, unplaced


def _scan(text: str) -> tuple[set[int], dict[int, tuple[int, str]]]:
    """(lines whose line break is code's, so a comment may end them: not inside a string, not
    after a backslash; the comment ending each line, with its column)."""
    ends: set[int] = set()
    comments: dict[int, tuple[int, str]] = {}
    depth = 0  # inside an f-string (3.12+ tokenizes its replacement fields)
    try:
        for token in tokenize.generate_tokens(io.StringIO(text, newline="").readline):
            if token.type in _STRING_STARTS:
                depth += 1
            elif token.type in _STRING_ENDS:
                depth -= 1
            elif depth:
                continue
            elif token.type in (tokenize.NEWLINE, tokenize.NL):
                ends.add(token.start[0])
            elif token.type == tokenize.COMMENT:
                comments[token.start[0]] = (token.start[1], token.string)
    except (tokenize.TokenError, SyntaxError):
        pass  # the tokens read so far still place what they cover
    return ends, comments


def _place(span: Span, ends: set[int], extents: list[tuple[int, int]]) -> int | None:
    """The line for the directive: the finding's own line, else (a multi-line statement) the
    first of its lines that can end in a comment, else another line of the finding's span."""
    if span.line in ends:
        return span.line
    for first, last in extents:
        if first <= span.line <= last:
            for line in range(first, last + 1):
                if line in ends:
                    return line
    for line in range(span.line + 1, span.end_line + 1):
        if line in ends:
            return line
    return None


def _edit(
    source: _Source, plan: dict[int, list[Code]], comments: dict[int, tuple[int, str]]
) -> tuple[dict[int, str], int]:
    edited: dict[int, str] = {}
    count = 0
    for line, codes in plan.items():
        if not codes:
            continue
        text, added = with_codes(source.lines[line - 1], comments.get(line), codes)
        if added:
            edited[line] = text
            count += added
    return edited, count


def with_codes(
    line: str, comment: tuple[int, str] | None, codes: Sequence[Code]
) -> tuple[str, int]:
    """`line` with `codes` silenced: merged into its directive, or a new one at its end.
    Returns the line and how many codes it did not name before."""
    body = line.rstrip("\r\n")
    ending = line[len(body) :]
    if comment is not None:
        column, text = comment
        merged = _merged(text, codes)
        if merged is not None:
            new, added = merged
            return body[:column] + new + body[column + len(text) :] + ending, added
    listed = ", ".join(code.value for code in codes)
    return f"{body.rstrip()}  # replaylint: ignore[{listed}] -- {REASON}{ending}", len(codes)


def _merged(comment: str, codes: Sequence[Code]) -> tuple[str, int] | None:
    """The comment with `codes` added to the directive it holds (None when it holds none)."""
    from replaylint.suppressions.directives import _DIRECTIVE, NOQA, NOQA_CODE, OUR_PREFIX

    for match in _DIRECTIVE.finditer(comment):
        if match.group("kind").lower() != "ignore":
            continue  # a file-wide list stays as it is; ours is appended after it
        named = match.group("codes")
        new = _missing(codes, (named or "").split(","))
        if not new:
            return comment, 0
        listed = ", ".join(code.value for code in new)
        if named is None or not named.strip():  # `ignore` alone, or `ignore[]`
            at, end = match.end("kind"), match.end()
            updated = f"{comment[:at]}[{listed}]{comment[end:]}"
            end = at + len(listed) + 2
        else:
            at = match.start("codes") + len(named.rstrip())
            updated = f"{comment[:at]}, {listed}{comment[at:]}"
            end = match.end() + len(listed) + 2
        if not re.match(r"\s*--", updated[end:]):  # a directive without a reason gets one
            updated = f"{updated[:end]} -- {REASON}{updated[end:]}"
        return updated, len(new)
    for match in NOQA.finditer(comment):
        items = re.findall(NOQA_CODE, match.group("codes"))
        if not any(item.upper().startswith(OUR_PREFIX) for item in items):
            continue  # another tool's noqa
        new = _missing(codes, items)
        if not new:
            return comment, 0
        at = match.end("codes")
        return f"{comment[:at]}, {', '.join(c.value for c in new)}{comment[at:]}", len(new)
    return None


def _missing(codes: Sequence[Code], named: Sequence[str]) -> list[Code]:
    present = {parse_code(item) for item in named if item.strip()}
    return [code for code in codes if code not in present]
