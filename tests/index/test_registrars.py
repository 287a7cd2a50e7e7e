"""The registrars' pass: registrars checked in parts report what one Project holding them all
reports, even when a part's worker runs another part's class (by its name) unsandboxed."""

from __future__ import annotations

from pathlib import Path

import pytest

from replaylint.api import run
from replaylint.index import affinity
from replaylint.project.config import Resolver
from replaylint.report.selection import Selection, report_from
from replaylint.reporters import REPORTERS

FLOWS_A = (
    "from temporalio import workflow\n\n\n"
    "@workflow.defn\n"
    "class Shared:\n"
    "    @workflow.run\n"
    "    async def run(self) -> int:\n"
    "        return 1\n"
)
WORKER_A = (
    "from temporalio.worker import UnsandboxedWorkflowRunner, Worker\n\n"
    "from flows_a import Shared\n\n\n"
    "def start(client):\n"
    "    return Worker(client, workflows=[Shared], workflow_runner=UnsandboxedWorkflowRunner())\n"
)
# A registrar too (its comment names the runner), in a part of its own: another class named
# Shared, whose module state is shared by every run only because worker_a runs "Shared" so.
FLOWS_B = (
    "# Its worker runs it in the sandbox, not under UnsandboxedWorkflowRunner.\n"
    "from temporalio import workflow\n\n"
    "SEEN: dict[str, int] = {}\n\n\n"
    "@workflow.defn\n"
    "class Shared:\n"
    "    @workflow.run\n"
    "    async def run(self, key: str) -> int:\n"
    "        SEEN[key] = SEEN.get(key, 0) + 1\n"
    "        if SEEN[key] > 1:\n"
    "            return 0\n"
    "        return 1\n"
)


def _report(jobs: int) -> str:
    resolver = Resolver()
    outcome = run(["."], resolver=resolver, jobs=jobs)
    return REPORTERS["text"](report_from(outcome, Selection(resolver)))


@pytest.mark.parametrize("jobs", [1, 2])
def test_parts_report_what_one_project_reports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, checked: list[str], jobs: int
) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    for name, text in {
        "flows_a.py": FLOWS_A,
        "worker_a.py": WORKER_A,
        "flows_b.py": FLOWS_B,
    }.items():
        (tmp_path / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    whole = _report(jobs)
    assert "flows_b.py:11: ADK-W011 module state is written from the workflow path" in whole
    monkeypatch.setattr(affinity, "BATCH", 1)  # each registrar a part of its own
    checked.clear()
    assert _report(jobs) == whole
    if jobs == 1:  # the spy sees this process only: both parts, both again with the whole
        assert sorted(checked) == [
            "flows_a.py",
            "flows_b.py",
            "flows_b.py",
            "worker_a.py",
            "worker_a.py",
        ]
