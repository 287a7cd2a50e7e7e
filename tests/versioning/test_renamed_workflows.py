"""A workflow renamed where runs in flight look it up by its name (ADK-V002, on its def line):
a Hatchet task's name, a Resonate function's version, a Prefect flow's name, an Agent Framework
orchestrator's function name, an Inngest function's fn_id. What each framework finds by
another name (Cloudflare's binding, a registration's name, a node's name) is in its own file."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.versioning.repos import body_in, check_renamed
from tests.versioning.test_keyed_frameworks import CHARGE, INNGEST
from tests.versioning.test_positional_frameworks import HATCHET
from tests.versioning.test_resonate_prefect_agents import PREFECT, RESONATE, RUN, agents

RENAMES = {
    "hatchet task": (
        "settle.py",
        body_in(HATCHET, "await fetch_rates.aio_run(input)"),
        ('durable_task(name="settle")', 'durable_task(name="settle-v2")'),
        "async def settle(",
        "was: settle, now: settle-v2",
    ),
    # Promises of version 1 find no function left to resume.
    "resonate version bumped": (
        "quote.py",
        body_in(RESONATE, "amount = await ctx.run(price, sku)"),
        ("version=1)", "version=2)"),
        "async def quote(",
        "was: quote (version 1), now: quote (version 2)",
    ),
    "prefect flow": (
        "reports.py",
        body_in(PREFECT, "suspend_flow_run(timeout=3600)"),
        ('flow(name="monthly"', 'flow(name="monthly-report"'),
        "def monthly(",
        "was: monthly, now: monthly-report",
    ),
    "agent framework orchestrator": (
        "app.py",
        agents(RUN),
        ("def brief(", "def daily_brief("),
        "def daily_brief(",
        "was: brief, now: daily_brief",
    ),
    "inngest function id": (
        "shop.py",
        body_in(INNGEST, CHARGE),
        ('fn_id="checkout"', 'fn_id="checkout-v2"'),
        "async def checkout(",
        "was: checkout, now: checkout-v2",
    ),
}


@pytest.mark.parametrize("case", sorted(RENAMES))
def test_a_rename(case: str, tmp_path: Path) -> None:
    check_renamed(tmp_path, *RENAMES[case])
