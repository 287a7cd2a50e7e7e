"""The ignore code actions' text: placed where the suppression grammar honours it (the line
form as `check --add-ignore` writes it), merged into directives already there, and checked
again to silence exactly its finding."""

from __future__ import annotations

from pathlib import Path

import pytest

from replaylint import guard_source
from replaylint.core.codes import Code
from replaylint.core.findings import Finding
from replaylint.server.directives import Edit, file_ignore, line_ignored
from replaylint.server.ranges import source_lines

HEAD = "import time\nimport uuid\n\n__adk_workflow__ = True\n\n\ndef run(log):\n"
WHY = "-- <reason: why this is replay safe>"


@pytest.fixture
def module(tmp_path: Path) -> str:
    (tmp_path / ".git").mkdir()
    return str(tmp_path / "flow.py")


def findings(text: str, module: str) -> list[Finding]:
    return list(guard_source(text, source=module).findings)


def applied(text: str, edit: Edit) -> str:
    lines = text.splitlines(keepends=True)
    start = sum(len(line) for line in lines[: edit.line])
    return text[: start + edit.start] + edit.text + text[start + edit.end :]


def only(text: str, module: str, code: Code) -> Finding:
    [finding] = [f for f in findings(text, module) if f.code is code]
    return finding


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (  # a plain line: the directive goes after the code
            "    return time.time()\n",
            f"    return time.time()  # replaylint: ignore[ADK-W003] {WHY}\n",
        ),
        (  # trailing blanks go, a comment already there is kept before it
            "    return time.time()  # seconds   \n",
            f"    return time.time()  # seconds  # replaylint: ignore[ADK-W003] {WHY}\n",
        ),
        (  # merged into the directive on the line, its reason kept
            "    return uuid.uuid4(), time.time()  # replaylint: ignore[ADK-W002] -- logged\n",
            "    return uuid.uuid4(), time.time()"
            "  # replaylint: ignore[ADK-W002, ADK-W003] -- logged\n",
        ),
        (  # a directive naming no code yet gets one
            "    return time.time()  # replaylint: ignore -- logged\n",
            "    return time.time()  # replaylint: ignore[ADK-W003] -- logged\n",
        ),
        (  # the line ends inside a string: the statement's line that can end in a comment
            '    log(time.time(), """\n    text\n    """)\n',
            f'    log(time.time(), """\n    text\n    """)  # replaylint: ignore[ADK-W003] {WHY}\n',
        ),
        (  # a backslash continuation: the statement's line after it
            "    started = time.time() + \\\n        1\n    return started\n",
            f"    started = time.time() + \\\n        1  # replaylint: ignore[ADK-W003] {WHY}\n"
            "    return started\n",
        ),
        (  # a split call: the call's own first line
            "    time.sleep(\n        1\n    )\n",
            f"    time.sleep(  # replaylint: ignore[ADK-W003] {WHY}\n        1\n    )\n",
        ),
    ],
)
def test_line_ignore_is_placed_where_it_silences_the_finding(module: str, body: str, expected: str):
    text = HEAD + body
    edited = line_ignored(text.encode(), "utf-8", only(text, module, Code.W003))
    assert edited == HEAD + expected
    assert findings(edited, module) == []


def test_a_line_ending_in_a_file_directive_takes_its_own_after_it(module: str):
    text = HEAD + "    return time.time()  # replaylint: file-ignore[ADK-W002]\n"
    edited = line_ignored(text.encode(), "utf-8", only(text, module, Code.W003))
    assert edited == HEAD + (
        "    return time.time()  # replaylint: file-ignore[ADK-W002]"
        f"  # replaylint: ignore[ADK-W003] {WHY}\n"
    )
    assert [(f.code, f.call) for f in findings(edited, module)] == [(Code.S001, "ADK-W002")]


@pytest.mark.parametrize(
    ("top", "expected"),
    [
        ("", f"# replaylint: file-ignore[ADK-W003] {WHY}\n"),
        (
            "#!/usr/bin/env python\n# -*- coding: utf-8 -*-\n",
            "#!/usr/bin/env python\n# -*- coding: utf-8 -*-\n"
            f"# replaylint: file-ignore[ADK-W003] {WHY}\n",
        ),
        (
            "#!/usr/bin/env python\n",
            f"#!/usr/bin/env python\n# replaylint: file-ignore[ADK-W003] {WHY}\n",
        ),
    ],
)
def test_file_ignore_goes_after_the_lines_that_must_stay_first(
    module: str, top: str, expected: str
):
    text = top + HEAD + "    return time.time()\n"
    edit = file_ignore(text, source_lines(text), Code.W003)
    assert edit is not None
    edited = applied(text, edit)
    assert edited == expected + HEAD + "    return time.time()\n"
    assert findings(edited, module) == []


def test_file_ignore_merges_into_the_modules_directive(module: str):
    text = HEAD + "    return uuid.uuid4(), time.time()\n# replaylint: file-ignore[ADK-W002]\n"
    edit = file_ignore(text, source_lines(text), Code.W003)
    assert edit is not None
    edited = applied(text, edit)
    assert edited == text.replace("[ADK-W002]", "[ADK-W002, ADK-W003]")
    assert findings(edited, module) == []
    assert file_ignore(edited, source_lines(edited), Code.W003) is None  # named already


def test_windows_line_breaks_are_kept(module: str):
    text = (HEAD + "    return time.time()\n").replace("\n", "\r\n")
    edit = file_ignore(text, source_lines(text), Code.W003)
    assert edit == Edit(0, 0, 0, f"# replaylint: file-ignore[ADK-W003] {WHY}\r\n")
    edited = line_ignored(text.encode(), "utf-8", only(text, module, Code.W003))
    assert edited == text.replace("time()\r\n", f"time()  # replaylint: ignore[ADK-W003] {WHY}\r\n")


def test_a_module_in_another_encoding_stays_in_it(module: str):
    text = "# -*- coding: latin-1 -*-\n" + HEAD + "    return 'caf\xe9', time.time()\n"
    data = text.encode("latin-1")
    edited = line_ignored(data, "latin-1", only(text, module, Code.W003))
    assert edited == text.replace("time()\n", f"time()  # replaylint: ignore[ADK-W003] {WHY}\n")
