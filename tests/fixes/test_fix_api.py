"""The fixes' entry points: apply and plan on files (diffs, files changed since the check,
encodings), fix_for's description of one fix, and the data's own checks."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import libcst as cst
import pytest
from test_fixes import (
    AZURE,
    AZURE_SAFE_FIXED,
    DBOS,
    RESTATE,
    RUNTIME,
    TEMPORAL,
    TEMPORAL_ALL_FIXED,
    _check,
    _findings,
    _fix,
)

from replaylint.api import guard, guard_source
from replaylint.core.codes import Code
from replaylint.fixes import FixInfo, apply, fix_for, fix_source, plan
from replaylint.fixes.data import ANY, FixData, default_data
from replaylint.presets.records import presets
from replaylint.project.config import Config
from replaylint.resolve.catalog import default_catalog

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib


def test_apply_writes_files_or_a_diff(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    report = _check(tmp_path, monkeypatch, "app.py", AZURE)
    stream = io.StringIO()
    assert apply(report, unsafe=False, diff=True, stream=stream) == (1, 2)
    assert (tmp_path / "app.py").read_text(encoding="utf-8") == AZURE
    assert stream.getvalue() == (
        "--- a/app.py\n"
        "+++ b/app.py\n"
        "@@ -1,15 +1,15 @@\n"
        " from datetime import datetime\n"
        "-from uuid import uuid4\n"
        " \n"
        " import azure.durable_functions as df\n"
        "+import uuid\n"
        " \n"
        " app = df.DFApp()\n"
        " \n"
        " \n"
        ' @app.orchestration_trigger(context_name="context")\n'
        " def orchestrator(context: df.DurableOrchestrationContext):\n"
        "-    started = datetime.utcnow()\n"
        "-    order_id = uuid4()\n"
        "+    started = context.current_utc_datetime.replace(tzinfo=None)\n"
        "+    order_id = uuid.UUID(context.new_uuid())\n"
        "     local = datetime.now()\n"
        '     result = yield context.call_activity("ship", str(order_id))\n'
        "     return [started.isoformat(), local.isoformat(), result]\n"
    )
    assert apply(report, unsafe=True, diff=False, stream=stream) == (1, 3)
    assert (tmp_path / "app.py").read_text(encoding="utf-8") == AZURE_SAFE_FIXED.replace(
        "local = datetime.now()", "local = context.current_utc_datetime"
    ).replace("from datetime import datetime\n\n", "")


def test_a_file_changed_since_the_check_is_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = _check(tmp_path, monkeypatch, "app.py", TEMPORAL)
    # Another call now at the span of a finding: that one is left, the others are fixed.
    renamed = TEMPORAL.replace("time.sleep(1)", "time.slept(1)")
    (tmp_path / "app.py").write_text(renamed, encoding="utf-8")
    fixed = plan(report, unsafe=True)["app.py"]
    assert [(f.line, f.call) for f in fixed.fixed] == [
        (11, "datetime.now"),
        (12, "rnd.choice"),
        (16, "time.time"),
    ]
    assert fixed.new == "import time\n\n" + TEMPORAL_ALL_FIXED.replace(
        "await workflow.sleep(1)", "time.slept(1)"
    )
    # Every line moved: no finding's span holds its call any more.
    shifted = "# a new first line\n" + TEMPORAL
    (tmp_path / "app.py").write_text(shifted, encoding="utf-8")
    assert plan(report, unsafe=True) == {}


def test_fix_for_describes_the_fix_of_a_finding() -> None:
    report = guard_source(TEMPORAL, source="wf.py", config=Config())
    by_line = {f.line: f for f in report.findings}
    assert fix_for(by_line[11], TEMPORAL) == FixInfo(
        "Replace datetime.now(...) with workflow.now()",
        True,
        "workflow.now() is Temporal's datetime.now(timezone.utc): an aware datetime in UTC",
    )
    sleep = fix_for(by_line[15], TEMPORAL)
    assert sleep is not None
    assert (sleep.title, sleep.safe) == (
        "Replace time.sleep(...) with await workflow.sleep(...)",
        False,
    )
    # Without the source, only a name with a single fix can be described.
    assert fix_for(by_line[16]) == FixInfo(
        "Replace with workflow.time()",
        True,
        default_data().candidates("temporal", "time.time", Code.W003)[0].reason,
    )
    assert fix_for(by_line[11]) is None


def test_the_data_names_catalog_roots_and_known_frameworks() -> None:
    from replaylint.core.docs import rules_dir

    with open(rules_dir() / "fixes.toml", "rb") as handle:
        raw = tomllib.load(handle)
    catalog = default_catalog()
    tables = [k for k in raw if k not in ("version", "contexts")]
    assert set(tables) == {"runtime", ANY}  # a framework's own fixes live in its record
    raw.update({name: list(p.fixes) for name, p in presets().items() if p.fixes})
    for framework in [*tables, *presets()]:
        for entry in raw.get(framework, []):
            for name in entry.get("calls", ()):
                assert name in catalog.calls, (framework, name)
            for code in entry.get("codes", ()):
                assert Code(code) in list(Code)
    data = FixData(raw)
    with_fixes = {name for name, preset in presets().items() if preset.fixes}
    assert {"temporal", "restate", "dbos", "azure", "dapr", "hatchet"} <= with_fixes
    assert data.frameworks() == with_fixes | {"runtime", ANY}


def test_a_template_that_drops_arguments_must_say_so() -> None:
    bad = {
        "temporal": [
            {"calls": ["time.time"], "replace": "workflow.time()", "safe": True, "reason": "r"}
        ]
    }
    with pytest.raises(ValueError, match="drops the arguments"):
        FixData(bad)


def test_fixed_text_parses_with_libcst_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for text in (TEMPORAL, RESTATE, DBOS, AZURE, RUNTIME):
        fixed, _ = _fix(tmp_path, monkeypatch, text, unsafe=True)
        assert cst.parse_module(fixed).code == fixed


UNORDERED = """\
from temporalio import workflow


