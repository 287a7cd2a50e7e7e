"""A branch's own commands compared arm by arm (a replay of a run that took the else arm meets
the else arm's command), the targets a conditional expression or a model call names, and where
a run of the base ends (a continue-as-new moved out of its loop changes no run in flight)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.versioning.repos import body_in, check_change
from tests.versioning.test_frameworks import DURABLETASK, dbos, runtime
from tests.versioning.test_temporal import CHARGE, NOTIFY, RESERVE, module

IF_ELSE = "if order == 'x':\n    {first}\nelse:\n    {second}"


def if_else(first: str, second: str) -> str:
    return IF_ELSE.format(first=first, second=second)


WAS_RESERVE = "Checkout: was: activity reserve_stock, now: activity notify"
TEMPORAL = {
    "else arm's activity changed": (
        if_else(CHARGE, RESERVE),
        if_else(CHARGE, NOTIFY + "  # expect: ADK-V001"),
        [WAS_RESERVE],
    ),
    "if arm's activity changed": (
        if_else(RESERVE, CHARGE),
        if_else(NOTIFY + "  # expect: ADK-V001", CHARGE),
        [WAS_RESERVE],
    ),
    "else arm gains a command before its own": (
        if_else(CHARGE, RESERVE),
        if_else(CHARGE, NOTIFY + "  # expect: ADK-V001\n    " + RESERVE),
        [WAS_RESERVE],
    ),
    "an else arm added where the base fell through": (
        f"if order == 'x':\n    {CHARGE}\n{RESERVE}",
        if_else(CHARGE, NOTIFY + "  # expect: ADK-V001") + "\n" + RESERVE,
        [WAS_RESERVE],
    ),
    "both arms as they were, the condition changed": (
        if_else(CHARGE, RESERVE),
        if_else(CHARGE, RESERVE).replace("'x'", "'y'"),
        [],
    ),
    "a conditional expression's alternative changed": (
        "await workflow.execute_activity(charge_card if order else reserve, order, "
        "start_to_close_timeout=T)",
        "await workflow.execute_activity(charge_card if order else notify, order, "
        "start_to_close_timeout=T)  # expect: ADK-V001",
        [WAS_RESERVE],
    ),
    # A target the run chooses (its input, kept in a local or in `self`) is compared by kind:
    # the name of what holds it says nothing of the activity.
    "a local holding the run's input renamed": (
        "tool = order\nawait workflow.execute_activity(tool, order, start_to_close_timeout=T)",
        "name = order\nawait workflow.execute_activity(name, order, start_to_close_timeout=T)",
        [],
    ),
    "the input moved from self to a local": (
        "self.tool = order\n"
        "await workflow.execute_activity(self.tool, order, start_to_close_timeout=T)",
        "name = order\nawait workflow.execute_activity(name, order, start_to_close_timeout=T)",
        [],
    ),
    # Compared by kind, an activity added beside it is still an activity more.
    "an activity added beside a run-time target": (
        "await workflow.execute_activity(order, order, start_to_close_timeout=T)",
        NOTIFY
        + "\nawait workflow.execute_activity(order, order, start_to_close_timeout=T)"
        + "  # expect: ADK-V001",
        ["Checkout: was: nothing (the workflow ends), now: activity (chosen at run time)"],
    ),
}


@pytest.mark.parametrize("case", sorted(TEMPORAL))
def test_temporal_branches(case: str, tmp_path: Path) -> None:
    base, new, details = TEMPORAL[case]
    check_change(tmp_path, "flows.py", module(base), module(new), details)


def test_a_dbos_else_arm_changed(tmp_path: Path) -> None:
    base = dbos(if_else("charge(order)", "reserve(order)"))
    new = dbos(if_else("charge(order)", "charge(order)  # expect: ADK-V001"))
    details = ["checkout: was: step reserve, now: step charge_card"]
    check_change(tmp_path, "shop.py", base, new, details)


def test_a_durabletask_else_arm_changed(tmp_path: Path) -> None:
    arms = lambda second: if_else("yield ctx.call_activity(hello, input='a')", second)  # noqa: E731
    base = body_in(DURABLETASK, arms("yield ctx.call_activity(hello, input='b')"))
    new = body_in(DURABLETASK, arms("yield ctx.call_activity(bye, input='b')  # expect: ADK-V001"))
    details = ["sequence: was: activity hello, now: activity bye"]
    check_change(tmp_path, "orchestration.py", base, new, details)


def test_a_runtime_else_arm_changed(tmp_path: Path) -> None:
    base = runtime(if_else("authorize('t')", "capture('t')"))
    new = runtime(if_else("authorize('t')", "authorize('t')  # expect: ADK-V001"))
    details = ["run: was: activity capture, now: activity authorize_card"]
    check_change(tmp_path, "pay.py", base, new, details)


LOCAL_MODELS = """
from replaylint.workflows import RunContext, model_call_activity

