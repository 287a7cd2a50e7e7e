"""Temporal fixtures: each change to a workflow's commands, each gate form, helpers that move
commands and the silent refactors; every finding proved by Temporal's own Replayer, offline,
on a history written from the base's skeleton (it must fail on each ADK-V001 and ADK-V003
fixture's new code, and pass on each silent one)."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
import textwrap
from pathlib import Path

import pytest
from tests.versioning.temporal_history import commands, history

from replaylint.api.testing import expectations
from replaylint.project.config import Config
from replaylint.versioning.examples import run_pair
from replaylint.versioning.places import Places
from replaylint.versioning.side import Module, read_side

MODULE = """
from datetime import timedelta

from temporalio import activity, workflow

T = timedelta(seconds=30)


@activity.defn
async def charge_card(order: str) -> str:
    return order


@activity.defn(name="reserve_stock")
async def reserve(order: str) -> str:
    return order


@activity.defn
async def notify(order: str) -> str:
    return order


@workflow.defn
class Checkout:
    @workflow.run
    async def run(self, order: str) -> str:{mark}
{body}
        return order
{helpers}"""

CHARGE = "await workflow.execute_activity(charge_card, order, start_to_close_timeout=T)"
RESERVE = "await workflow.execute_activity(reserve, order, start_to_close_timeout=T)"
NOTIFY = "await workflow.execute_activity(notify, order, start_to_close_timeout=T)"
SLEEP = "await workflow.sleep(10)"


def module(body: str, mark: str = "", helpers: str = "") -> str:
    text = textwrap.indent(textwrap.dedent(body).strip("\n"), " " * 8)
    extra = textwrap.indent(textwrap.dedent(helpers).strip("\n"), " " * 4)
    return MODULE.format(body=text, mark=mark, helpers=extra and "\n" + extra + "\n").lstrip()


def lines(*parts: str) -> str:
    return "\n".join(parts)


def gate(patch: str, new: str, old: str = "", call: str = "workflow.patched") -> str:
    text = f"if {call}({patch!r}):\n" + textwrap.indent(new, "    ")
    return text + ("\nelse:\n" + textwrap.indent(old, "    ") if old else "")


V001, V003 = "  # expect: ADK-V001", "  # expect: ADK-V003"

# name -> (base body, new body, the branch the recorded run took at a gate, new's def marker,
# base helpers, new helpers)
CASES: dict[str, tuple[str, str, str, str, str, str]] = {
    "activity added before": (lines(CHARGE), lines(RESERVE + V001, CHARGE), "old", "", "", ""),
    "activity added at the end": (lines(CHARGE), lines(CHARGE, RESERVE + V001), "old", "", "", ""),
    "activity removed between two": (
        lines(CHARGE, RESERVE, NOTIFY),
        lines(CHARGE, NOTIFY + V001),
        "old",
        "",
        "",
        "",
    ),
    "last activity removed": (lines(CHARGE, RESERVE), lines(CHARGE), "old", V001, "", ""),
    "two activities swapped": (
        lines(CHARGE, RESERVE),
        lines(RESERVE + V001, CHARGE),
        "old",
        "",
        "",
        "",
    ),
    "activity type changed": (lines(CHARGE), lines(NOTIFY + V001), "old", "", "", ""),
    "timer removed": (
        lines(CHARGE, SLEEP, RESERVE),
        lines(CHARGE, RESERVE + V001),
        "old",
        "",
        "",
        "",
    ),
    "timer added": (
        lines(CHARGE, RESERVE),
        lines(CHARGE, SLEEP + V001, RESERVE),
        "old",
        "",
        "",
        "",
    ),
    "timer became an activity": (lines(SLEEP), lines(CHARGE + V001), "old", "", "", ""),
    "new gate whose old branch differs": (
        lines(CHARGE, RESERVE),
        lines(gate("reserve-first", RESERVE, NOTIFY + V001), RESERVE),
        "old",
        "",
        "",
        "",
    ),
    "change in the new branch of an existing gate": (
        lines(gate("notify", NOTIFY), CHARGE),
        lines(gate("notify", lines(NOTIFY, RESERVE + V001)), CHARGE),
        "new",
        "",
        "",
        "",
    ),
    "change in the old branch of an existing gate": (
        lines(gate("notify", NOTIFY, CHARGE)),
        lines(gate("notify", NOTIFY, RESERVE + V001)),
        "old",
        "",
        "",
        "",
    ),
    "helper gains a command": (
        lines("await self.prepare(order)", RESERVE),
        lines("await self.prepare(order)", RESERVE),
        "old",
        "",
        "async def prepare(self, order: str) -> None:\n    " + CHARGE,
        "async def prepare(self, order: str) -> None:\n    " + CHARGE + "\n    " + NOTIFY + V001,
    ),
    "gate collapsed to its new branch": (
        lines(gate("notify", NOTIFY), CHARGE),
        lines(NOTIFY + V003, CHARGE),
        "old",
        "",
        "",
        "",
    ),
    "gate collapsed to its old branch": (
        lines(gate("notify", NOTIFY), CHARGE),
        lines(CHARGE + V003),
        "new",
        "",
        "",
        "",
    ),
    "gate id renamed": (
        lines(gate("notify", NOTIFY), CHARGE),
        lines(gate("notify-v2", NOTIFY).replace(":\n", ":" + V003 + "\n", 1), CHARGE),
        "new",
        "",
        "",
        "",
    ),
    # Silent: what the frameworks do not compare on replay, and refactors.
    "arguments and timeouts changed": (
        lines(CHARGE),
        "await workflow.execute_activity(charge_card, order + '-2', "
        "start_to_close_timeout=timedelta(minutes=5))",
        "old",
        "",
        "",
        "",
    ),
    "timer duration changed": (
        lines(SLEEP, CHARGE),
        lines("await workflow.sleep(600)", CHARGE),
        "old",
        "",
        "",
        "",
    ),
    "sleep written as wait_condition with a timeout": (
        lines(SLEEP, CHARGE),
        lines(
            "try:\n    await workflow.wait_condition(lambda: False, timeout=10)\n"
            "except TimeoutError:\n    pass",
            CHARGE,
        ),
        "old",
        "",
        "",
        "",
    ),
    "new gate keeping the base on its old branch": (
        lines(CHARGE, RESERVE),
        lines(gate("notify-first", NOTIFY, CHARGE), RESERVE),
        "old",
        "",
        "",
        "",
    ),
    "new gate without an else": (
        lines(CHARGE),
        lines(gate("notify-first", NOTIFY), CHARGE),
        "old",
        "",
        "",
        "",
    ),
    "new gate, negated": (
        lines(CHARGE),
        lines("if not workflow.patched('notify-first'):\n    pass\nelse:\n    " + NOTIFY, CHARGE),
        "old",
        "",
        "",
        "",
    ),
    "new gate through a local": (
        lines(CHARGE),
        lines(
            "notify_first = workflow.patched('notify-first')",
            "if notify_first:\n    " + NOTIFY,
            CHARGE,
        ),
        "old",
        "",
        "",
        "",
    ),
    "gate deprecated": (
        lines(gate("notify", NOTIFY), CHARGE),
        lines("workflow.deprecate_patch('notify')", NOTIFY, CHARGE),
        "new",
        "",
        "",
        "",
    ),
    "deprecation removed": (
        lines("workflow.deprecate_patch('notify')", NOTIFY, CHARGE),
        lines(NOTIFY, CHARGE),
        "new",
        "",
        "",
        "",
    ),
    "commands moved into a helper": (
        lines(CHARGE, RESERVE),
        lines("await self.both(order)"),
        "old",
        "",
        "",
        "async def both(self, order: str) -> None:\n    " + CHARGE + "\n    " + RESERVE,
    ),
    "locals renamed": (
        lines("first = " + CHARGE.replace("await ", "await "), "second = first"),
        lines("charged = " + CHARGE, "second = charged"),
        "old",
        "",
        "",
        "",
    ),
}


def _pair(name: str) -> dict[str, str]:
    base, new, _, mark, base_helpers, new_helpers = CASES[name]
    return {
        "base/shop/checkout.py": module(base, helpers=base_helpers),
        "new/shop/checkout.py": module(new, mark, new_helpers),
    }


@pytest.mark.parametrize("name", sorted(CASES))
def test_findings_are_the_markers(name: str) -> None:
    missing, unexpected = run_pair(_pair(name))
    assert not missing and not unexpected, (missing, unexpected)


def _base_history(name: str, tmp_path: Path) -> dict:
    files = _pair(name)
    path = tmp_path / "base_checkout.py"
    path.write_text(files["base/shop/checkout.py"], encoding="utf-8")
    errors: list[str] = []
    module = Module(path, "base_checkout.py", "base_checkout.py", path.read_bytes())
    workflows, _ = read_side([module], lambda _: Config(), errors, Places())
    (workflow,) = workflows
    (run,) = [u for u in workflow.units if u.member == ""]
    return history(workflow.name, commands(run.skeleton, CASES[name][2]))


def _new_class(name: str, tmp_path: Path) -> type:
    path = tmp_path / "new_checkout.py"
    path.write_text(_pair(name)["new/shop/checkout.py"], encoding="utf-8")
    module_name = f"replayed_{abs(hash(name))}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = loaded
    spec.loader.exec_module(loaded)
    return loaded.Checkout


def _replays(workflow_class: type, recorded: dict) -> bool:
    from temporalio.client import WorkflowHistory
    from temporalio.worker import Replayer, UnsandboxedWorkflowRunner

    async def replay() -> bool:
        replayer = Replayer(workflows=[workflow_class], workflow_runner=UnsandboxedWorkflowRunner())
        found = await replayer.replay_workflow(
            WorkflowHistory.from_json("order-1", recorded), raise_on_replay_failure=False
        )
        return found.replay_failure is None

    return asyncio.run(replay())


@pytest.mark.parametrize("name", sorted(CASES))
def test_temporal_replays_exactly_the_silent_fixtures(name: str, tmp_path: Path) -> None:
    pytest.importorskip("temporalio")
    new_text = _pair(name)["new/shop/checkout.py"]
    breaking = {e.code for e in expectations(new_text, "x")} & {"ADK-V001", "ADK-V003"}
    replayed = _replays(_new_class(name, tmp_path), _base_history(name, tmp_path))
    assert replayed is not bool(breaking), "Temporal's replay and the finding disagree"
