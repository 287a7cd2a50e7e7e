"""DBOS, the runtime, durabletask and Durable Functions fixtures, renamed and removed workflows
and handlers, moved files, and each framework's versioning model (and its override)."""

from __future__ import annotations

import importlib.util
import textwrap
from datetime import datetime, timezone
from pathlib import Path

import pytest

from replaylint.api.testing import expectations
from replaylint.versioning.examples import run_pair

UTC = timezone.utc


def _pair(name: str, base: str, new: str, **more: str) -> dict[str, str]:
    files = {
        f"base/{name}": textwrap.dedent(base).lstrip(),
        f"new/{name}": textwrap.dedent(new).lstrip(),
    }
    files.update({k: textwrap.dedent(v).lstrip() for k, v in more.items()})
    return files


def _agrees(files: dict[str, str]) -> None:
    missing, unexpected = run_pair(files)
    assert not missing and not unexpected, (missing, unexpected)


DBOS = """
from dbos import DBOS

DBOS(config={{"name": "shop", "enable_patching": True}})


@DBOS.step()
def reserve(order: str) -> str:
    return order


@DBOS.step(name="charge_card")
def charge(order: str) -> str:
    return order


@DBOS.workflow()
def checkout(order: str) -> str:
{body}
    return order
"""


def dbos(body: str, patching: bool = True) -> str:
    text = DBOS.format(body=textwrap.indent(textwrap.dedent(body).strip("\n"), "    "))
    return text if patching else text.replace(', "enable_patching": True', "")


DBOS_CASES = {
    "steps swapped": (
        "reserve(order)\ncharge(order)",
        "charge(order)  # expect: ADK-V001\nreserve(order)",
    ),
    "sleep removed": (
        "reserve(order)\nDBOS.sleep(5)\ncharge(order)",
        "reserve(order)\ncharge(order)  # expect: ADK-V001",
    ),
    "send added": (
        "reserve(order)",
        "DBOS.send('audit', order)  # expect: ADK-V001\nreserve(order)",
    ),
    "child workflow replaced a step": (
        "reserve(order)",
        "DBOS.start_workflow(checkout, order)  # expect: ADK-V001",
    ),
    "patch keeps the old steps": (
        "reserve(order)",
        "if DBOS.patch('charge-first'):\n    charge(order)\nelse:\n    reserve(order)",
    ),
    "patch removed outright": (
        "if DBOS.patch('charge-first'):\n    charge(order)\nreserve(order)",
        "charge(order)  # expect: ADK-V003\nreserve(order)",
    ),
    "patch deprecated": (
        "if DBOS.patch('charge-first'):\n    charge(order)\nreserve(order)",
        "DBOS.deprecate_patch('charge-first')\ncharge(order)\nreserve(order)",
    ),
    "step arguments changed": ("reserve(order)", "reserve(order + '-2')"),
    # DBOS.enqueue_workflow(queue, func) is Queue(queue).enqueue(func), recorded the same way.
    "enqueue moved to DBOS.enqueue_workflow": (
        "from dbos import Queue\nQueue('q').enqueue(checkout, order)\nreserve(order)",
        "DBOS.enqueue_workflow('q', checkout, order)\nreserve(order)",
    ),
    "enqueue_workflow inserted": (
        "reserve(order)",
        "DBOS.enqueue_workflow('q', checkout, order)  # expect: ADK-V001\nreserve(order)",
    ),
    "enqueue_workflow of another workflow": (
        "DBOS.enqueue_workflow('q', checkout, order)",
        "DBOS.enqueue_workflow('q', func=reserve, order=order)  # expect: ADK-V001",
    ),
}


@pytest.mark.parametrize("case", sorted(DBOS_CASES))
def test_dbos_with_patching_enabled(case: str) -> None:
    base, new = DBOS_CASES[case]
    _agrees(_pair("shop.py", dbos(base), dbos(new)))


def test_dbos_recovers_by_application_version_by_default() -> None:
    # Without enable_patching a workflow is recovered only by its own code: no V001, but a
    # renamed workflow still loses the clients that start it by name.
    base, new = DBOS_CASES["steps swapped"]
    new = new.replace("  # expect: ADK-V001", "")
    _agrees(_pair("shop.py", dbos(base, False), dbos(new, False)))
    renamed = dbos("reserve(order)", False).replace(
        "def checkout(order: str) -> str:",
        "def checkout_v2(order: str) -> str:  # expect: ADK-V002",
    )
    _agrees(_pair("shop.py", dbos("reserve(order)", False), renamed))


