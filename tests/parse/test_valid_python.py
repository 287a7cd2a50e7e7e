"""Valid Python is checked: what CPython compiles but LibCST's parser refuses (thousands of
implicitly concatenated strings, tab-then-spaces indentation) is rewritten for LibCST with
every position kept; what cannot be rewritten is ADK-E001 saying "parser limit" and naming
it, never "syntax error"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from replaylint import guard
from replaylint.parse import normalise

HEAD = "import time\n__adk_workflow__ = True\n"
PIECES = 4000  # LibCST's parser stops at about 3,000


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def _located(report) -> list[tuple[str, int, int, int, str]]:
    """(path, line, column, end column, code) as the JSON report gives them (1-based)."""
    return [
        (f["path"], f["line"], f["column"], f["end_column"], f["code"])
        for f in json.loads(report.render("json"))["findings"]
    ]


def _where(path: Path, call: str, line: int) -> tuple[int, int]:
    column = path.read_text().splitlines()[line - 1].index(call) + 1
    return column, column + len(call)


def test_thousands_of_concatenated_strings_in_brackets(tmp_path: Path) -> None:
    pieces = "".join(f'    "part {i} "  # piece {i}\n' for i in range(PIECES))
    module = tmp_path / "long.py"
    module.write_text(HEAD + f"TEXT = (\n{pieces})\nSTARTED = time.time()\n")
    line = PIECES + 5
    assert _located(guard(".")) == [
        ("long.py", line, *_where(module, "time.time()", line), "ADK-W003")
    ]


def test_thousands_of_concatenated_strings_on_one_line(tmp_path: Path) -> None:
    pieces = " ".join(f"'p{i}'" for i in range(PIECES))
    module = tmp_path / "one_line.py"
    module.write_text(HEAD + f"TEXT = {pieces}; STARTED = time.time()\n")
    assert _located(guard(".")) == [
        ("one_line.py", 3, *_where(module, "time.time()", 3), "ADK-W003")
    ]


def test_thousands_of_concatenated_strings_over_continuation_lines(tmp_path: Path) -> None:
    pieces = "".join(f'    b"part {i} " \\\n' for i in range(PIECES))
    (tmp_path / "continued.py").write_text(
        HEAD + f'DATA = \\\n{pieces}    b"end"\nT = time.time()\n'
    )
    assert [(f.line, f.code.value) for f in guard(".").findings] == [(PIECES + 5, "ADK-W003")]


def test_tab_then_spaces_indentation(tmp_path: Path) -> None:
    module = tmp_path / "tabs.py"
    module.write_text(
        HEAD + "\n\nclass Flow:\n    def run(self):\n\t    return time.time()\n"
        "    def later(self):\n\t    if True:\n\t\t    return time.time()\n"
    )
    assert _located(guard(".")) == [
        ("tabs.py", 7, *_where(module, "time.time()", 7), "ADK-W003"),
        ("tabs.py", 10, *_where(module, "time.time()", 10), "ADK-W003"),
    ]


def test_tabs_inside_a_string_are_left_as_they_are() -> None:
    text = 'if True:\n\tx = """\n\tkept\n"""\n\tif x:\n\t    y = 1\n'
    rewritten = normalise.normalised(text)
    assert rewritten is not None
    assert rewritten.splitlines() == [
        " if True:"[1:],
        ' x = """',
        "\tkept",
        '"""',
        " if x:",
        "     y = 1",
    ]


def test_joined_literal_has_the_value_of_the_pieces() -> None:
    normalise_text = "X = (\n" + "".join(f"    'a{i}'  r'\\d'\n" for i in range(300)) + ")\n"
    rewritten = normalise.normalised(normalise_text)
    assert rewritten is not None
    namespace: dict[str, str] = {}
    exec(compile(rewritten, "rewritten", "exec"), namespace)
    assert namespace["X"] == "".join(f"a{i}\\d" for i in range(300))
    assert rewritten.count("\n") == normalise_text.count("\n")


def test_concatenated_f_strings_are_a_parser_limit_named_as_such(tmp_path: Path) -> None:
    pieces = '    f"part {time.time()}"\n' * PIECES
    (tmp_path / "formatted.py").write_text(HEAD + f"TEXT = (\n{pieces})\n")
    [finding] = guard(".").findings
    assert finding.code.value == "ADK-E001"
    assert finding.call.startswith(
        "parser limit: LibCST cannot parse 4,000 implicitly concatenated"
    )
    assert "syntax error" not in finding.call.lower()


def test_what_cannot_be_rewritten_is_a_parser_limit_not_a_syntax_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(normalise, "LONG_RUN", 10**9)  # as if joining were impossible
    pieces = "".join(f'    "part {i}"\n' for i in range(PIECES))
    (tmp_path / "long.py").write_text(HEAD + f"TEXT = (\n{pieces})\n")
    [finding] = guard(".").findings
    assert finding.code.value == "ADK-E001"
    assert finding.call.startswith("parser limit: LibCST cannot parse line ")
    assert "which Python accepts" in finding.call
    assert "syntax error" not in finding.call.lower()
