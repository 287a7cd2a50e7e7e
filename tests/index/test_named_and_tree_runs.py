"""A run that names files (pre-commit's, an editor's) and a run of the tree (`check .`, CI)
share one index: neither checks again what the other stored while nothing changed, though
one reaches the files by absolute paths and the other by relative ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from replaylint.api import run
from replaylint.index.cache import Cache
from replaylint.project.config import Resolver
from replaylint.report.selection import Selection, report_from
from replaylint.reporters import REPORTERS

FLOWS = (
    "import random\n\n"
    "from temporalio import workflow\n\n\n"
    "@workflow.defn\n"
    "class Draw:\n"
    "    @workflow.run\n"
    "    async def run(self) -> float:\n"
    "        return random.random()\n"
)
WORKER = (  # a registrar: its record and summary come from the registrars' pass
    "from temporalio.worker import UnsandboxedWorkflowRunner, Worker\n\n"
    "from flows import Draw\n\n\n"
    "def start(client):\n"
    "    runner = UnsandboxedWorkflowRunner()\n"
    "    return Worker(client, task_queue='q', workflows=[Draw], workflow_runner=runner)\n"
)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (tmp_path / "flows.py").write_text(FLOWS)
    (tmp_path / "worker.py").write_text(WORKER)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _report(paths: list[str], cache: Cache | None) -> str:
    resolver = Resolver()
    outcome = run(paths, resolver=resolver, cache=cache)
    return REPORTERS["text"](report_from(outcome, Selection(resolver)))


@pytest.mark.parametrize(
    ("first", "then"),
    [(["."], ["flows.py"]), (["flows.py"], ["."]), (["worker.py"], ["flows.py", "worker.py"])],
)
def test_each_kind_of_run_reuses_what_the_other_stored(
    project: Path, checked: list[str], first: list[str], then: list[str]
) -> None:
    cache = Cache(project / ".cache")
    _report(first, cache)
    assert sorted(checked) == ["flows.py", "worker.py"]  # cold: both parsed and walked
    checked.clear()
    warm = _report(then, cache)
    assert checked == []
    assert warm == _report(then, None)
    assert warm.startswith(
        "flows.py:10: ADK-W002 [*] a random value or id is drawn on the workflow path"
        " (random.random)\n"
    )


def test_an_edit_seen_by_a_named_run_is_not_checked_again_by_the_tree_run(
    project: Path, checked: list[str]
) -> None:
    cache = Cache(project / ".cache")
    _report(["."], cache)
    (project / "flows.py").write_text(FLOWS.replace("random.random()", "0.5"))
    checked.clear()
    _report(["flows.py"], cache)
    assert sorted(checked) == ["flows.py", "worker.py"]  # the worker reads the workflow
    checked.clear()
    tree = _report(["."], cache)
    assert checked == []
    assert tree == _report(["."], None)
    assert "ADK-W002" not in tree


def test_a_module_two_batches_give_a_record_is_stored_as_it_was_reported(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first record of a module is the one reported; the index keeps that one, not the
    last, so a warm run reports what the cold one did (dapr-agents: a later batch's record of
    its durable agent, read inside an import cycle, held fewer findings)."""
    import dataclasses

    from replaylint.index import batches

    compute = batches._compute

    def and_a_poorer_record(*args, **kwargs):  # type: ignore[no-untyped-def]
        records = compute(*args, **kwargs)
        poorer = [dataclasses.replace(r, findings=[]) for r in records if r.findings]
        return records + poorer

    monkeypatch.setattr(batches, "_compute", and_a_poorer_record)
    cache = Cache(project / "cache")
    cold = _report(["."], cache)
    assert "flows.py:10: ADK-W002" in cold
    assert _report(["."], cache) == cold