def test_dbos_replays_on_the_new_code_only_under_the_same_fixed_version() -> None:
    """DBOS recovers a run only under the application version it started with: a fixed
    `application_version` kept (or `enable_patching` on both sides) replays old runs on the new
    code; one added, bumped or dropped with the change, and a deploy fixing none (a hash of
    the code), leave them to the executors of their own version."""
    base, new = DBOS_CASES["steps swapped"]
    quiet = new.replace("  # expect: ADK-V001", "")

    def versioned(body: str, version: str | None) -> str:
        text = dbos(body, False)
        given = f', "application_version": "{version}"' if version else ""
        return text.replace('"name": "shop"', '"name": "shop"' + given)

    _agrees(_pair("shop.py", versioned(base, "1.0"), versioned(new, "1.0")))
    _agrees(_pair("shop.py", versioned(base, "1.0"), versioned(quiet, "2.0")))
    _agrees(_pair("shop.py", versioned(base, None), versioned(quiet, "1.0")))
    _agrees(_pair("shop.py", versioned(base, "1.0"), versioned(quiet, None)))
    _agrees(_pair("shop.py", dbos(base, False), dbos(quiet, True)))


def test_the_model_is_overridden_per_framework() -> None:
    base, new = DBOS_CASES["steps swapped"]
    settings = '[tool.replaylint.versioning]\ndbos = "patching"\n'
    files = _pair("shop.py", dbos(base, False), dbos(new, False))
    files["new/pyproject.toml"] = settings
    files["base/pyproject.toml"] = settings
    _agrees(files)
    temporal = _pair(
        "flow.py", TEMPORAL.format(first="a", second="b"), TEMPORAL.format(first="b", second="a")
    )
    temporal["new/pyproject.toml"] = '[tool.replaylint.versioning]\ntemporal = "pinned"\n'
    _agrees(temporal)


def test_a_temporal_workflow_declares_its_own_behaviour() -> None:
    """A pinned workflow beside others does not pin them: one declared AUTO_UPGRADE, or
    declaring nothing, still replays on the new code; a worker deployment's default pins the
    workflows that declare none."""
    first = 'execute_activity("b", start_to_close_timeout=timedelta(seconds=5))'
    swapped = TEMPORAL.format(first="b", second="a").replace(first, first + "  # expect: ADK-V001")
    files = _pair("flow.py", TEMPORAL.format(first="a", second="b"), swapped)
    behaviour = "@workflow.defn(versioning_behavior=common.VersioningBehavior.{})\n"
    report = TEMPORAL.format(first="a", second="b").replace("class Flow", "class Report")
    pinned = "from temporalio import common\n" + report.replace(
        "@workflow.defn\n", behaviour.format("PINNED")
    )
    _agrees({**files, "base/report.py": pinned, "new/report.py": pinned})
    upgraded = {
        path: text.replace("@workflow.defn\n", behaviour.format("AUTO_UPGRADE")).replace(
            "from temporalio import workflow", "from temporalio import common, workflow"
        )
        for path, text in files.items()
    }
    _agrees(upgraded)
    quiet = {path: text.replace("  # expect: ADK-V001", "") for path, text in files.items()}
    own = {path: text.replace("AUTO_UPGRADE", "PINNED") for path, text in upgraded.items()}
    _agrees({path: text.replace("  # expect: ADK-V001", "") for path, text in own.items()})
    deployment = (
        "config = WorkerDeploymentConfig(default_versioning_behavior=VersioningBehavior.PINNED)\n"
    )
    _agrees({**quiet, "base/worker.py": deployment, "new/worker.py": deployment})


TEMPORAL = """
from datetime import timedelta

from temporalio import workflow


@workflow.defn
class Flow:
    @workflow.run
    async def run(self) -> None:
        await workflow.execute_activity("{first}", start_to_close_timeout=timedelta(seconds=5))
        await workflow.execute_activity("{second}", start_to_close_timeout=timedelta(seconds=5))
"""

RUNTIME = """
from replaylint.workflows import RunContext, activity, model_call_activity

__adk_workflow__ = True


@activity(name="authorize_card")
def authorize(token: str) -> dict:
    return {{}}


@activity(name="capture")
def capture(token: str) -> dict:
    return {{}}


def _screen(ctx: RunContext, token: str) -> None:
{helper}


def run(ctx: RunContext, order: dict) -> dict:
{body}
    return order
"""


