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
    if jobs == 1:  # the spy sees this process only: both parts, then again with the whole
        # only flows_b's, whose class worker_a runs unsandboxed: the whole says nothing new
        # of what worker_a's part read.
        assert sorted(checked) == ["flows_a.py", "flows_b.py", "flows_b.py", "worker_a.py"]


# Not a registrar: a class named Shared too, so worker_a's unsandboxed runner reaches it by name.
# The padding makes it the largest batch, so it is handed to the second worker at once, while
# worker_a's part is still being checked: before the summary is known.
FLOWS_C = (
    '"""'
    + "A workflow whose module state is read back. " * 40
    + '"""\n\n'
    + FLOWS_B.split("\n", 1)[1]  # flows_b without the comment that makes it a registrar
)
# Its twin under another name: the sandbox gives each run its own module state.
FLOWS_D = FLOWS_C.replace("class Shared", "class Alone").replace("is read back", "is its own")


def _project(tmp_path: Path, files: dict[str, str]) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    for name, text in files.items():
        (tmp_path / name).write_text(text)


def test_batches_checked_before_the_summary_are_checked_again_when_it_reaches_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _project(
        tmp_path,
        {
            "flows_a.py": FLOWS_A,
            "worker_a.py": WORKER_A,
            "flows_c.py": FLOWS_C,
            "flows_d.py": FLOWS_D,
        },
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(affinity, "BATCH", 1)  # every candidate a batch of its own
    serial = _report(1)  # the registrars first, then the rest with their summary
    assert "flows_c.py:12: ADK-W011 module state is written from the workflow path" in serial
    assert "flows_d.py" not in serial
    assert _report(2) == serial  # flows_c checked beside worker_a, then again with its summary


def test_a_lone_part_checked_again_is_checked_in_a_worker_with_more_than_one_job(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As its first check was: a module that kills the process checking it is then reported
    as such, and never takes the run down with it. (Which of the other batches are checked
    again depends on which started before the summary was known: not asserted here.)"""
    from replaylint.index import survival

    files = {"flows_b.py": FLOWS_B}
    _project(tmp_path, {"flows_a.py": FLOWS_A, "worker_a.py": WORKER_A, **files})
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(affinity, "BATCH", 1)
    pooled: list[list[str]] = []
    surviving = survival.check_surviving

    def spied(batches: list[survival.Batch], *arguments: object, **keywords: object) -> object:
        pooled.append(sorted(Path(path).name for b in batches for path, _, _ in b.task()))
        return surviving(batches, *arguments, **keywords)  # type: ignore[arg-type]

    monkeypatch.setattr(survival, "check_surviving", spied)
    _report(2)
    assert list(files) in pooled  # the one batch the whole affects, checked again


def test_what_a_batch_checked_before_the_summary_read_tells_whether_it_stands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from replaylint.index.registrars import check_before, check_registrars
    from replaylint.project.config import Config

    _project(tmp_path, {"flows_a.py": FLOWS_A, "worker_a.py": WORKER_A, "flows_c.py": FLOWS_C})
    (tmp_path / "flows_d.py").write_text(FLOWS_D)
    monkeypatch.chdir(tmp_path)
    config = Config()

    def candidate(name: str) -> tuple[str, str, bytes]:
        return str(tmp_path / name), name, (tmp_path / name).read_bytes()

    whole = check_registrars(config, [candidate("worker_a.py")])[-1].registrations
    assert whole.unsandboxed == frozenset({"Shared"})
    for name, stands in (("flows_c.py", False), ("flows_d.py", True)):
        *records, last = check_before(config, [candidate(name)])
        assert last.kind == "registrations"
        read = last.registrations
        assert read.loaded == frozenset({str((tmp_path / name).resolve())})
        assert read.affected_by(whole) is not stands
        assert [r.path for r in records] == [str((tmp_path / name).resolve())]


# No framework import: worker_main registers `nightly`, which makes this module workflow code
# in every batch that reads it. Its chain goes to the first unsafe helper of `g` its batch
# loaded: u1's in most, u2's where u2 was imported first (flows_first).
ORCHESTRATORS = (
    "from u1 import f1\n"
    "from u2 import f2\n\n\n"
    "def g():\n"
    "    f1()\n"
    "    f2()\n\n\n"
    "def nightly(ctx, _):\n"
    "    g()\n"
    "    return 1\n"
)
DURABLETASK_WORKER = (
    "from durabletask import worker\n\n"
    "from orchestrators import nightly\n\n"
    "w = worker.TaskHubGrpcWorker()\n"
    "w.add_orchestrator(nightly)\n"
)


def _flows(name: str, first: str, helpers: int) -> str:
    # Helpers to walk make a batch slow enough that the registrars' part ends before it.
    padding = "".join(f"\n\ndef pad_{i}(x):\n    return sorted([x, {i}])\n" for i in range(helpers))
    return (
        f"from temporalio import workflow\n{first}from orchestrators import nightly\n\n\n"
        f"@workflow.defn\nclass {name}:\n    @workflow.run\n    async def run(self) -> int:\n"
        f"        return 1\n{padding}"
    )


def test_a_module_several_batches_report_is_reported_from_the_same_batch_at_any_jobs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _project(
        tmp_path,
        {
            "orchestrators.py": ORCHESTRATORS,
            "u1.py": "import time\n\n\ndef f1():\n    return time.time()\n",
            "u2.py": "from datetime import datetime\n\n\ndef f2():\n    return datetime.now()\n",
            "worker_main.py": DURABLETASK_WORKER,
            "flows_first.py": _flows("First", "import u2\n", 400),
            "flows_second.py": _flows("Second", "", 10),
        },
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(affinity, "BATCH", 1)
    serial = _report(1)
    assert "    g -> f1 (line 6) -> time.time (u1.py:5)\n" in serial
    for _ in range(3):  # flows_first is checked before the summary, flows_second after it
        assert _report(2) == serial


def test_an_edit_to_one_registrar_checks_its_own_part_again_not_its_neighbours(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, checked: list[str]
) -> None:
    from replaylint.index.cache import Cache

    workers = {  # three registrars that read no module in common: three parts
        f"{name}_worker.py": WORKER_A.replace("flows_a", f"{name}_flows")
        for name in ("a", "b", "c")
    }
    flows = {f"{name}_flows.py": FLOWS_A for name in ("a", "b", "c")}
    _project(tmp_path, {**workers, **flows})
    monkeypatch.chdir(tmp_path)
    cache = Cache(tmp_path / ".cache")
    resolver = Resolver()
    first = REPORTERS["text"](
        report_from(run(["."], resolver=resolver, cache=cache), Selection(resolver))
    )
    edited = tmp_path / "b_worker.py"
    edited.write_text(edited.read_text() + "# edited\n")
    checked.clear()
    again = REPORTERS["text"](
        report_from(run(["."], resolver=resolver, cache=cache), Selection(resolver))
    )
    assert again == first
    assert checked == ["b_worker.py"]


def test_parts_packed_in_a_batch_share_one_collector_batch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each part of a batch is checked on a Project of its own, but no full collector pass is
    taken between them (each costs 20-30 ms whatever it frees): at most one, before the first."""
    import gc

    from replaylint.index.registrars import check_parts
    from replaylint.parse import kept
    from replaylint.project.config import Config

    _project(tmp_path, {f"{n}_worker.py": WORKER_A.replace("flows_a", f"{n}_flows") for n in "abc"})
    batch = [(str(p), p.name, p.read_bytes()) for p in sorted(tmp_path.glob("*_worker.py"))]
    passes: list[int] = []

    class Counting:
        def __getattr__(self, name: str) -> object:
            return getattr(gc, name)

        def collect(self, *args: int) -> int:
            passes.append(1)
            return gc.collect(*args)

    monkeypatch.setattr(kept, "gc", Counting())
    monkeypatch.chdir(tmp_path)
    before = gc.get_freeze_count()
    gc.unfreeze()
    kept.wanted(True)
    try:
        with kept.batch():  # an earlier batch: what it leaves is owed a pass
            kept.loaded()
        passes.clear()  # (and any an earlier test's batches owed)
        records = check_parts(Config(), batch, None, tuple(frozenset({c[0]}) for c in batch))
    finally:
        kept.wanted(False)
        gc.unfreeze()
        if before:
            gc.freeze()
    assert [r.display for r in records if r.display] == [c[1] for c in batch]
    assert len(passes) == 1
