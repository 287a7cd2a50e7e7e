"""Frameworks whose replay finds a recorded step by its key, not its place: Inngest (step ids),
Cloudflare Python Workflows (step names); and Agent Framework's functional workflows, whose
checkpoints are restored only by the code that saved them. A key added, removed or moved is
silent; the same work under a new key runs again for a run that did it (ADK-V001)."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest
from tests.versioning.repos import (
    Tables,
    body_in,
    cases_of,
    check_case,
    check_change,
)

from replaylint.presets.records import presets

INNGEST = """
from datetime import timedelta

import inngest

client = inngest.Inngest(app_id="shop")


def charge_card(order: dict) -> dict:
    return order


def reserve_stock(order: dict) -> dict:
    return order


@client.create_function(fn_id="checkout", trigger=inngest.TriggerEvent(event="shop/order"))
async def checkout(ctx: inngest.Context) -> dict:
    order = ctx.event.data
{body}
    return order
"""

CHARGE = "await ctx.step.run('charge', charge_card, order)"
RESERVE = "await ctx.step.run('reserve', reserve_stock, order)"
SLEEP = "await ctx.step.sleep('cool-off', timedelta(hours=1))"

INNGEST_CASES = {
    "step id renamed": (
        f"{CHARGE}\n{RESERVE}",
        "await ctx.step.run('charge-card', charge_card, order)  # expect: ADK-V001\n" + RESERVE,
        ["checkout: was: step charge, now: step charge-card"],
    ),
    "sleep renamed": (
        f"{CHARGE}\n{SLEEP}",
        f"{CHARGE}\nawait ctx.step.sleep('cooling-off', timedelta(hours=1))  # expect: ADK-V001",
        ["checkout: was: sleep cool-off, now: sleep cooling-off"],
    ),
    "an id now names another kind of step": (
        f"{CHARGE}\n{SLEEP}",
        f"{CHARGE}\nawait ctx.step.invoke('cool-off', function=later)  # expect: ADK-V001",
        ["checkout: was: sleep cool-off, now: invoke cool-off"],
    ),
    # Silent: memos are found by id, whatever their order; a new id runs when reached; an id no
    # longer asked for is left unused; a new id for new work is new work.
    "steps reordered": (f"{CHARGE}\n{RESERVE}", f"{RESERVE}\n{CHARGE}", []),
    "step added before the others": (CHARGE, f"{SLEEP}\n{CHARGE}", []),
    "step removed": (f"{CHARGE}\n{SLEEP}\n{RESERVE}", f"{CHARGE}\n{RESERVE}", []),
    "new work under a new id": (
        f"{CHARGE}\n{RESERVE}",
        f"{CHARGE}\nawait ctx.step.run('reserve-all', reserve_stock, order, True)",
        [],
    ),
    "id built at run time": (
        "await ctx.step.run(f\"mail-{order['id']}\", charge_card, order)",
        "await ctx.step.run(f\"email-{order['id']}\", charge_card, order)",
        [],
    ),
}


def test_inngest_function_renamed_under_its_id(tmp_path: Path) -> None:
    base = body_in(INNGEST, CHARGE)
    # The Python function renamed under the same fn_id: the same function to Inngest.
    kept = base.replace("async def checkout(", "async def place_order(")
    check_change(tmp_path, "shop.py", base, kept, [])


CLOUDFLARE = """
from workers import WorkflowEntrypoint


class {name}(WorkflowEntrypoint):{mark}
    async def run(self, event, step):
{body}
        return event
"""


def cloudflare(body: str, name: str = "Onboarding", mark: str = "") -> str:
    return body_in(CLOUDFLARE.replace("{name}", name).replace("{mark}", mark), body, " " * 8)


ACCOUNT = """
@step.do("create account")
async def create_account():
    return {"id": 1}

account = await create_account()
"""

WELCOME = """
@step.do("send welcome")
async def send_welcome():
    return "sent"

