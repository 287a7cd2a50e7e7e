"""The example workflows: their committed histories replay, and their workflow code stays replay safe."""

from __future__ import annotations

import ast
import dataclasses
import functools
import inspect
from pathlib import Path

import pytest
from examples.workflows import agent_pipeline, providers
from examples.workflows.record_fixtures import FIXTURES

from replaylint.harness.replay import import_workflow
from replaylint.workflows import ActivityError, NonDeterminismError, RecordedHistory, assert_replays

ROOT = Path(__file__).resolve().parents[2]
HISTORIES = ROOT / "tests" / "histories"
EXAMPLES = ROOT / "examples" / "workflows"
WORKFLOW_MODULES = ("agent_pipeline.py", "freight.py", "fulfilment.py", "payment.py")
COMMITTED = sorted(p.name for p in HISTORIES.glob("*.json"))


def load(name: str) -> RecordedHistory:
    return RecordedHistory.load(HISTORIES / name)


def test_every_fixture_the_script_knows_is_committed() -> None:
    assert sorted(f.file for f in FIXTURES) == COMMITTED


@pytest.mark.parametrize("name", COMMITTED)
def test_every_committed_history_replays(name: str) -> None:
    history = load(name)
    assert_replays(import_workflow(history.workflow), history)


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every scripted service raises: a replay that still passes executed no activity."""

    def refusing(original):
        # Same name and sync/async shape as the original, so the recorded requests still match.
        if inspect.iscoroutinefunction(original):

            async def refuse(*args: object, **kwargs: object) -> None:
                raise AssertionError("a service was called during replay")

        else:

            def refuse(*args: object, **kwargs: object) -> None:
                raise AssertionError("a service was called during replay")

        return functools.update_wrapper(refuse, original)

    for cls, method in [
        (providers.ScriptedModel, "complete"),
        (providers.OrderDesk, "lookup"),
        (providers.KnowledgeBase, "search"),
        (providers.PaymentGateway, "risk_score"),
        (providers.PaymentGateway, "authorize"),
        (providers.PaymentGateway, "screen"),
        (providers.PaymentGateway, "capture"),
        (providers.Mailer, "send"),
        (providers.Warehouse, "reserve"),
        (providers.Carrier, "request_pickup"),
        (providers.FreightDesk, "quote"),
        (providers.FreightDesk, "book"),
    ]:
        monkeypatch.setattr(cls, method, refusing(getattr(cls, method)))


@pytest.mark.parametrize("name", COMMITTED)
def test_replaying_a_fixture_calls_no_service(name: str, offline: None) -> None:
    history = load(name)
    assert_replays(import_workflow(history.workflow), history)


def test_the_offline_guard_really_refuses_live_calls(offline: None) -> None:
    payment_fixture = next(f for f in FIXTURES if f.file == "payment.json")
    with pytest.raises(
        ActivityError, match="activity 'assess_risk' failed: AssertionError: a service was called"
    ):
        payment_fixture.record()


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda f: f.file)
def test_a_fresh_recording_of_each_fixture_replays(fixture) -> None:
    history = fixture.record()
    assert history.workflow == load(fixture.file).workflow
    assert_replays(fixture.workflow, history)


def test_the_payment_fixtures_cover_both_sides_of_the_patch() -> None:
    after = load("payment.json")
    before = load("payment_before_patch.json")
    assert [(c.kind, c.name) for c in after.commands] == [
        ("activity", "assess_risk"),
        ("activity", "authorize_card"),
        ("patch", "screen-before-capture"),
        ("activity", "screen_sanctions"),
        ("activity", "capture_payment"),
        ("activity", "send_receipt"),
    ]
    assert [c.name for c in before.commands] == [
        "assess_risk",
        "authorize_card",
        "capture_payment",
        "send_receipt",
    ]
    assert before.result["status"] == after.result["status"] == "captured"


def test_the_pre_patch_history_really_needs_the_patch_guard() -> None:
    # The same code with the guard removed (always screening) cannot replay the old run.
    from examples.workflows import payment

    class AlwaysPatched:
        def applied(self, name: str) -> bool:
            return True

    history = load("payment_before_patch.json")

    def unguarded(ctx, order):
        ctx._patches = AlwaysPatched()
        return payment.run(ctx, order)

    with pytest.raises(NonDeterminismError) as caught:
        assert_replays(unguarded, history)
    assert (caught.value.reason, caught.value.index) == ("name-mismatch", 2)
    assert (caught.value.recorded.name, caught.value.requested.name) == (
        "capture_payment",
        "screen_sanctions",
    )


def test_the_declined_payment_replays_a_recorded_error() -> None:
    history = load("payment_declined.json")
    error = history.commands[1].error
    assert (error.type, error.message) == (
        "examples.workflows.providers.CardDeclined",
        "issuer declined 12900 EUR: insufficient funds",
    )
    assert history.result["status"] == "declined"


def test_the_fulfilment_retries_are_decided_from_recorded_answers() -> None:
    history = load("fulfilment.json")
    pickups = [c for c in history.commands if c.name == "request_pickup"]
    assert [c.result["status"] for c in pickups] == ["busy", "busy", "booked"]
    assert [c.request["args"][3] for c in pickups] == [
        "2024-06-03T08:00:00+00:00",
        "2024-06-03T08:15:00+00:00",
        "2024-06-03T09:15:00+00:00",
    ]
    assert history.result["backordered"] == ["MUG-007"]
    assert history.result["attempts"] == 3


def test_the_freight_pick_depends_on_the_recorded_arrival_order() -> None:
    history = load("freight.json")
    assert history.version == 2 and history.workflow_name == "freight-booking"
    assert [c.request["args"][0] for c in history.commands[:3]] == [
        "northwind",
        "bluefin",
        "kestrel",
    ]
    assert history.deliveries[:3] == (1, 2, 0)
    assert history.result["arrivals"] == ["bluefin", "kestrel", "northwind"]
    # Northwind was asked first and is under the ceiling too: delivered in the order asked,
    # the run would book northwind, so the replay diverges at the booking.
    in_asked_order = dataclasses.replace(history, deliveries=None)
    with pytest.raises(NonDeterminismError) as caught:
        assert_replays(import_workflow(history.workflow), in_asked_order)
    assert (caught.value.reason, caught.value.index) == ("key-mismatch", 4)


def test_the_freight_hold_is_a_timer_and_the_pickup_crosses_the_clock_change() -> None:
    history = load("freight.json")
    timer = history.commands[3]
    assert (timer.kind, timer.request["args"]) == ("timer", [900])
    assert history.started_at.isoformat() == "2024-10-27T01:30:00+02:00"
    assert history.result["held_until"] == "2024-10-27T01:45:00+02:00"
    # Two hours later on the instant: 02:45 in winter time, after the clocks went back.
    assert history.result["pickup_at"] == "2024-10-27T02:45:00+01:00"


def test_the_agent_prompt_does_not_depend_on_how_the_tool_registry_is_written(monkeypatch) -> None:
    history = load("agent_pipeline.json")
    reversed_registry = dict(reversed(list(agent_pipeline.TOOLS.items())))
    assert list(reversed_registry) != list(agent_pipeline.TOOLS)
    monkeypatch.setattr(agent_pipeline, "TOOLS", reversed_registry)
    assert_replays(agent_pipeline.run, history)


def test_the_agent_model_calls_are_recorded_as_model_calls() -> None:
    history = load("agent_pipeline.json")
    assert [(c.kind, c.name) for c in history.commands] == [
        ("model_call", "ScriptedModel.complete"),
        ("activity", "lookup_order"),
        ("model_call", "ScriptedModel.complete"),
        ("activity", "search_policy"),
        ("model_call", "ScriptedModel.complete"),
    ]


# --- replay safety of the example sources (a cheap guard until `replaylint check` covers them) ---

ALLOWED_IMPORTS = {
    "__future__",
    "asyncio",
    "json",
    "examples.workflows.providers",
    "replaylint.workflows",
}


def _is_activity(node: ast.AST) -> bool:
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if isinstance(target, ast.Name) and target.id == "activity":
            return True
    return False


def _workflow_nodes(tree: ast.Module):
    """Every node on the workflow path: everything outside @activity function bodies."""
    stack = list(tree.body)
    while stack:
        node = stack.pop()
        if _is_activity(node):
            continue
        yield node
        stack.extend(ast.iter_child_nodes(node))


@pytest.mark.parametrize("name", WORKFLOW_MODULES)
def test_each_example_module_starts_with_a_docstring_and_carries_the_marker(name: str) -> None:
    tree = ast.parse((EXAMPLES / name).read_text(encoding="utf-8"))
    assert ast.get_docstring(tree)
    markers = [
        node
        for node in tree.body
        if isinstance(node, ast.Assign)
        and [t.id for t in node.targets if isinstance(t, ast.Name)] == ["__adk_workflow__"]
        and isinstance(node.value, ast.Constant)
        and node.value.value is True
    ]
    assert len(markers) == 1


@pytest.mark.parametrize("name", WORKFLOW_MODULES)
def test_example_workflow_code_imports_only_the_runtime_and_harmless_stdlib(name: str) -> None:
    tree = ast.parse((EXAMPLES / name).read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module)
    assert imported <= ALLOWED_IMPORTS


@pytest.mark.parametrize("name", WORKFLOW_MODULES)
def test_example_workflow_code_calls_services_only_through_activities(name: str) -> None:
    tree = ast.parse((EXAMPLES / name).read_text(encoding="utf-8"))
    from_providers = {
        alias.asname or alias.name
        for node in tree.body
        if isinstance(node, ast.ImportFrom) and node.module == "examples.workflows.providers"
        for alias in node.names
    }
    offending = []
    for node in _workflow_nodes(tree):
        if isinstance(node, ast.Call):
            root = node.func
            while isinstance(root, (ast.Attribute, ast.Call)):
                root = root.value if isinstance(root, ast.Attribute) else root.func
            if isinstance(root, ast.Name) and root.id in from_providers:
                offending.append(f"{name}:{node.lineno}: {ast.unparse(node.func)}")
            if (
                isinstance(root, ast.Name)
                and root.id == "asyncio"
                and ast.unparse(node.func) not in ("asyncio.gather", "asyncio.as_completed")
            ):
                offending.append(f"{name}:{node.lineno}: {ast.unparse(node.func)}")
    assert offending == []


def test_providers_is_not_a_workflow_module() -> None:
    assert "__adk_workflow__" not in (EXAMPLES / "providers.py").read_text(encoding="utf-8")


def test_fixture_descriptions_are_immutable() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        FIXTURES[0].run_id = "other"  # type: ignore[misc]
