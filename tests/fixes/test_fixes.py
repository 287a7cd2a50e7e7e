"""Fixes (rules/fixes.toml, replaylint.fixes): exact rewrites per framework, imports added once,
comments kept, unsafe fixes only when asked, idempotent, and the guard agrees afterwards."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from replaylint.api import guard, guard_source
from replaylint.core.codes import Code
from replaylint.fixes import fix_source, plan
from replaylint.project.config import Config
from replaylint.report.replay_report import ReplayReport

if sys.version_info >= (3, 11):
    pass
else:  # pragma: no cover - exercised on 3.10 only
    pass

TEMPORAL = """\
from datetime import datetime, timezone
import random as rnd, time

from temporalio.workflow import defn, run


@defn
class Greeting:
    @run
    async def go(self, names: list[str]) -> str:
        when = datetime.now(timezone.utc)
        first = rnd.choice(  # pick one
            names,
        )
        time.sleep(1)
        return f"{when}{first}{time.time()}"
"""

TEMPORAL_ALL_FIXED = """\
from temporalio.workflow import defn, run
from temporalio import workflow


@defn
class Greeting:
    @run
    async def go(self, names: list[str]) -> str:
        when = workflow.now()
        first = workflow.random().choice(  # pick one
            names,
        )
        await workflow.sleep(1)
        return f"{when}{first}{workflow.time()}"
"""

RESTATE = """\
import asyncio
import random
import time
import uuid

import restate

greeter = restate.Service("greeter")


def pick() -> float:
    return random.random()


@greeter.handler()
async def greet(context: restate.Context, name: str) -> str:
    key = str(uuid.uuid4())  # idempotency key
    delay = random.uniform(0.5,   2.0)
    await asyncio.sleep(delay)
    started = time.time()
    return f"{key}:{started}:{pick()}"
"""

RESTATE_ALL_FIXED = """\
import random

import restate
from datetime import timedelta

greeter = restate.Service("greeter")


def pick() -> float:
    return random.random()


@greeter.handler()
async def greet(context: restate.Context, name: str) -> str:
    key = str(context.uuid())  # idempotency key
    delay = context.random().uniform(0.5,   2.0)
    await context.sleep(timedelta(seconds=delay))
    started = await context.time()
    return f"{key}:{started}:{pick()}"
"""

DBOS = """\
import time
import uuid

from dbos import DBOS


@DBOS.workflow()
async def checkout(order: str) -> str:
    stamp = time.time()  # not replay safe
    return f"{order}:{stamp}:{uuid.uuid4().hex}"


@DBOS.workflow()
def refund(order: str) -> str:
    time.sleep(1)
    return f"{order}:{uuid.uuid4()}"
"""

DBOS_ALL_FIXED = """\
import time
import uuid

from dbos import DBOS


@DBOS.workflow()
async def checkout(order: str) -> str:
    stamp = await DBOS.run_step_async(None, time.time)  # not replay safe
    return f"{order}:{stamp}:{(await DBOS.run_step_async(None, uuid.uuid4)).hex}"


@DBOS.workflow()
def refund(order: str) -> str:
    DBOS.sleep(1)
    return f"{order}:{DBOS.run_step(None, uuid.uuid4)}"
"""

AZURE = """\
from datetime import datetime
from uuid import uuid4

import azure.durable_functions as df

app = df.DFApp()


@app.orchestration_trigger(context_name="context")
def orchestrator(context: df.DurableOrchestrationContext):
    started = datetime.utcnow()
    order_id = uuid4()
    local = datetime.now()
    result = yield context.call_activity("ship", str(order_id))
    return [started.isoformat(), local.isoformat(), result]
"""

AZURE_SAFE_FIXED = """\
from datetime import datetime

import azure.durable_functions as df
import uuid

app = df.DFApp()


@app.orchestration_trigger(context_name="context")
def orchestrator(context: df.DurableOrchestrationContext):
    started = context.current_utc_datetime.replace(tzinfo=None)
    order_id = uuid.UUID(context.new_uuid())
    local = datetime.now()
    result = yield context.call_activity("ship", str(order_id))
    return [started.isoformat(), local.isoformat(), result]
