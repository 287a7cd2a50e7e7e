"""Which Python a module is checked as: `target-version`, else `requires-python`, else the
interpreter's; syntax newer than the interpreter is read by LibCST, syntax the target lacks is
ADK-E001 naming the version."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from replaylint import guard
from replaylint.project.python_version import lower_bound, parse_setting

PEP701 = 'import time\n\n__adk_workflow__ = True\n\n\ndef run(x):\n    label = f"{x or "n/a"}"\n    return label, time.time()\n'
EXCEPT_STAR = (
    "import time\n\n__adk_workflow__ = True\n\n\ndef run():\n    try:\n        pass\n"
    "    except* ValueError:\n        pass\n    return time.time()\n"
)
MATCH = "import time\n\n__adk_workflow__ = True\n\n\ndef run(x):\n    match x:\n        case 1:\n            return time.time()\n"


def _project(tmp_path: Path, pyproject: str, source: str) -> list[tuple[str, int, str, str]]:
    (tmp_path / ".git").mkdir()
    (tmp_path / "pyproject.toml").write_text(pyproject)
    (tmp_path / "wf.py").write_text(source)
    report = guard(str(tmp_path / "wf.py"), dependents=False)
    return [(Path(f.path).name, f.line, f.code.value, f.call) for f in report.findings]


@pytest.mark.parametrize(
    ("text", "bound"),
    [
        (">=3.10", (3, 10)),
        ("==3.12.*", (3, 12)),
        ("~=3.11", (3, 11)),
        (">=3.9,<4", (3, 9)),
        ("^3.11", (3, 11)),
        ("<4", None),
        ("", None),
    ],
)
def test_requires_python_gives_its_lower_bound(text: str, bound: tuple[int, int] | None) -> None:
    assert lower_bound(text) == bound


def test_a_target_version_setting_reads_as_ruff_spells_it() -> None:
    assert parse_setting("py312") == (3, 12)
    assert parse_setting("3.12") is None


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="the interpreter reads 3.12 syntax itself")
def test_a_312_project_is_checked_from_311_as_from_312(tmp_path: Path) -> None:
    found = _project(tmp_path, '[project]\nrequires-python = ">=3.12"\n', PEP701)
    assert found == [("wf.py", 8, "ADK-W003", "time.time")]


def test_syntax_the_target_lacks_is_e001_naming_the_version(tmp_path: Path) -> None:
    settings = (
        '[project]\nrequires-python = ">=3.12"\n[tool.replaylint]\ntarget-version = "py310"\n'
    )
    [(name, line, code, call)] = _project(tmp_path, settings, EXCEPT_STAR)
    assert (name, line, code) == ("wf.py", 9, "ADK-E001")
    assert call.endswith(": not Python 3.10 syntax")
    assert "Exception groups" in call


def test_the_target_version_setting_wins_over_requires_python(tmp_path: Path) -> None:
    settings = '[project]\nrequires-python = ">=3.9"\n[tool.replaylint]\ntarget-version = "py310"\n'
    assert _project(tmp_path, settings, MATCH) == [("wf.py", 9, "ADK-W003", "time.time")]


def test_requires_python_alone_decides_too(tmp_path: Path) -> None:
    [(_, line, code, call)] = _project(tmp_path, '[project]\nrequires-python = ">=3.9"\n', MATCH)
    assert (line, code) == (7, "ADK-E001")
    assert call.endswith(": not Python 3.9 syntax")


def test_a_plain_syntax_error_names_no_version(tmp_path: Path) -> None:
    broken = "__adk_workflow__ = True\n\ndef run(:\n    pass\n"
    [(_, line, code, call)] = _project(tmp_path, '[project]\nrequires-python = ">=3.12"\n', broken)
    assert (line, code) == (3, "ADK-E001")
    assert "Python 3" not in call
