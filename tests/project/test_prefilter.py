"""The byte prefilter: a framework import written in any layout CPython runs makes the file a
candidate (a miss here is a workflow module silently never checked)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from replaylint.api import guard
from replaylint.api.needles import needles_for
from replaylint.index.scanning import CANDIDATE, NOT_CANDIDATE, decide
from replaylint.project.config import Config
from replaylint.project.prefilter import is_candidate

BODY = [
    "import time",
    "",
    "",
    "@workflow.defn",
    "class Greeting:",
    "    @workflow.run",
    "    async def run(self) -> float:",
    "        return time.time()",
    "",
]
LAYOUTS = {
    "lone_cr.py": (
        ['"""Saved with classic Mac line endings."""', "from temporalio import workflow"],
        "\r",
    ),
    "crlf.py": (["from temporalio import workflow"], "\r\n"),
    "semicolon.py": (["import os; from temporalio import workflow"], "\n"),
    "comma.py": (["import os, temporalio.workflow", "workflow = temporalio.workflow"], "\n"),
    "comma_alias.py": (["import os as o, temporalio.workflow as workflow"], "\n"),
    "after_colon.py": (["try: from temporalio import workflow", "except ImportError: raise"], "\n"),
    "byte_order_mark.py": (["\ufefffrom temporalio import workflow"], "\n"),
    "form_feed.py": (["\ffrom temporalio import workflow"], "\n"),
    "continued.py": (["from \\", "    temporalio import workflow"], "\n"),
}


def _module(head: list[str], newline: str) -> bytes:
    return newline.join(head + BODY).encode()


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_a_framework_import_in_any_layout_makes_a_candidate(name: str) -> None:
    markers, frameworks = needles_for(Config())
    assert is_candidate(_module(*LAYOUTS[name]), markers, frameworks)


@pytest.mark.parametrize(
    "source",
    [
        b'"""Run it with temporalio: see @workflow.defn."""\nX = 1\n',  # named, not imported
        b"import temporalio_helpers\n\n@workflow.defn\nclass W: ...\n",  # another package
        b"import os, sys\n# import temporalio\n\n@workflow.defn\nclass W: ...\n",
    ],
)
def test_a_name_that_is_not_an_import_of_the_framework_is_not(
    source: bytes, tmp_path: Path
) -> None:
    (tmp_path / "m.py").write_bytes(source)
    assert decide(str(tmp_path / "m.py"), needles_for(Config())).verdict == NOT_CANDIDATE


def test_an_entry_on_a_name_imported_from_elsewhere_is_read(tmp_path: Path) -> None:
    # The module that makes `workflow` may re-export the framework's: the engine reads it.
    (tmp_path / "m.py").write_bytes(
        b"from helpers import workflow\n\n@workflow.defn\nclass W: ...\n"
    )
    assert decide(str(tmp_path / "m.py"), needles_for(Config())).verdict == CANDIDATE


def test_an_alias_on_the_import_line_keeps_a_file_whose_entry_no_needle_spells() -> None:
    # `@wd` spells no entry; an alias on the framework import's line lets the file through,
    # even when the `as` belongs to the next statement (the engine decides what it is).
    source = (
        b"from temporalio import workflow; import numpy as np\nimport time\n"
        b"wd = workflow.defn\n\n@wd\nclass W:\n    @workflow.run\n"
        b"    async def run(self) -> None:\n        time.time()\n"
    )
    markers, frameworks = needles_for(Config())
    assert is_candidate(source, markers, frameworks)


def test_each_layout_is_checked_end_to_end(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    for name, (head, newline) in LAYOUTS.items():
        (tmp_path / name).write_bytes(_module(head, newline))
    previous = Path.cwd()
    os.chdir(tmp_path)
    try:
        report = guard(".", config=Config())
    finally:
        os.chdir(previous)
    found = sorted((Path(f.path).name, f.line, f.code.value, f.call) for f in report.findings)
    lines = {name: len(head) + len(BODY) - 1 for name, (head, _) in LAYOUTS.items()}
    assert found == sorted((name, lines[name], "ADK-W003", "time.time") for name in LAYOUTS)


TEMPORAL_RUN = "class Greeting:\n    @workflow.run\n    async def run(self) -> float:\n        return time.time()\n"
DBOS_RUN = "def wf() -> float:\n    return time.time()\n"
RESTATE_RUN = "\n@svc.handler()\nasync def h(ctx) -> float:\n    return time.time()\n"
# Entries spelled in layouts CPython runs: (the module, the line of its time.time()).
SPELLINGS = {
    "temporal_space.py": (
        "from temporalio import workflow\nimport time\n@  workflow.defn\n" + TEMPORAL_RUN,
        7,
    ),
    "temporal_dot_space.py": (
        "from temporalio import workflow\nimport time\n@workflow . defn\n" + TEMPORAL_RUN,
        7,
    ),
    "temporal_bracketed.py": (
        "from temporalio import workflow\nimport time\n@(\n    workflow.defn\n)\n" + TEMPORAL_RUN,
        9,
    ),
    "temporal_continued.py": (
        "from temporalio import workflow\nimport time\n@workflow.\\\ndefn\n" + TEMPORAL_RUN,
        8,
    ),
    "dbos_space.py": ("from dbos import DBOS\nimport time\n@ DBOS.workflow()\n" + DBOS_RUN, 5),
    "dbos_bracketed.py": ("from dbos import DBOS\nimport time\n@(DBOS.workflow())\n" + DBOS_RUN, 5),
    "dbos_continued.py": (
        "from dbos import DBOS\nimport time\n@DBOS.\\\nworkflow()\n" + DBOS_RUN,
        6,
    ),
    "restate_continued.py": (
        'import restate\nimport time\nsvc = restate.Service \\\n("s")\n' + RESTATE_RUN,
        8,
    ),
    "restate_aliased.py": (
        'import restate\nimport time\nS = restate.Service\nsvc = S("s")\n' + RESTATE_RUN,
        8,
    ),
}


@pytest.mark.parametrize("name", sorted(SPELLINGS))
def test_an_entry_spelled_in_any_layout_is_checked(tmp_path: Path, name: str) -> None:
    (tmp_path / ".git").mkdir()
    source, line = SPELLINGS[name]
    (tmp_path / name).write_text(source)
    report = guard(str(tmp_path), config=Config())
    found = [(Path(f.path).name, f.line, f.code.value) for f in report.findings]
    assert found == [(name, line, "ADK-W003")]
