"""Fixes you can trust: marked where they exist, their own unused imports removed (no other),
never keeping the hazard (enumerate over a set), never adding an error (sorted of objects
without an order), and unsafe in a helper that code outside the workflow also runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from replaylint.api import guard_source
from replaylint.cli.main import cli
from replaylint.fixes import fix_for, fix_source
from replaylint.project.config import Config

CLOCK = """\
import time

from temporalio import workflow


@workflow.defn
class Greeting:
    @workflow.run
    async def go(self) -> float:
        return time.time()
"""


@pytest.fixture()
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.chdir(tmp_path)
    for name in ("FORCE_COLOR", "NO_COLOR", "CI"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "wf.py").write_text(CLOCK)
    return CliRunner()


def fixed(text: str, *, unsafe: bool = True) -> str:
    report = guard_source(text, source="wf.py", config=Config())
    new, _ = fix_source(text, report.findings, unsafe=unsafe)
    compile(new, "wf.py", "exec", dont_inherit=True)
    return new


def test_a_fixable_finding_is_marked_in_every_text_format_and_counted(runner: CliRunner) -> None:
    message = "the wall clock is used on the workflow path (time.time)"
    fix_line = "[*] 1 fixable with the `--fix` option.\n"
    text = runner.invoke(cli, ["check", "wf.py"])
    assert text.stdout.splitlines()[0] == f"wf.py:10: ADK-W003 [*] {message}"
    assert text.stdout.endswith("1 finding in 1 workflow module (1 file checked).\n" + fix_line)
    concise = runner.invoke(cli, ["check", "--output-format", "concise", "wf.py"])
    assert concise.stdout.splitlines()[0] == f"wf.py:10:16: ADK-W003 [*] {message}"
    full = runner.invoke(cli, ["check", "--output-format", "full", "wf.py"])
    assert full.stdout.splitlines()[:3] == [f"ADK-W003 [*] {message}", " --> wf.py:10:16", "   |"]
    assert full.stdout.endswith(fix_line)
    quiet = runner.invoke(cli, ["check", "-q", "wf.py"])
    assert "fixable" not in quiet.stdout and "[*]" in quiet.stdout


def test_unsafe_fixes_are_counted_as_hidden(runner: CliRunner) -> None:
    text = CLOCK.replace("time.time()", "datetime.now()")
    Path("wf.py").write_text(text.replace("import time", "from datetime import datetime"))
    result = runner.invoke(cli, ["check", "wf.py"])
    assert "ADK-W003 [*]" not in result.stdout  # naive local time to aware UTC: unsafe
    assert result.stdout.endswith(
        "No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option).\n"
    )


def test_fix_removes_the_imports_its_edits_left_unused_and_no_other(runner: CliRunner) -> None:
    text = "import os\nimport sys\n" + CLOCK.replace(
        "return time.time()", "return time.time() + len(sys.argv[:0])"
    )
    text = text.replace("import os\n", "import os  # kept: unused before the fix\n")
    Path("wf.py").write_text(text)
    result = runner.invoke(cli, ["check", "--fix", "--select", "ADK-W003", "wf.py"])
    assert result.exit_code == 0, result.output
    after = Path("wf.py").read_text()
    assert after.startswith(
        "import os  # kept: unused before the fix\nimport sys\n\nfrom temporalio"
    )
    assert "import time" not in after
    assert "return workflow.time() + len(sys.argv[:0])" in after


def test_fix_keeps_an_import_other_code_still_reads() -> None:
    text = CLOCK.replace("return time.time()", "time.monotonic_ns\n        return time.time()")
    assert fixed(text, unsafe=False).startswith("import time\n")


def test_enumerate_over_a_set_sorts_the_set_not_the_pairs() -> None:
    text = (
        "__adk_workflow__ = True\n\n\n"
        "def run(ctx, order):\n"
        '    tags = {"b", "a"}\n'
        "    for index, tag in enumerate(tags):\n"
        "        order[tag] = index\n"
    )
    assert "for index, tag in enumerate(sorted(tags)):" in fixed(text)


OBJECTS = """\
__adk_workflow__ = True


class Rule:
    name = "r"


def run(ctx, order):
    rules = {Rule(), Rule()}
    for rule in rules:
        order[rule.name] = 1
