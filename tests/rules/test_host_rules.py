"""ADK-W007..W009 (environment, filesystem, threads): messages as written, chains, remedies."""

from __future__ import annotations

from pathlib import Path

import pytest

from replaylint import guard_source
from replaylint.core.codes import Code
from replaylint.engine.project import Project
from replaylint.resolve.catalog import CallArgs, default_catalog
from replaylint.resolve.facts import Fact, Reference


def findings(tmp_path: Path, source: str) -> list[tuple[str, int, str]]:
    report = guard_source(source, source=str(tmp_path / "wf.py"))
    return [(f.code.value, f.line, f.message) for f in report.findings]


def test_a_read_is_reported_once_as_written(tmp_path: Path) -> None:
    source = """\
import os
import sys

__adk_workflow__ = True


def run():
    env = os.environ
    a = env["HOME"]
    b = os.environ.get("USER")
    c = sys.argv[1:]
    d = os.environ["A"].lower()
    return a, b, c, d
"""
    found = findings(tmp_path, source)
    prefix = "the process or host environment is read on the workflow path"
    result = "it reaches the workflow's result on line 13"
    assert found == [
        ("ADK-W007", 9, f'{prefix} (env["HOME"]): {result}'),
        ("ADK-W007", 10, f"{prefix} (os.environ.get): {result}"),
        ("ADK-W007", 11, f"{prefix} (sys.argv[1:]): {result}"),
        ("ADK-W007", 12, f'{prefix} (os.environ["A"]): {result}'),
    ]


def test_the_three_messages(tmp_path: Path) -> None:
    source = """\
import subprocess
from pathlib import Path

__adk_workflow__ = True


def run(name):
    text = (Path("prompts") / name).read_text()
    subprocess.run(["ls"])
    with open(name) as handle:
        return text + handle.read()
"""
    assert findings(tmp_path, source) == [
        (
            "ADK-W008",
            8,
            "the filesystem is used on the workflow path (pathlib.Path().read_text)",
        ),
        (
            "ADK-W009",
            9,
            "a thread, process or executor is started on the workflow path (subprocess.run)",
        ),
        ("ADK-W008", 10, "the filesystem is used on the workflow path (open)"),
    ]


@pytest.mark.parametrize(
    "body,code,root",
    [
        ('return os.environ["REGION"]', Code.W007, 'os.environ["REGION"]'),
        ('return open("config.json").read()', Code.W008, "open"),
        ('return subprocess.check_output(["git", "log"])', Code.W009, "subprocess.check_output"),
    ],
)
def test_a_helper_reaching_a_new_root_is_an_unsafe_helper_call(
    tmp_path: Path, body: str, code: Code, root: str
) -> None:
    (tmp_path / "helpers.py").write_text(
        f"import os\nimport subprocess\n\n\ndef load():\n    {body}\n", encoding="utf-8"
    )
    source = (
        "from helpers import load\n\n__adk_workflow__ = True\n\n\ndef run():\n    return load()\n"
    )
    report = guard_source(source, source=str(tmp_path / "wf.py"))
    [finding] = report.findings
    assert (finding.code, finding.line, finding.call, finding.root) == (
        Code.W005,
        7,
        "load",
        code,
    )
    assert [(link.line, link.call) for link in finding.chain] == [(6, root)]
    assert finding.chain[0].path.endswith("helpers.py")


TEMPORAL = """\
import os
import subprocess
from temporalio import workflow


@workflow.defn
class Order:
    @workflow.run
    async def run(self) -> None:
        if os.getenv("A"):  # the environment decides a branch
            pass
        open("log.txt", "a")
        subprocess.run(["ls"])
"""
RESTATE = """\
import os
import subprocess
import restate

svc = restate.Service("svc")


@svc.handler()
async def handle(ctx: restate.Context) -> None:
    if os.getenv("A"):  # the environment decides a branch
        pass
    open("log.txt", "a")
    subprocess.run(["ls"])
"""
DBOS = """\
import os
import subprocess
from dbos import DBOS


@DBOS.workflow()
def handle() -> None:
    if os.getenv("A"):  # the environment decides a branch
        pass
    open("log.txt", "a")
    subprocess.run(["ls"])
"""
AZURE = """\
import os
import subprocess
import azure.durable_functions as df

app = df.DFApp()


@app.orchestration_trigger(context_name="context")
def handle(context: df.DurableOrchestrationContext):
    if os.getenv("A"):  # the environment decides a branch
        pass
    open("log.txt", "a")
    subprocess.run(["ls"])
    yield context.call_activity("a", 1)
"""