__adk_workflow__ = True


class Messages:
    def create(self, **kw):
        return {{}}


class Completions:
    def create(self, **kw):
        return {{}}


class Claude:
    messages = Messages()


class Gpt:
    completions = Completions()


claude, gpt = Claude(), Gpt()


def run(ctx: RunContext, order: str) -> str:
{body}
    return order
"""

MODEL_CALLS = {
    # The runtime records a model call under its callable's __qualname__, as an activity's name.
    "methods of local classes": (
        LOCAL_MODELS,
        "model_call_activity(claude.messages.create, model='m')",
        "model_call_activity(gpt.completions.create, model='m')  # expect: ADK-V001",
        "run: was: model call Messages.create, now: model call Completions.create",
    ),
    "local functions": (
        LOCAL_MODELS.replace(
            "class Messages", "def ask(**kw):\n    return {{}}\n\n\nclass Messages"
        ),
        "model_call_activity(ask, model='m')",
        "model_call_activity(claude.messages.create, model='m')  # expect: ADK-V001",
        "run: was: model call ask, now: model call Messages.create",
    ),
}


@pytest.mark.parametrize("case", sorted(MODEL_CALLS))
def test_a_model_call_is_compared_by_its_target(case: str, tmp_path: Path) -> None:
    template, base, new, detail = MODEL_CALLS[case]
    check_change(tmp_path, "agent.py", body_in(template, base), body_in(template, new), [detail])


def test_the_same_model_call_with_other_arguments_is_silent(tmp_path: Path) -> None:
    base = body_in(LOCAL_MODELS, "model_call_activity(claude.messages.create, model='m')")
    new = body_in(LOCAL_MODELS, "model_call_activity(claude.messages.create, model='n')")
    check_change(tmp_path, "agent.py", base, new, [])


RETRIES = """
for attempt in range(10):
    try:
        return await workflow.execute_activity(charge_card, order, start_to_close_timeout=T)
    except Exception:
        pass
    await asyncio.sleep(1)
"""


def test_continue_as_new_moved_out_of_its_loop_is_silent(tmp_path: Path) -> None:
    # Each turn of the base's loop ended the run: no run in flight has a second turn's
    # commands, and after the move its first turn records what the base's did.
    base = RETRIES + "    workflow.continue_as_new(order)\nraise RuntimeError('failed')"
    new = RETRIES + "workflow.continue_as_new(order)"
    head = "import asyncio\n"
    check_change(tmp_path, "flows.py", head + module(base), head + module(new), [])


def test_a_command_added_before_continue_as_new_is_fresh_work(tmp_path: Path) -> None:
    # A run in flight has not yet continued as new: what comes before that is past its history.
    base = RETRIES + "    workflow.continue_as_new(order)"
    new = RETRIES + "    " + NOTIFY + "\n    workflow.continue_as_new(order)"
    head = "import asyncio\n"
    check_change(tmp_path, "flows.py", head + module(base), head + module(new), [])


def test_continue_as_new_removed_is_reported_on_the_def_line(tmp_path: Path) -> None:
    # The new code never continues as new: a run the base continued, replayed whole (a query
    # of the closed run, the framework's replayer over its history), would complete instead.
    base = f"{CHARGE}\nworkflow.continue_as_new(order)"
    new = module(CHARGE, mark="  # expect: ADK-V001")
    detail = "Checkout: was: continue-as-new, now: nothing (the workflow ends)"
    check_change(tmp_path, "flows.py", module(base), new, [detail])