"""

RUNTIME = '''\
"""A workflow of replaylint's runtime."""

import asyncio
import random
import time
from datetime import datetime

from replaylint.workflows import RunContext

__adk_workflow__ = True


async def run(ctx: RunContext, order: dict) -> dict:
    started = time.time()
    stamp = datetime.utcnow()  # naive UTC
    await asyncio.sleep(30)
    tags = {"b", "a"}
    for tag in tags:
        order[tag] = random.random()
    return {"started": started, "stamp": stamp.isoformat()}
'''

RUNTIME_ALL_FIXED = '''\
"""A workflow of replaylint's runtime."""
import random

from replaylint.workflows import RunContext
from datetime import timezone

__adk_workflow__ = True


async def run(ctx: RunContext, order: dict) -> dict:
    started = ctx.clock.now().timestamp()
    stamp = ctx.clock.now().astimezone(timezone.utc).replace(tzinfo=None)  # naive UTC
    await ctx.sleep(30)
    tags = {"b", "a"}
    for tag in sorted(tags):
        order[tag] = random.random()
    return {"started": started, "stamp": stamp.isoformat()}
'''


def _check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, text: str) -> ReplayReport:
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_text(text, encoding="utf-8")
    return guard([name], config=Config())


def _findings(report: ReplayReport) -> list[tuple[Code, int, str]]:
    return [(f.code, f.line, f.call) for f in report.findings]


def _fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, *, unsafe: bool
) -> tuple[str, ReplayReport]:
    """Check, fix and check again: the fixed text, and the report on it."""
    report = _check(tmp_path, monkeypatch, "app.py", text)
    planned = plan(report, unsafe=unsafe)
    fixed = planned["app.py"].new if "app.py" in planned else text
    compile(fixed, "app.py", "exec", dont_inherit=True)  # a fixed file compiles
    again = _check(tmp_path, monkeypatch, "app.py", fixed)
    assert plan(again, unsafe=unsafe) == {}  # a second pass changes nothing
    return fixed, again


def test_temporal_unsafe_fixes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    report = _check(tmp_path, monkeypatch, "app.py", TEMPORAL)
    assert _findings(report) == [
        (Code.W003, 11, "datetime.now"),
        (Code.W002, 12, "rnd.choice"),
        (Code.W003, 15, "time.sleep"),
        (Code.W003, 16, "time.time"),
    ]
    fixed, again = _fix(tmp_path, monkeypatch, TEMPORAL, unsafe=True)
    assert fixed == TEMPORAL_ALL_FIXED
    assert fixed.count("from temporalio import workflow") == 1
    assert again.findings == ()


def test_temporal_safe_fixes_leave_the_unsafe_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fixed, again = _fix(tmp_path, monkeypatch, TEMPORAL, unsafe=False)
    # `time` is still read by the unsafe call left in place: its import stays.
    assert fixed == "import time\n\n" + TEMPORAL_ALL_FIXED.replace(
        "await workflow.sleep(1)", "time.sleep(1)"
    )
    assert _findings(again) == [(Code.W003, 15, "time.sleep")]


def test_restate_fixes_use_the_handlers_context(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fixed, again = _fix(tmp_path, monkeypatch, RESTATE, unsafe=True)
    assert fixed == RESTATE_ALL_FIXED
    # `pick` is reached from the handler but has no context of its own: left for the user.
    assert _findings(again) == [(Code.W002, 10, "random.random"), (Code.W005, 19, "pick")]
    safe, again = _fix(tmp_path, monkeypatch, RESTATE, unsafe=False)
    assert "key = str(context.uuid())  # idempotency key" in safe
    assert "delay = context.random().uniform(0.5,   2.0)" in safe
    assert "timedelta" not in safe
    assert _findings(again) == [
        (Code.W002, 11, "random.random"),
        (Code.W003, 18, "asyncio.sleep"),
        (Code.W003, 19, "time.time"),
        (Code.W005, 20, "pick"),
    ]


def test_dbos_fixes_run_the_call_as_a_step(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fixed, again = _fix(tmp_path, monkeypatch, DBOS, unsafe=True)
    assert fixed == DBOS_ALL_FIXED
    assert again.findings == ()
    # Every DBOS fix adds a checkpointed step: none is applied without --unsafe-fixes.
    safe, _ = _fix(tmp_path, monkeypatch, DBOS, unsafe=False)
    assert safe == DBOS


def test_azure_fixes_use_the_orchestration_context(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fixed, again = _fix(tmp_path, monkeypatch, AZURE, unsafe=False)
    assert fixed == AZURE_SAFE_FIXED
    assert fixed.count("import uuid\n") == 1
    assert _findings(again) == [(Code.W003, 13, "datetime.now")]
    fixed, again = _fix(tmp_path, monkeypatch, AZURE, unsafe=True)
    # The last reader of `datetime` is fixed: its import goes.
    assert fixed == AZURE_SAFE_FIXED.replace(
        "local = datetime.now()", "local = context.current_utc_datetime"
    ).replace("from datetime import datetime\n\n", "")
    assert again.findings == ()


def test_marked_module_fixes_use_the_run_context(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fixed, again = _fix(tmp_path, monkeypatch, RUNTIME, unsafe=True)
    assert fixed == RUNTIME_ALL_FIXED
    # The runtime has no generator to stand in for random.random(): it stays, four lines higher
    # (the imports of time, asyncio and datetime went unused; one of timezone was added).
    assert _findings(again) == [(Code.W002, 16, "random.random")]
    safe, again = _fix(tmp_path, monkeypatch, RUNTIME, unsafe=False)
    assert "    await asyncio.sleep(30)\n" in safe
    assert "    for tag in tags:\n" in safe
    assert _findings(again) == [
        (Code.W003, 15, "asyncio.sleep"),
        (Code.W010, 17, "tags"),
        (Code.W002, 18, "random.random"),
    ]


def test_a_marked_module_without_an_annotated_context_gets_no_context_fix() -> None:
    text = (
        "import time\n\n__adk_workflow__ = True\n\n\ndef run(ctx, order):\n    return time.time()\n"
    )
    report = guard_source(text, source="flow.py", config=Config())
    assert _findings(report) == [(Code.W003, 7, "time.time")]
    assert fix_source(text, report.findings, unsafe=True) == (text, ())


def test_an_existing_import_is_used_under_its_own_spelling() -> None:
    text = (
        "import time\n"
        "import temporalio.workflow\n"
        "\n"
        "\n"
        "@temporalio.workflow.defn\n"
        "class W:\n"
        "    @temporalio.workflow.run\n"
        "    async def run(self) -> float:\n"
        "        return time.time()\n"
    )
    report = guard_source(text, source="wf.py", config=Config())
    new, fixed = fix_source(text, report.findings, unsafe=False)
    expected = text.replace("return time.time()", "return temporalio.workflow.time()")
    assert new == expected.removeprefix("import time\n")  # its last reader is gone
    assert [f.call for f in fixed] == ["time.time"]


def test_a_name_bound_to_something_else_blocks_the_fix() -> None:
    text = (
        "import time\n"
        "\n"
        "from temporalio.workflow import defn, run\n"
        "\n"
        'workflow = "the name is taken"\n'
        "\n"
        "\n"
        "@defn\n"
        "class W:\n"
        "    @run\n"
        "    async def go(self) -> float:\n"
        "        return time.time()\n"
    )
    report = guard_source(text, source="wf.py", config=Config())
    assert _findings(report) == [(Code.W003, 12, "time.time")]
    assert fix_source(text, report.findings, unsafe=True) == (text, ())


def test_a_comment_inside_dropped_arguments_keeps_them() -> None:
    # workflow.now() would drop the comment: the unsafe form that keeps the argument is used.
    text = TEMPORAL.replace(
        "datetime.now(timezone.utc)", "datetime.now(\n            timezone.utc,  # UTC\n        )"
    )
    report = guard_source(text, source="wf.py", config=Config())
    safe, _ = fix_source(text, report.findings, unsafe=False)
    assert "datetime.now(\n            timezone.utc,  # UTC\n        )" in safe
    unsafe, _ = fix_source(text, report.findings, unsafe=True)
    assert "workflow.now().astimezone(\n            timezone.utc,  # UTC\n        )" in unsafe