def runtime(body: str, helper: str = "pass") -> str:
    indent = lambda text: textwrap.indent(textwrap.dedent(text).strip("\n"), "    ")  # noqa: E731
    return RUNTIME.format(body=indent(body), helper=indent(helper))


RUNTIME_CASES = {
    "activity added": (
        "authorize('t')",
        "authorize('t')\ncapture('t')  # expect: ADK-V001",
        "pass",
        "pass",
    ),
    "timer removed": (
        "ctx.sleep(60)\nauthorize('t')",
        "authorize('t')  # expect: ADK-V001",
        "pass",
        "pass",
    ),
    "patch applied": (
        "authorize('t')",
        "if ctx.patched('capture'):\n    capture('t')\nauthorize('t')",
        "pass",
        "pass",
    ),
    "Patches.applied": (
        "authorize('t')",
        "if ctx.patches.applied('capture'):\n    capture('t')\nauthorize('t')",
        "pass",
        "pass",
    ),
    "patch removed": (
        "if ctx.patched('capture'):\n    capture('t')\nauthorize('t')",
        "capture('t')  # expect: ADK-V003\nauthorize('t')",
        "pass",
        "pass",
    ),
    "patch deprecated": (
        "if ctx.patched('capture'):\n    capture('t')\nauthorize('t')",
        "ctx.deprecate_patch('capture')\ncapture('t')\nauthorize('t')",
        "pass",
        "pass",
    ),
    "helper gains a model call": (
        "_screen(ctx, 't')\nauthorize('t')",
        "_screen(ctx, 't')\nauthorize('t')",
        "pass",
        "model_call_activity(print, model='m')  # expect: ADK-V001",
    ),
}


@pytest.mark.parametrize("case", sorted(RUNTIME_CASES))
def test_the_runtime(case: str) -> None:
    base, new, base_helper, new_helper = RUNTIME_CASES[case]
    _agrees(_pair("pay.py", runtime(base, base_helper), runtime(new, new_helper)))


DURABLETASK = """
from durabletask import task, worker


def hello(ctx: task.ActivityContext, name: str) -> str:
    return name


def bye(ctx: task.ActivityContext, name: str) -> str:
    return name


def sequence(ctx: task.OrchestrationContext, _):
{body}
    return 1


w = worker.TaskHubGrpcWorker()
w.add_orchestrator(sequence)
w.add_activity(hello)
w.add_activity(bye)
"""

AZURE = """
import azure.durable_functions as df

app = df.DFApp()


@app.orchestration_trigger(context_name="context")
def orchestrator(context: df.DurableOrchestrationContext):
{body}
    return 1


@app.activity_trigger(input_name="city")
def hello(city: str) -> str:
    return city
"""

ORCHESTRATION_CASES = {
    "durabletask activity added before": (
        DURABLETASK,
        "yield ctx.call_activity(hello, input='a')",
        "yield ctx.call_activity(bye, input='a')  # expect: ADK-V001\nyield ctx.call_activity(hello, input='a')",
    ),
    "durabletask timer removed": (
        DURABLETASK,
        "yield ctx.create_timer(5)\nyield ctx.call_activity(hello, input='a')",
        "yield ctx.call_activity(hello, input='a')  # expect: ADK-V001",
    ),
    "durabletask external event renamed": (
        DURABLETASK,
        "yield ctx.wait_for_external_event('approval')",
        "yield ctx.wait_for_external_event('approved')  # expect: ADK-V001",
    ),
    "durabletask sub-orchestration added": (
        DURABLETASK,
        "yield ctx.call_activity(hello, input='a')",
        "yield ctx.call_activity(hello, input='a')\nyield ctx.call_sub_orchestrator(sequence)  # expect: ADK-V001",
    ),
    "durabletask input changed": (
        DURABLETASK,
        "yield ctx.call_activity(hello, input='a')",
        "yield ctx.call_activity(hello, input='b')",
    ),
    "azure activity renamed": (
        AZURE,
        "yield context.call_activity('hello', 'Tokyo')",
        "yield context.call_activity('hello2', 'Tokyo')  # expect: ADK-V001",
    ),
    "azure timer added": (
        AZURE,
        "yield context.call_activity('hello', 'Tokyo')",
        "yield context.create_timer(context.current_utc_datetime)  # expect: ADK-V001\nyield context.call_activity('hello', 'Tokyo')",
    ),
    "azure entity call removed": (
        AZURE,
        "yield context.call_entity(df.EntityId('Counter', 'a'), 'add')\nyield context.call_activity('hello', 'x')",
        "yield context.call_activity('hello', 'x')  # expect: ADK-V001",
    ),
    "azure input changed": (
        AZURE,
        "yield context.call_activity('hello', 'Tokyo')",
        "yield context.call_activity('hello', 'Paris')",
    ),
}


