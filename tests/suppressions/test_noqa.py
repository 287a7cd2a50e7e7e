"""`# noqa: ADK-W003` beside our own directive: ours only when it names one of our codes."""

from __future__ import annotations

from pathlib import Path

import pytest

from replaylint import guard, guard_source

HEAD = "import time, uuid\n\n__adk_workflow__ = True\n"


def found(body: str) -> list[tuple[int, str, str]]:
    report = guard_source(HEAD + body, source="wf.py")
    return [(f.line, f.code.value, f.call) for f in report.findings]


def test_a_noqa_naming_our_code_silences_it_on_its_line() -> None:
    assert found("A = time.time()  # noqa: ADK-W003\nB = time.time()\n") == [
        (5, "ADK-W003", "time.time"),
    ]


@pytest.mark.parametrize(
    "comment",
    [
        "# noqa: ADK-W003, ADK-W002",
        "# noqa:ADK-W002,ADK-W003",
        "# noqa: ADK-W002 ADK-W003",
        "# NOQA: adk-w003, adk-w002",
        "# noqa: E501, ADK-W002, ADK-W003",  # other tools' codes beside ours are theirs
        "# noqa: ADK-W003, ADK-W002 -- both ids are logged only",
    ],
)
def test_a_list_of_codes_silences_each(comment: str) -> None:
    assert found(f"A = (time.time(), uuid.uuid4())  {comment}\n") == []


@pytest.mark.parametrize("comment", ["# noqa", "# noqa: E501", "# noqa: E501, B008", "# NoQA"])
def test_a_noqa_of_other_tools_is_not_ours_and_not_an_invalid_suppression(comment: str) -> None:
    # A bare noqa written for flake8 or ruff would otherwise hide a replay bug without a word.
    assert found(f"A = time.time()  {comment}\n") == [(4, "ADK-W003", "time.time")]


def test_an_unused_noqa_code_is_s001_and_an_unknown_one_s002() -> None:
    assert found("A = 1  # noqa: ADK-W003\nB = 2  # noqa: E501, ADK-W999\n") == [
        (4, "ADK-S001", "ADK-W003"),
        (5, "ADK-S002", "ADK-W999"),
    ]


def test_only_the_unused_codes_of_a_noqa_are_reported() -> None:
    assert found("A = time.time()  # noqa: ADK-W003, ADK-W002\n") == [
        (4, "ADK-S001", "ADK-W002"),
    ]


def test_a_noqa_on_a_def_line_covers_that_line_not_the_body() -> None:
    body = "def run(at=time.time()):  # noqa: ADK-W003\n    return time.time()\n"
    assert found(body) == [(5, "ADK-W003", "time.time")]


def test_a_noqa_anywhere_in_a_multi_line_statement_covers_it() -> None:
    body = "A = max(\n    time.time(),\n    0,\n)  # noqa: ADK-W003\n"
    assert found(body) == []


def test_a_noqa_and_our_directive_in_one_comment_both_apply() -> None:
    body = "A = (time.time(), uuid.uuid4())  # noqa: ADK-W002  # replaylint: ignore[ADK-W003]\n"
    assert found(body) == []


def test_noqa_text_inside_a_string_is_no_directive() -> None:
    assert found('A = ("# noqa: ADK-W003", time.time())\n') == [(4, "ADK-W003", "time.time")]


def test_a_noqa_on_a_helper_root_vouches_for_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "helpers.py").write_text(
        "import uuid\n\n\ndef new_key():\n    return uuid.uuid4()  # noqa: ADK-W002\n"
    )
    (tmp_path / "wf.py").write_text(
        "from helpers import new_key\n\n__adk_workflow__ = True\n\n\ndef run():\n"
        "    return new_key()\n"
    )
    assert guard(".").findings == ()