await send_welcome()
"""

GRACE = 'await step.sleep("grace period", "1 day")'

CLOUDFLARE_CASES = {
    # The same step body under a new name: an instance that created the account does again.
    "step renamed": (
        ACCOUNT + WELCOME,
        ACCOUNT.replace('"create account"', '"create user"').replace(
            "account = await create_account()",
            "account = await create_account()  # expect: ADK-V001",
        )
        + WELCOME,
        ["Onboarding: was: step create account, now: step create user"],
    ),
    "sleep renamed": (
        f"{ACCOUNT}\n{GRACE}",
        f'{ACCOUNT}\nawait step.sleep("grace", "1 day")  # expect: ADK-V001',
        ["Onboarding: was: sleep grace period, now: sleep grace"],
    ),
    # Silent: the cache is keyed by name; a new step runs when reached.
    "steps reordered": (ACCOUNT + WELCOME, WELCOME + ACCOUNT, []),
    "step added": (ACCOUNT, f"{GRACE}\n{ACCOUNT}", []),
    "step body changed": (ACCOUNT, ACCOUNT.replace('{"id": 1}', '{"id": 1, "plan": "free"}'), []),
}


def test_cloudflare_workflow_is_its_binding(tmp_path: Path) -> None:
    base = cloudflare(ACCOUNT)
    # The class renamed in place: the wrangler binding names the workflow, the class is only
    # what it runs; its steps are still compared (a changed name is reported).
    renamed = cloudflare(
        ACCOUNT.replace('"create account"', '"create user"').replace(
            "account = await create_account()",
            "account = await create_account()  # expect: ADK-V001",
        ),
        name="Signup",
    )
    check_change(
        tmp_path / "renamed",
        "onboarding.py",
        base,
        renamed,
        ["Signup: was: step create account, now: step create user"],
    )
    # The class removed, with nothing left of it: its instances have no code to run.
    removed = "# expect: ADK-V002\nfrom workers import WorkflowEntrypoint\n"
    check_change(
        tmp_path / "removed",
        "onboarding.py",
        base,
        removed,
        ["Onboarding removed, and no workflow of that name is left"],
    )


TABLES: Tables = {
    "inngest": ("shop.py", partial(body_in, INNGEST), INNGEST_CASES),
    "cloudflare": ("onboarding.py", cloudflare, CLOUDFLARE_CASES),
}


@pytest.mark.parametrize(("framework", "case"), cases_of(TABLES))
def test_a_change(framework: str, case: str, tmp_path: Path) -> None:
    check_case(TABLES, framework, case, tmp_path)


FUNCTIONAL = """
from agent_framework import RunContext, step, workflow


@step
async def fetch(url: str) -> dict:
    return {{}}


@step(name="approve_payout")
async def approve(amount: float, ctx: RunContext) -> bool:
    return await ctx.request_info({{"amount": amount}}, response_type=bool)


@workflow(name="{name}", description="{description}")
async def payout(amount: float, ctx: RunContext) -> dict:{mark}
{body}
    return {{}}
"""


def functional(body: str, name: str = "payout", description: str = "", mark: str = "") -> str:
    template = FUNCTIONAL.replace("{name}", name).replace("{description}", description)
    return body_in(template.replace("{mark}", mark), body)


STEPS = "ledger = await fetch('https://ledger.example.com')\nok = await approve(amount)"


def test_agent_framework_functional_is_pinned(tmp_path: Path) -> None:
    """A checkpoint is restored only by the code that saved it (graph_signature_hash): a changed
    workflow never replays an old run, so its steps are not compared; its name still is."""
    assert presets()["agent_framework_functional"].versioning.model == "pinned"
    reordered = "ok = await approve(amount)\nledger = await fetch('https://ledger.example.com')"
    check_change(tmp_path / "steps", "payout.py", functional(STEPS), functional(reordered), [])
    described = functional(STEPS, description="Pays out after approval")
    check_change(tmp_path / "described", "payout.py", functional(STEPS), described, [])
    renamed = functional(STEPS, name="payouts", mark="  # expect: ADK-V002")
    check_change(
        tmp_path / "renamed", "payout.py", functional(STEPS), renamed, ["was: payout, now: payouts"]
    )


def test_agent_framework_functional_steps_are_keyed_where_patching_is_forced(
    tmp_path: Path,
) -> None:
    settings = {
        "pyproject.toml": '[tool.replaylint.versioning]\nagent_framework_functional = "patching"\n'
    }
    base = functional(STEPS)
    new = base.replace("async def fetch(", "async def load(").replace(
        "ledger = await fetch(", "ledger = await load(  # expect: ADK-V001\n        "
    )
    check_change(
        tmp_path / "renamed",
        "payout.py",
        base,
        new,
        ["payout: was: step fetch, now: step load"],
        **settings,
    )
    reordered = "ok = await approve(amount)\nledger = await fetch('https://ledger.example.com')"
    check_change(tmp_path / "reordered", "payout.py", base, functional(reordered), [], **settings)


KEYED_PATHS = {
    "inngest": {"step": "inngest.Context().step.run", "sleep": "inngest.Context().step.sleep"},
    "cloudflare": {"step": "workers.WorkflowStep().do", "sleep": "workers.WorkflowStep().sleep"},
    "agent_framework_functional": {
        "request by id": "agent_framework.RunContext().request_info",
    },
}


@pytest.mark.parametrize("name", sorted(KEYED_PATHS))
def test_keyed_kinds_are_found_by_the_keys_their_replay_reads(name: str) -> None:
    """A kind matched by its key reads its target from the arguments the record's
    [[replay.keys]] names for that call: the two tables say one thing."""
    preset = presets()[name]
    facts = preset.versioning
    for kind, path in KEYED_PATHS[name].items():
        assert kind in facts.keyed
        keys = [k for k in preset.replay.keys if k.calls.matches(path)]
        assert keys, f"{name}: no [[replay.keys]] for {path}"
        assert set(facts.targets[kind]) == set(keys[0].arguments)