@pytest.mark.parametrize("case", sorted(ORCHESTRATION_CASES))
def test_durabletask_and_durable_functions(case: str) -> None:
    template, base, new = ORCHESTRATION_CASES[case]
    body = lambda text: template.format(body=textwrap.indent(text, "    "))  # noqa: E731
    _agrees(_pair("orchestration.py", body(base), body(new)))


HANDLERS = """
from temporalio import workflow


@workflow.defn{name}
class Approval:{mark}
    def __init__(self) -> None:
        self.done = False

    @workflow.run
    async def run(self) -> bool:
        await workflow.wait_condition(lambda: self.done)
        return self.done
{handlers}"""

APPROVE = (
    "\n    @workflow.signal\n    async def approve(self) -> None:{mark}\n        self.done = True\n"
)


def handlers(text: str = APPROVE, mark: str = "", name: str = "", class_mark: str = "") -> str:
    return HANDLERS.format(handlers=text.format(mark=mark), name=name, mark=class_mark).lstrip()


def test_signal_removed_is_reported_on_the_first_line_of_the_module() -> None:
    new = "# expect: ADK-V004\n" + handlers("")
    base = "# the approvals\n" + handlers()
    _agrees(_pair("approvals.py", base, new))


def test_handler_renamed_and_kept() -> None:
    renamed = APPROVE.replace("approve", "accept")
    _agrees(_pair("approvals.py", handlers(), handlers(renamed, mark="  # expect: ADK-V004")))
    kept = renamed.replace("@workflow.signal", "@workflow.signal(name='approve')")
    _agrees(_pair("approvals.py", handlers(), handlers(kept)))
    update = APPROVE.replace("signal", "update")
    _agrees(
        _pair(
            "approvals.py",
            handlers(update),
            handlers(update.replace("approve", "ok"), mark="  # expect: ADK-V004"),
        )
    )


def test_a_handler_moved_into_a_plain_base_class_is_still_registered() -> None:
    """Temporal registers a workflow class's members, its bases' included: a signal moved
    into a base class the workflow derives from is no handler removed; removing it from the
    base is."""
    based = (
        "from temporalio import workflow\n\n\nclass Base:\n    @workflow.signal\n"
        "    async def approve(self) -> None:\n        self.done = True\n\n\n"
        + handlers("").replace("class Approval:", "class Approval(Base):").split("\n", 3)[3]
    )
    _agrees(_pair("approvals.py", handlers(), based))
    emptied = based.replace("    @workflow.signal\n    async def approve(self) -> None:\n", "")
    emptied = "# expect: ADK-V004\n" + emptied.replace(
        "        self.done = True\n\n\n", "    pass\n\n\n", 1
    )
    _agrees(_pair("approvals.py", "# the approvals\n" + based, emptied))


def test_workflow_renamed_removed_and_moved() -> None:
    renamed = handlers().replace("class Approval:", "class Approved:  # expect: ADK-V002")
    _agrees(_pair("approvals.py", handlers(), renamed))
    kept = handlers(name='(name="Approval")').replace("class Approval:", "class Approved:")
    _agrees(_pair("approvals.py", handlers(), kept))
    removed = {
        "base/approvals.py": handlers(),
        "base/other.py": "import os\n",
        "new/approvals.py": "# expect: ADK-V002\nimport os\n",
        "new/other.py": "import os\n",
    }
    _agrees(removed)
    moved = {"base/approvals.py": handlers(), "new/flows/approvals_v2.py": handlers()}
    _agrees(moved)
    module_gone = {
        "base/approvals.py": handlers(),
        "base/keep.py": "import os\n",
        "new/keep.py": "import os\n",
    }
    missing, unexpected = run_pair(module_gone)
    assert [u.split(": ADK-")[0] for u in unexpected] == ["approvals.py:1"], unexpected


