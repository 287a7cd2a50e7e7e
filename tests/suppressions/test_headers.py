"""A directive on any line of a compound statement's header, split or not, covers the findings
on the header's lines; on a def's or class's header (decorators included) it covers the body
too; on another statement's header it does not reach into the body."""

from __future__ import annotations

from pathlib import Path

import pytest

from replaylint import guard
from replaylint.suppressions.headers import headers

HEAD = "import random\nimport time\n__adk_workflow__ = True\n"
IGNORE = "# replaylint: ignore[ADK-W002, ADK-W003] -- test"
CLOCK = "# replaylint: ignore[ADK-W003] -- test"


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def _left(tmp_path: Path, body: str) -> list[tuple[int, str]]:
    (tmp_path / "wf.py").write_text(HEAD + body)
    return [(f.line - 3, f.code.value) for f in guard(".").findings]  # lines of `body`


def test_a_directive_on_the_colon_line_covers_the_split_header(tmp_path: Path) -> None:
    body = f"if (\n    random.random() > 0.5\n    and time.time() > 0\n):  {IGNORE}\n    x = time.time()\n"
    assert _left(tmp_path, body) == [(5, "ADK-W003")]  # the body is not the header's


def test_a_directive_on_the_first_line_covers_the_split_header(tmp_path: Path) -> None:
    body = f"while (  {CLOCK}\n    time.time() < 5\n):\n    break\n"
    assert _left(tmp_path, body) == []


def test_a_def_header_directive_on_its_last_line_covers_the_body(tmp_path: Path) -> None:
    body = (
        f"@staticmethod\ndef f(\n    a=time.time(),\n):  {IGNORE}\n    return random.random()\n"
        "\n\ndef g():\n    return time.time()\n"
    )
    assert _left(tmp_path, body) == [(9, "ADK-W003")]


def test_a_directive_on_a_decorator_covers_the_whole_definition(tmp_path: Path) -> None:
    body = f"@staticmethod(\n    time.time()\n)  {IGNORE}\ndef f():\n    return random.random()\n"
    assert _left(tmp_path, body) == []


def test_a_noqa_keeps_to_the_header() -> None:
    text = "def f(\n    a=1,\n):  # noqa: ADK-W003\n    return 2\n"
    assert headers(text)[0][:2] == (1, 3)


def test_headers_are_found_for_every_compound_form() -> None:
    text = (
        "@d\n@e(\n 1)\nasync def f(a=lambda: 1):\n"
        "    async with x(\n        1) as y: pass\n"
        "    match (\n  v):\n"
        "        case [1, 2] if z:\n            pass\n"
        "    try: pass\n    except (\n  E): pass\n"
        "match = {'a': 1}\n"
    )
    assert [h[:2] for h in headers(text)] == [(1, 4), (5, 6), (7, 8), (9, 9), (11, 11), (12, 13)]
