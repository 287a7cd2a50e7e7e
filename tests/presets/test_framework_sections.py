"""The README's section of each framework record: its example runs, raises exactly the findings
its comments name (`# ADK-W003: ...`), and they carry that framework's remedies."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest

from replaylint.api import guard
from replaylint.presets.records import Preset, presets

ROOT = Path(__file__).resolve().parents[2]
_MARK = re.compile(r"#\s*(ADK-[A-Z]\d{3})\b")


def _section(title: str) -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index(f"\n### {title}\n")
    rest = text[start + len(title) + 6 :]
    end = re.search(r"^##", rest, re.MULTILINE)
    return rest[: end.start()] if end else rest


def _example(title: str) -> str:
    section = _section(title)
    found = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert found is not None, f"### {title} has no python example"
    return found.group(1)


@pytest.mark.parametrize("preset", list(presets().values()), ids=lambda p: p.name)
def test_the_framework_section_example_raises_what_it_says(preset: Preset) -> None:
    source = _example(preset.title)
    wanted = sorted(
        (number, code)
        for number, line in enumerate(source.splitlines(), start=1)
        for code in _MARK.findall(line)
    )
    assert wanted, f"### {preset.title}: the example marks no finding"
    with tempfile.TemporaryDirectory(prefix="replaylint-readme-") as tmp:
        path = Path(tmp) / "example.py"
        path.write_text(source, encoding="utf-8")
        report = guard([str(path)], dependents=False)
    got = sorted((f.line, f.code.value) for f in report.findings)
    assert got == wanted, source
    for finding in report.findings:
        assert finding.remedy in preset.remedies.values(), finding  # its code's, or a case's
