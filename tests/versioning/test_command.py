"""`replaylint check --base REF` as a user runs it: findings with the check's own, SARIF
rules, exit status, refs git accepts, files named one by one, and a repository left as it was."""

from __future__ import annotations

import json
import os
from pathlib import Path

from click.testing import CliRunner
from tests.versioning.repos import git, inside, repository

from replaylint.cli.main import cli

FLOW = """
import time
from datetime import timedelta

from temporalio import workflow

from shop.steps import prepare


@workflow.defn
class Checkout:
    @workflow.run
    async def run(self) -> None:
        await prepare()
        await workflow.execute_activity("{activity}", start_to_close_timeout=timedelta(seconds=5))
"""

STEPS = """
from temporalio import workflow


async def prepare() -> None:
    await workflow.execute_activity("{activity}", start_to_close_timeout=workflow.timedelta(1))
"""


def _repo(tmp_path: Path) -> Path:
    root = repository(
        tmp_path / "repo",
        {
            "shop/__init__.py": "",
            "shop/flow.py": FLOW.format(activity="charge"),
            "shop/steps.py": STEPS.format(activity="reserve"),
        },
        {},
    )
    git(root, "commit", "-q", "--allow-empty", "-m", "second")
    return root


def test_findings_exit_status_and_sarif(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    (root / "shop/steps.py").write_text(STEPS.format(activity="audit").lstrip(), encoding="utf-8")
    with inside(root):
        result = CliRunner().invoke(cli, ["check", "--base", "HEAD~1", "-q"])
        assert result.exit_code == 1, result.output
        assert result.output.startswith("shop/steps.py:5: ADK-V001 ")
        assert "was: activity reserve, now: activity audit" in result.output
        sarif = CliRunner().invoke(cli, ["check", "--base", "HEAD", "--output-format", "sarif"])
        rules = {r["id"] for r in json.loads(sarif.output)["runs"][0]["tool"]["driver"]["rules"]}
        assert {"ADK-V001", "ADK-V002", "ADK-V003", "ADK-V004"} <= rules
        ignored = CliRunner().invoke(cli, ["check", "--base", "HEAD", "--ignore", "ADK-V001"])
        assert ignored.exit_code == 0, ignored.output
        # Files named one by one (pre-commit): the workflow that reaches the helper is compared.
        named = CliRunner().invoke(cli, ["check", "--base", "HEAD", "shop/steps.py", "-q"])
        assert "shop/steps.py:5: ADK-V001" in named.output
        # Without --base nothing of this runs.
        assert CliRunner().invoke(cli, ["check", "-q"]).exit_code == 0


def test_a_ref_git_does_not_know_is_exit_2(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    with inside(root):
        result = CliRunner().invoke(cli, ["check", "--base", "no-such-branch"])
    assert result.exit_code == 2
    assert "--base no-such-branch: no such commit" in result.output


def test_the_working_tree_and_the_index_are_left_alone(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    (root / "shop/flow.py").write_text(FLOW.format(activity="refund").lstrip(), encoding="utf-8")
    index = root / ".git" / "index"
    status = git(root, "status", "--porcelain")  # git status itself may refresh the index
    before = (index.read_bytes(), os.stat(index).st_mtime_ns)
    with inside(root):
        result = CliRunner().invoke(cli, ["check", "--base", "HEAD~1", "--no-cache", "-q"])
    assert "shop/flow.py:14: ADK-V001" in result.output
    assert (index.read_bytes(), os.stat(index).st_mtime_ns) == before
    assert git(root, "status", "--porcelain") == status
    assert (root / "shop/flow.py").read_text().count("refund") == 1