"""


def test_objects_without_an_order_get_stable_where_the_runtime_is_importable() -> None:
    new = fixed(OBJECTS)
    assert "for rule in stable(rules):" in new
    assert "from replaylint.workflows import stable\n" in new
    assert "sorted(" not in new


def test_objects_without_an_order_get_no_fix_where_the_runtime_is_not_imported() -> None:
    text = (
        "from temporalio import workflow\n\n\n"
        "class Rule:\n    pass\n\n\n"
        "@workflow.defn\nclass Flow:\n    @workflow.run\n    async def run(self) -> int:\n"
        "        rules = {Rule()}\n        count = 0\n"
        "        for rule in rules:\n            count += 1\n        return count\n"
    )
    report = guard_source(text, source="wf.py", config=Config())
    assert [f.code.value for f in report.findings] == ["ADK-W010"]
    assert fix_source(text, report.findings, unsafe=True) == (text, ())


HELPER = """\
import time

from temporalio import activity, workflow


def stamp() -> float:
    return time.time()


@activity.defn
async def record() -> float:
    return stamp()


@workflow.defn
class Greeting:
    @workflow.run
    async def go(self) -> float:
        return stamp() + time.time()
"""


def test_a_fix_in_a_helper_an_activity_also_calls_is_unsafe() -> None:
    report = guard_source(HELPER, source="wf.py", config=Config())
    in_helper = next(f for f in report.findings if f.line == 7)
    info = fix_for(in_helper, HELPER)
    assert info is not None and info.safe is False
    assert info.reason.startswith("unsafe here: code outside the workflow calls this helper too")
    safe = fixed(HELPER, unsafe=False)
    assert "    return time.time()\n" in safe  # the helper is left alone by --fix
    assert "return stamp() + workflow.time()" in safe  # the workflow's own call is fixed
    assert "    return workflow.time()\n" in fixed(HELPER, unsafe=True)


def test_a_helper_only_the_workflow_calls_keeps_its_safe_fix() -> None:
    text = HELPER.replace("    return stamp()\n", "    return 0.0\n")
    assert "    return workflow.time()\n" in fixed(text, unsafe=False)


WRAPPER = """\
import functools
import time

from temporalio import workflow


def timed(func):
    @functools.wraps(func)
    async def wrapper(*args, **kwargs):
        started = time.time()
        try:
            return await func(*args, **kwargs)
        finally:
            print("took", time.time() - started)

    return wrapper


@workflow.defn
class Report:
    @workflow.run
    @timed
    async def run(self) -> str:
        return "done"
"""


def test_a_fix_in_a_decorators_wrapper_is_unsafe() -> None:
    """The wrapper runs wherever the decorator is applied (a command line, an activity), where
    `workflow.time()` raises: its clock reads are reported, and fixed only when asked."""
    report = guard_source(WRAPPER, source="wf.py", config=Config())
    assert [(f.code.value, f.line) for f in report.findings] == [
        ("ADK-W003", 10),
        ("ADK-W003", 14),
    ]
    info = fix_for(report.findings[0], WRAPPER)
    assert info is not None and info.safe is False
    assert "started = time.time()" in fixed(WRAPPER, unsafe=False)
    assert "started = workflow.time()" in fixed(WRAPPER, unsafe=True)
    wrapped = WRAPPER.replace("    @functools.wraps(func)\n", "").replace(
        "    return wrapper\n", "    return functools.wraps(func)(wrapper)\n"
    )
    assert "started = time.time()" in fixed(wrapped, unsafe=False)


UNKNOWN_ELEMENTS = """\
__adk_workflow__ = True


def run(ctx, items):
    seen = []
    for item in set(items):
        seen.append(item)
    return seen
"""


@pytest.mark.parametrize(
    "items,expected",
    [
        ([10, 3, -1, 2], [-1, 2, 3, 10]),
        (["b", 2, None, 1.5, "a"], [None, 1.5, 2, "a", "b"]),
        ([(2, "a"), (1, None), (1, "b")], [(1, None), (1, "b"), (2, "a")]),
        ([None], [None]),
    ],
    ids=["ints", "mixed", "tuples", "none"],
)
def test_the_stable_fix_runs_on_elements_of_any_type(items: list, expected: list) -> None:
    """Elements of unknown type get `stable(...)`, which orders ints, mixed values, tuples and
    None without the TypeError `sorted(...)` would raise."""
    new = fixed(UNKNOWN_ELEMENTS)
    assert new == (
        "from replaylint.workflows import stable\n"
        + UNKNOWN_ELEMENTS.replace("in set(items)", "in stable(set(items))")
    )
    namespace: dict = {}
    exec(compile(new, "wf.py", "exec"), namespace)
    assert namespace["run"](None, items) == expected