@workflow.defn
class Labels:
    @workflow.run
    async def run(self) -> list[str]:
        seen = set(["b", "a"])
        return [n.upper() for n in seen] + [m for m in (seen)]
"""


def test_iterating_a_set_is_sorted_only_as_an_unsafe_fix() -> None:
    report = guard_source(UNORDERED, source="wf.py", config=Config())
    assert _findings(report) == [(Code.W010, 9, "seen"), (Code.W010, 9, "(seen)")]
    assert fix_source(UNORDERED, report.findings, unsafe=False) == (UNORDERED, ())
    fixed, done = fix_source(UNORDERED, report.findings, unsafe=True)
    assert fixed == UNORDERED.replace(
        "for n in seen] + [m for m in (seen)]", "for n in sorted(seen)] + [m for m in sorted(seen)]"
    )
    assert done == report.findings
    assert guard_source(fixed, source="wf.py", config=Config()).findings == ()
    info = fix_for(report.findings[0], UNORDERED)
    assert info is not None
    assert (info.title, info.safe) == ("Replace seen with sorted(seen)", False)


def test_a_fixed_file_keeps_its_encoding(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = (
        "# -*- coding: latin-1 -*-\n"
        "import time\n"
        "\n"
        "from replaylint.workflows import RunContext\n"
        "\n"
        "__adk_workflow__ = True\n"
        "\n"
        "\n"
        "def run(ctx: RunContext, order: dict) -> str:\n"
        '    return f"café {time.time()}"\n'
    )
    monkeypatch.chdir(tmp_path)
    (tmp_path / "app.py").write_bytes(text.encode("latin-1"))
    report = guard(["app.py"], config=Config())
    assert apply(report, unsafe=False, diff=False, stream=io.StringIO()) == (1, 1)
    fixed = text.replace("{time.time()}", "{ctx.clock.now().timestamp()}")
    fixed = fixed.replace("import time\n", "")  # its last reader was fixed
    assert (tmp_path / "app.py").read_bytes() == fixed.encode("latin-1")


DYNAMIC = """\
from temporalio import workflow


@workflow.defn
class Greeting:
    @workflow.run
    async def go(self, code: str) -> None:
        exec(code)
"""


def test_a_file_whose_findings_no_fix_entry_names_is_not_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from replaylint.fixes import api

    report = _check(tmp_path, monkeypatch, "dynamic.py", DYNAMIC)
    assert [(f.code, f.line) for f in report.findings] == [(Code.W006, 8)]
    assert all(f.fix is not None for f in report.findings)  # a fix would know what it needs

    def refuse(data: bytes) -> cst.Module:
        raise AssertionError("parsed a file no fix entry can fix")

    monkeypatch.setattr(api.unvalidated, "parse_module", refuse)
    assert report.fixable.safe == frozenset() and report.fixable.unsafe == frozenset()
    assert plan(report, unsafe=True) == {}
    assert fix_source(DYNAMIC, report.findings, unsafe=True) == (DYNAMIC, ())
