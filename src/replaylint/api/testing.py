"""Shared test helpers: `# expect:` markers, rule-page examples, and comparing findings."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from replaylint.api import ReplayReport, guard
from replaylint.core.findings import Finding

# `# expect: ADK-W003`, `# expect: ADK-W003:8` (pinned 0-based column), several codes allowed.
# Inside a suppression comment the marker follows its `--`: `# replaylint: ignore -- expect: ADK-S002`.
_MARKER = re.compile(r"(?:#|--)\s*expect:\s*(?P<codes>(?:ADK-[A-Z]\d{3}(?::\d+)?[\s,]*)+)")
_CODE = re.compile(r"(ADK-[A-Z]\d{3})(?::(\d+))?")


@dataclass(frozen=True, order=True)
class Expected:
    path: str
    line: int
    code: str
    column: int | None = None


def expectations(text: str, path: str) -> set[Expected]:
    found = set()
    for number, line in enumerate(text.splitlines(), start=1):
        match = _MARKER.search(line)
        if match:
            for code, column in _CODE.findall(match.group("codes")):
                found.add(Expected(path, number, code, int(column) if column else None))
    return found


def compare(report: ReplayReport, expected: Iterable[Expected]) -> tuple[list[Expected], list[str]]:
    """(markers no finding matched, findings no marker asked for), both empty when they agree."""
    return compare_findings(report.findings, expected)


def compare_findings(
    findings: Iterable[Finding], expected: Iterable[Expected]
) -> tuple[list[Expected], list[str]]:
    """`compare` of any findings (a report's, or check --base's)."""
    remaining = list(findings)
    missing = []
    for want in sorted(expected):
        match = next(
            (
                f
                for f in remaining
                if f.path == want.path
                and f.line == want.line
                and f.code.value == want.code
                and (want.column is None or f.span.column == want.column)
            ),
            None,
        )
        if match is None:
            missing.append(want)
        else:
            remaining.remove(match)
    unexpected = [f"{f.path}:{f.line}: {f.code.value} {f.message}" for f in remaining]
    return missing, unexpected


def check_tree(root: Path) -> tuple[list[Expected], list[str]]:
    """Guard a fixture file or directory (paths reported relative to it) against its markers."""
    import os

    root = root.resolve()
    base = root if root.is_dir() else root.parent
    files = sorted(root.rglob("*.py")) if root.is_dir() else [root]
    expected: set[Expected] = set()
    for file in files:
        rel = file.relative_to(base).as_posix()
        expected |= expectations(file.read_text(encoding="utf-8"), rel)
    cwd = os.getcwd()
    os.chdir(base)
    try:
        # A fixture is judged on its own files, not on what else in the repository reaches them.
        report = guard([f.relative_to(base).as_posix() for f in files], dependents=False)
    finally:
        os.chdir(cwd)
    return compare(report, expected)


# ---------------------------------------------------------------- rule pages

_HEADING = re.compile(r"^##\s+(?P<title>.+?)\s*$")
_FENCE = re.compile(r"^```(?P<lang>\w*)\s*$")
_FILE_LABEL = re.compile(r"^`(?P<name>[\w./-]+\.py)`:\s*$")


@dataclass
class Example:
    section: str  # "Example" or "Use instead"
    files: dict[str, str]  # file name -> source; one entry unless the page labels files


def page_examples(markdown: str) -> list[Example]:
    """The python blocks of a rule page, grouped per section; labelled blocks form one project."""
    examples: list[Example] = []
    section = ""
    label: str | None = None
    block: list[str] | None = None
    current: Example | None = None
    for line in markdown.splitlines():
        if block is not None:
            if line.strip() == "```":
                text = "\n".join(block) + "\n"
                if label is None or current is None or current.section != section:
                    current = Example(section, {})
                    examples.append(current)
                current.files[label or "example.py"] = text
                if label is None:
                    current = None
                block, label = None, None
            else:
                block.append(line)
            continue
        heading = _HEADING.match(line)
        if heading:
            section, current = heading.group("title"), None
            continue
        named = _FILE_LABEL.match(line.strip())
        if named:
            label = named.group("name")
            continue
        fence = _FENCE.match(line)
        if fence and fence.group("lang") in ("python", "py"):
            block = []
    return examples


def run_example(example: Example) -> tuple[list[Expected], list[str]]:
    with tempfile.TemporaryDirectory(prefix="replaylint-doc-") as tmp:
        root = Path(tmp)
        for name, text in example.files.items():
            target = root / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        return check_tree(root)