@pytest.mark.parametrize(
    "source,remedies",
    [
        (
            TEMPORAL,
            [
                "pass it in as workflow input, or read it in an activity run with "
                "workflow.execute_activity",
                "move the file access into an activity run with workflow.execute_activity",
                "run concurrent work as asyncio tasks or activities (workflow.start_activity), "
                "which Temporal orders deterministically",
            ],
        ),
        (
            RESTATE,
            [
                "pass it in the request, or read it inside ctx.run(...), which journals it",
                "wrap the file access in ctx.run(...), which journals its result",
                "start ctx.run(...) or handler calls without awaiting them, then await them "
                "together with restate.gather(...)",
            ],
        ),
        (
            DBOS,
            [
                "pass it in as a workflow argument, or read it inside a @DBOS.step()",
                "move the file access into a @DBOS.step(), whose result DBOS checkpoints",
                "start concurrent work with DBOS.start_workflow() or a Queue, or run it inside "
                "a @DBOS.step()",
            ],
        ),
        (
            AZURE,
            [
                "pass it in as orchestration input, or read it in an activity function called "
                "with context.call_activity",
                "move the file access into an activity function called with context.call_activity",
                "fan out with context.call_activity and context.task_all, or move the work "
                "into an activity function",
            ],
        ),
    ],
    ids=["temporal", "restate", "dbos", "azure"],
)
def test_presets_give_their_own_remedies(tmp_path: Path, source: str, remedies: list[str]) -> None:
    report = guard_source(source, source=str(tmp_path / "wf.py"))
    assert [f.code for f in report.findings] == [Code.W007, Code.W008, Code.W009]
    assert [f.remedy for f in report.findings] == remedies


def test_each_entry_gets_its_own_frameworks_remedy(tmp_path: Path) -> None:
    """A module holding a Temporal workflow and a DBOS workflow: each finding's remedy is the
    framework of the entry it is in, not of whichever the module names first."""
    source = (
        "import time\n\nfrom dbos import DBOS\nfrom temporalio import workflow\n\n\n"
        "@workflow.defn\nclass A:\n    @workflow.run\n    async def run(self) -> float:\n"
        "        return time.time()\n\n\n@DBOS.workflow()\ndef d() -> float:\n"
        "    return time.time()\n"
    )
    report = guard_source(source, source=str(tmp_path / "wf.py"))
    assert [(f.line, f.remedy) for f in report.findings] == [
        (11, "use workflow.now() for the time and workflow.sleep() or asyncio.sleep() for waits"),
        (16, "use DBOS.sleep() for waits, and read the clock inside a @DBOS.step()"),
    ]


def test_a_marked_module_gets_the_rules_own_remedies(tmp_path: Path) -> None:
    source = (
        "import os\n\n__adk_workflow__ = True\nif os.getpid():\n    pass\nopen('x')\n"
        "os.system('ls')\n"
    )
    report = guard_source(source, source=str(tmp_path / "wf.py"))
    assert [f.remedy for f in report.findings] == [
        "pass it in as workflow input, or read it in an activity",
        "move the file access into an activity",
        "use the framework's own concurrency, or move the work into an activity",
    ]


def test_asyncio_to_thread_is_a_thread_except_in_an_async_dbos_workflow(tmp_path: Path) -> None:
    body = "    return await asyncio.to_thread(str, 1)\n"
    dbos = "import asyncio\nfrom dbos import DBOS\n\n\n@DBOS.workflow()\nasync def wf():\n" + body
    marked = "import asyncio\n\n__adk_workflow__ = True\n\n\nasync def wf():\n" + body
    assert findings(tmp_path, dbos) == []
    assert [code for code, _, _ in findings(tmp_path, marked)] == ["ADK-W009"]


class Recorder:
    subscribed = frozenset({Reference})

    def __init__(self) -> None:
        self.seen: list[Fact] = []

    def emit(self, fact: Fact) -> None:
        self.seen.append(fact)


def test_a_read_is_a_reference_fact_with_the_read_object(tmp_path: Path) -> None:
    sink = Recorder()
    source = b"import os\nfrom os import environ\n\nx = environ['A'] + os.environ.copy()['B']\n"
    Project(sink=sink).load(tmp_path / "wf.py", source)
    reads = [(f.path, f.call, f.entry.category) for f in sink.seen if isinstance(f, Reference)]
    # `os.environ.copy()` is a call of a member (a Call fact), not a second read of it.
    assert reads == [("os.environ", "environ['A']", "environment")]


def test_declaring_a_read_object_safe_drops_its_reads_and_member_calls() -> None:
    catalog = default_catalog()
    assert catalog.read_entry("os.environ") is not None
    assert catalog.classify_call("os.environ.get", CallArgs(1, {}))[0] is not None
    relaxed = catalog.extend({}, ["os.environ"])
    assert relaxed.read_entry("os.environ") is None
    assert relaxed.classify_call("os.environ.get", CallArgs(1, {})) == (None, "os.environ.get()")
    assert relaxed.read_entry("sys.argv") is not None


def test_path_arithmetic_keeps_the_path_class() -> None:
    catalog = default_catalog()
    assert catalog.attribute_instance("pathlib.Path()", "parent") == "pathlib.Path()"
    assert catalog.attribute_instance("pathlib.Path()", "__truediv__") == "pathlib.Path()"
    assert catalog.attribute_instance("pathlib.Path()", "name") is None
    assert catalog.attribute_instance("pathlib.Path", "parent") is None  # the class, not a path