def test_a_name_another_application_keeps_is_no_successor() -> None:
    """A repository of several applications, each with its own project file: a workflow
    removed from one is removed, whatever another application still registers under its name;
    in one application, another definition of the name carries it on."""
    project = '[project]\nname = "{}"\nversion = "0"\n'
    apps = {
        f"{side}/{app}/pyproject.toml": project.format(app)
        for side in ("base", "new")
        for app in "ab"
    }
    both = {
        **apps,
        "base/a/approvals.py": handlers(),
        "base/b/approvals.py": handlers(),
        "new/b/approvals.py": handlers(),
    }
    _agrees({**both, "new/a/approvals.py": "# expect: ADK-V002\nimport os\n"})
    _agrees({**both, "new/a/approvals.py": "import os\n", "new/a/kept.py": handlers()})


def test_each_application_keeps_its_own_versioning_default() -> None:
    """A worker deployment that pins one application's workflows, or a DBOS version one
    application keeps, says nothing of another application's beside it."""
    project = '[project]\nname = "{}"\nversion = "0"\n'
    apps = {
        f"{side}/{app}/pyproject.toml": project.format(app)
        for side in ("base", "new")
        for app in "ab"
    }
    pinning = (
        "config = WorkerDeploymentConfig(default_versioning_behavior=VersioningBehavior.PINNED)\n"
    )
    first = 'execute_activity("b", start_to_close_timeout=timedelta(seconds=5))'
    swapped = TEMPORAL.format(first="b", second="a")
    temporal = {
        **apps,
        "base/a/worker.py": pinning,
        "new/a/worker.py": pinning,
        "base/a/flow.py": TEMPORAL.format(first="a", second="b"),
        "new/a/flow.py": swapped,
        "base/b/flow.py": TEMPORAL.format(first="a", second="b"),
        "new/b/flow.py": swapped.replace(first, first + "  # expect: ADK-V001"),
    }
    _agrees(temporal)
    base, new = DBOS_CASES["steps swapped"]
    kept = dbos(base, False).replace('"name": "shop"', '"name": "shop", "application_version": "1"')
    changed = dbos(new, False).replace(
        '"name": "shop"', '"name": "shop", "application_version": "1"'
    )
    bumped = dbos(new, False).replace(
        '"name": "shop"', '"name": "shop", "application_version": "2"'
    )
    dbos_apps = {
        **apps,
        "base/a/shop.py": kept,
        "new/a/shop.py": changed,
        "base/b/shop.py": kept,
        "new/b/shop.py": bumped.replace("  # expect: ADK-V001", ""),
    }
    _agrees(dbos_apps)


INTERCEPTOR = """
from temporalio import worker


class {name}(worker.WorkflowInboundInterceptor):
    async def execute_workflow(self, input: worker.ExecuteWorkflowInput) -> object:
        return await super().execute_workflow(input)
"""


def test_a_workflow_interceptor_is_no_workflow_of_a_name() -> None:
    """An interceptor's hooks run in every workflow, but no run is bound to its class: renaming
    or deleting one is no workflow renamed or removed."""
    base = {"base/approvals.py": handlers(), "new/approvals.py": handlers()}
    renamed = {
        **base,
        "base/tracing.py": INTERCEPTOR.format(name="TracingInbound"),
        "new/tracing.py": INTERCEPTOR.format(name="Tracing"),
    }
    _agrees(renamed)
    _agrees({**base, "base/tracing.py": INTERCEPTOR.format(name="Tracing")})


def _load(path: Path, text: str, name: str):  # type: ignore[no-untyped-def]
    path.write_text(text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("case", sorted(RUNTIME_CASES))
def test_the_runtime_replays_exactly_the_silent_fixtures(case: str, tmp_path: Path) -> None:
    """A history the runtime records from the base must fail to replay on the new code of
    each ADK-V001 and ADK-V003 fixture, and replay on the silent ones."""
    from replaylint.workflows import NonDeterminismError, assert_replays, record

    base, new, base_helper, new_helper = RUNTIME_CASES[case]
    old = _load(tmp_path / "base_pay.py", runtime(base, base_helper), f"base_{abs(hash(case))}")
    history = record(old.run, {}, run_id="run-1", started_at=datetime(2024, 6, 1, tzinfo=UTC))
    new_text = runtime(new, new_helper)
    current = _load(tmp_path / "new_pay.py", new_text, f"new_{abs(hash(case))}")
    breaking = {e.code for e in expectations(new_text, "x")} & {"ADK-V001", "ADK-V003"}
    try:
        assert_replays(current.run, history)
        replayed = True
    except NonDeterminismError:
        replayed = False
    assert replayed is not bool(breaking), "the runtime's replay and the finding disagree"
