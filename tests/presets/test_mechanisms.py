"""The optional record parts every framework may use: suspending calls, hosted callables, keys
and aliases; refused when malformed, and matched after the aliases have named a path."""

from __future__ import annotations

import copy
import re
import sys
from pathlib import Path

import pytest

from replaylint.presets.frameworks import Frameworks, canonical
from replaylint.presets.records import RecordError, build

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]


def _shipped(name: str) -> dict:
    with open(ROOT / "rules" / "frameworks" / f"{name}.toml", "rb") as handle:
        return tomllib.load(handle)


@pytest.mark.parametrize(
    ("name", "change", "message"),
    [
        ("langgraph", lambda d: d["suspends"].update(prefixes=True), "unknown key 'prefixes'"),
        ("langgraph", lambda d: d["suspends"].update(prefix="yes"), "prefix must be true or false"),
        ("langgraph", lambda d: d["suspends"].pop("calls"), "calls must be a list of strings"),
        ("temporal", lambda d: d["hosted"][0].update(role="calls"), "role must be one of"),
        (
            "temporal",
            lambda d: d["hosted"][0].update(when={"path": "metadata"}),
            "when must be { path = ..., equals = ... }",
        ),
        ("inngest", lambda d: d["replay"]["keys"][0].pop("arguments"), "arguments must be"),
        ("dapr", lambda d: d.update(aliases=["dapr"]), "[aliases] must map package paths"),
    ],
)
def test_a_malformed_mechanism_is_refused_naming_it(name, change, message) -> None:
    data = copy.deepcopy(_shipped(name))
    change(data)
    with pytest.raises(RecordError, match=re.escape(message)):
        build(name, data, f"frameworks/{name}.toml")


def test_renamed_and_vendored_packages_are_matched_as_their_frameworks_name_them() -> None:
    assert canonical("temporalio.contrib.openai_agents.workflow.activity_as_tool") == (
        "temporalio.openai_agents.workflow.activity_as_tool"
    )
    assert canonical("temporalio.contrib.openai_agentsx.y") == "temporalio.contrib.openai_agentsx.y"
    assert canonical("dapr.ext.workflow._durabletask.task.OrchestrationContext") == (
        "durabletask.task.OrchestrationContext"
    )
    frameworks = Frameworks()
    old = "temporalio.contrib.google_adk_agents.workflow.activity_as_tool"
    assert frameworks.recorder(old) is not None
    vendored = frameworks.context_parameter(
        "dapr.ext.workflow._durabletask.task.OrchestrationContext"
    )
    assert vendored is not None and vendored.name == "durabletask"


def test_the_questions_of_each_mechanism() -> None:
    frameworks = Frameworks()
    stop = frameworks.suspending("prefect.flow_runs.suspend_flow_run", frozenset({"timeout"}))
    assert stop is not None and stop.name == "prefect"
    assert frameworks.suspending("prefect.suspend_flow_run", frozenset({"flow_run_id"})) is None
    assert frameworks.keys("inngest.Context().step.sleep") == ("0", "step_id")
    assert frameworks.keys("langgraph.func.task") == ()
    assert frameworks.keys("temporalio.workflow.execute_activity") is None
    roles = {rule.role for _, rule in frameworks.hosted("agents.Runner.run")}
    assert roles == {"runs"}
    base = frameworks.workflow_base("workers.WorkflowEntrypoint")
    assert base is not None and frameworks.workflow_method(base.name, [], "run", by_base=True)
    # A method named like a base class's hook is one only of a class that has that base.
    assert not frameworks.workflow_method("temporal", [], "execute_workflow")
    assert frameworks.workflow_method("temporal", [], "execute_workflow", by_base=True)
