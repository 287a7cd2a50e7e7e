"""Which Python a module is checked as: `target-version`, else `requires-python`, else the
interpreter's; syntax newer than the interpreter is read by LibCST, syntax the target lacks is
ADK-E001 naming the version."""

from __future__ import annotations

import sys
from pathlib import Path

import libcst
import pytest

from replaylint import guard
from replaylint.parse import versions
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


def test_an_interpreter_that_reads_pep701_finds_it_for_an_older_target(monkeypatch) -> None:
    # Checked as a 3.12 interpreter would: it compiles the module, LibCST's tree shows the
    # f-string that a 3.11 target cannot read.
    monkeypatch.setattr(versions, "RUNNING", (3, 12))
    source = PEP701.encode()
    found = versions.newer_syntax(source, libcst.parse_module(source), (3, 11))
    assert found == ("f-string: a quote of the string's own kind inside it needs Python 3.12", 7)


def test_an_interpreter_older_than_312_does_not_look_for_pep701(monkeypatch) -> None:
    # Such an interpreter refused the f-string before LibCST read it: no walk for what
    # cannot be there (a module with an f-string and a dict on one line passes the byte test).
    monkeypatch.setattr(versions, "RUNNING", (3, 11))

    def walked(tree: object) -> int:
        raise AssertionError("walked for a PEP 701 f-string")

    monkeypatch.setattr(versions, "_pep701_fstring", walked)
    source = b'def run(x):\n    return f"{x}", {"a": 1}\n'
    assert versions.newer_syntax(source, libcst.parse_module(source), (3, 10)) is None


@pytest.mark.parametrize(
    ("line", "target", "words", "at"),
    [
        ("if (y := 1):\n    pass", (3, 7), "Assignment expressions", 2),
        ("def f(a, /):\n    pass", (3, 7), "Positional-only parameters", 2),
        ('s = f"{y=}"', (3, 7), "f-string: self documenting expressions", 2),
        ("with (open(a) as b, open(c) as d):\n    pass", (3, 8), "Parenthesized context", 2),
        ("match y:\n    case 1:\n        pass", (3, 9), "Pattern matching", 2),
        ("try:\n    pass\nexcept* ValueError:\n    pass", (3, 10), "Exception groups", 4),
        ("g = lambda a, /: a", (3, 7), "Positional-only parameters", 2),
        # CPython names the line its parameters end on
        ("def f(a, /  # the rest\n):\n    pass", (3, 7), "Positional-only parameters", 3),
        ('s = f"{y=!r}"', (3, 7), "f-string: self documenting expressions", 2),
        ('s = f"{y=:>10}"', (3, 7), "f-string: self documenting expressions", 2),
        ("with \\\n(open(a) as b, open(c) as d):\n    pass", (3, 8), "Parenthesized context", 2),
        ("try:\n    pass\nexcept\\\n* ValueError:\n    pass", (3, 10), "Exception groups", 4),
        # the refused `with`, not the one inside it whose parenthesis holds an expression
        ("with (a as b, c as d):\n    with (e) as f:\n        pass", (3, 8), "Parenthesized", 2),
        ("with (a as b, c as d):\n    pass\nwith (e) as f:\n    pass", (3, 8), "Parenthesized", 2),
        # an example in a docstring is not the construct; `async with (...)` is not refused
        (
            '"""Example:\n\nwith (open(a) as f, open(b) as g):\n    pass\n"""\n'
            "with (open(a) as b,\n      open(c) as d):\n    pass",
            (3, 8),
            "Parenthesized context",
            7,
        ),
        (
            "async def g():\n    async with (a as b, c as d):\n        pass\n"
            "with (a as b, c as d):\n    pass",
            (3, 8),
            "Parenthesized context",
            5,
        ),
    ],
)
def test_what_cpython_refuses_under_an_older_target_is_found_where_written(
    line: str, target: tuple[int, int], words: str, at: int
) -> None:
    for newline in ("\n", "\r"):  # a lone CR ends a line for CPython too
        source = f"a = b = c = d = e = f = 1\n{line}\n".replace("\n", newline).encode()
        found = versions.newer_syntax(source, libcst.parse_module(source), target)
        assert found is not None
        assert found[0].startswith(words)
        assert found[1] == at


@pytest.mark.parametrize(
    ("line", "target"),
    [
        ("@a[0].b\ndef f():\n    pass", (3, 8)),  # a decorator expression (3.9)
        ("x: tuple[int, *Ts] = a[*b]", (3, 10)),  # a star in a subscript (3.11)
        ("x = [*a, *b]", (3, 10)),
        ('"""Accepts both forms *except* for one shape."""', (3, 10)),
        ("with (open(a) as b, open(c) as d):\n    pass", (3, 9)),
        ("match = re.match(a, b)", (3, 9)),
    ],
)
def test_what_cpython_does_not_refuse_costs_no_second_parse(
    monkeypatch, line: str, target: tuple[int, int]
) -> None:
    parsed: list[tuple[int, int]] = []
    monkeypatch.setattr(versions.pyast, "parse_for", lambda source, version: parsed.append(version))
    source = f"{line}\n".encode()
    assert versions.newer_syntax(source, libcst.parse_module(source), target) is None
    assert parsed == ([target] if line.startswith("match =") else [])


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("type Alias = list[int]", True),
        ("type Pair[T] = tuple[T, T]", True),
        ("x = 1; type Alias = int", True),
        ("class Box[T]:\n    pass", True),
        ("async def first[T](items: list[T]) -> T:\n    return items[0]", True),
        ('"""Abstract superclass for [`Agent`], a subclass of [`Base`]."""', False),
        ('"""The converter has no\n    type to decode against."""', False),
        ("def pick(tool_def, defs):\n    return [d for d in defs if d is not tool_def]", False),
    ],
)
def test_312_syntax_is_sought_where_a_statement_starts(monkeypatch, text: str, asked: bool) -> None:
    # As an interpreter that reads 3.12 syntax would check a 3.11 project: prose in a docstring
    # costs no second parse.
    monkeypatch.setattr(versions, "RUNNING", (3, 12))
    parsed: list[tuple[int, int]] = []
    monkeypatch.setattr(versions.pyast, "parse_for", lambda source, version: parsed.append(version))
    assert versions.newer_syntax(f"{text}\n".encode(), libcst.parse_module(b""), (3, 11)) is None
    assert parsed == ([(3, 11)] if asked else [])
