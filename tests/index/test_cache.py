"""The project index and its cache: a warm run reports exactly what a cold one does, an edit
recomputes what depends on it and nothing else, and no state of the cache folder (corrupt,
truncated, older, newer, written concurrently) changes a result. Parallel runs equal serial."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from replaylint.api import run
from replaylint.index import affinity
from replaylint.index.cache import SCHEMA, Cache
from replaylint.project.config import Resolver
from replaylint.report.selection import Selection, report_from
from replaylint.reporters import REPORTERS

HELPER = "import random\n\n\ndef jitter():\n    return random.uniform(0, 1)\n"
SAFE_HELPER = "def jitter():\n    return 0.5\n"
WORKFLOW = (
    "from temporalio import workflow\n"
    "from helpers import jitter\n\n\n"
    "@workflow.defn\n"
    "class Flow{n}:\n"
    "    @workflow.run\n"
    "    async def run(self) -> float:\n"
    "        return jitter()\n"
)
MARKED = (
    "import time\n"
    "__adk_workflow__ = True\n\n\n"
    "def run():\n"
    "    return time.time()  # replaylint: ignore[ADK-W002] -- not this code\n"
)
# durabletask: worker.py makes orchestrators.py's function an orchestrator from outside.
ORCHESTRATORS = "import uuid\n\n\ndef nightly(ctx, _):\n    return str(uuid.uuid4())\n"
WORKER = (
    "from durabletask import worker\n"
    "from orchestrators import nightly\n\n"
    "w = worker.TaskHubGrpcWorker()\n"
    "w.add_orchestrator(nightly)\n"
)


def _tree(root: Path, workflows: int = 3) -> None:
    (root / "helpers.py").write_text(HELPER)
    for n in range(workflows):
        (root / f"flow{n}.py").write_text(WORKFLOW.format(n=n))
    (root / "marked.py").write_text(MARKED)
    (root / "broken.py").write_text("__adk_workflow__ = True\ndef run(:\n")
    (root / "orchestrators.py").write_text(ORCHESTRATORS)
    (root / "worker.py").write_text(WORKER)
    (root / "plain.py").write_text("def add(a, b):\n    return a + b\n")


def _check(cache: Cache | None, jobs: int = 1, paths: tuple[str, ...] = (".",)) -> str:
    resolver = Resolver()
    outcome = run(list(paths), resolver=resolver, cache=cache, jobs=jobs)
    report = report_from(outcome, Selection(resolver))
    return REPORTERS["text"](report) + REPORTERS["json"](report)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    _tree(root)
    monkeypatch.chdir(root)
    return root


def test_a_warm_run_reports_byte_for_byte_what_a_cold_run_does(project: Path, tmp_path: Path):
    uncached = _check(None)
    cache = Cache(tmp_path / "cache")
    assert _check(cache) == uncached
    assert _check(cache) == uncached
    assert "flow0.py:9: ADK-W005" in uncached  # the chain through helpers.py
    assert "orchestrators.py:5: ADK-W002" in uncached  # registered from worker.py
    assert "marked.py:6: ADK-S001" in uncached
    assert "broken.py:2: ADK-E001" in uncached


def test_an_unchanged_tree_is_not_checked_again(project: Path, tmp_path: Path, checked):
    cache = Cache(tmp_path / "cache")
    _check(cache)
    assert "flow0.py" in checked
    checked.clear()
    _check(cache)
    assert checked == []


def test_an_edited_workflow_is_the_only_module_checked_again(
    project: Path, tmp_path: Path, checked
):
    cache = Cache(tmp_path / "cache")
    _check(cache)
    checked.clear()
    (project / "flow1.py").write_text(WORKFLOW.format(n=1) + "\n\n# edited\n")
    _check(cache)
    # worker.py registers functions of other files: what it registers is the index's summary
    # while the files it reaches are unchanged, so it is not read again.
    assert checked == ["flow1.py"]


def test_a_helper_edit_rechecks_the_workflows_that_reach_it(project: Path, tmp_path: Path, checked):
    cache = Cache(tmp_path / "cache")
    before = _check(cache)
    checked.clear()
    (project / "helpers.py").write_text(SAFE_HELPER)
    after = _check(cache)
    assert sorted(checked) == ["flow0.py", "flow1.py", "flow2.py"]
    assert "ADK-W005" in before and "ADK-W005" not in after
    assert after == _check(None)


def test_an_edit_a_registrar_reaches_reads_the_registrars_again(
    project: Path, tmp_path: Path, checked
):
    cache = Cache(tmp_path / "cache")
    _check(cache)
    checked.clear()
    (project / "orchestrators.py").write_text(ORCHESTRATORS.replace("uuid.uuid4()", "'fixed'"))
    after = _check(cache)
    # worker.py imports orchestrators.py: its summary (and its record) depend on it.
    assert sorted(checked) == ["worker.py"]
    assert "orchestrators.py:5: ADK-W002" not in after
    assert after == _check(None)


def test_a_registrar_edit_that_registers_the_same_rechecks_it_alone(
    project: Path, tmp_path: Path, checked
):
    cache = Cache(tmp_path / "cache")
    _check(cache)
    checked.clear()
    (project / "worker.py").write_text(WORKER + "\n# started by the deploy script\n")
    after = _check(cache)
    # Its part is checked again; what it registers is what it did, so no other record changes.
    assert checked == ["worker.py"]
    assert after == _check(None)


def test_a_registrar_edit_checks_its_own_part_and_merges_the_others(
    project: Path, tmp_path: Path, checked, monkeypatch: pytest.MonkeyPatch
):
    weekly = WORKER.replace("orchestrators", "weekly_jobs").replace("nightly", "weekly")
    (project / "weekly_jobs.py").write_text(ORCHESTRATORS.replace("nightly", "weekly"))
    (project / "weekly_worker.py").write_text(weekly)
    monkeypatch.setattr(affinity, "BATCH", 1)  # each registrar a part of its own
    cache = Cache(tmp_path / "cache")
    before = _check(cache)
    assert "weekly_jobs.py:5: ADK-W002" in before and "orchestrators.py:5: ADK-W002" in before
    checked.clear()
    (project / "weekly_worker.py").write_text(weekly + "\n# edited\n")
    after = _check(cache)
    assert checked == ["weekly_worker.py"]  # worker.py's part: its stored summary, merged
    assert after == before == _check(None)


def test_registrars_are_read_once_whatever_the_batches(
    project: Path, checked, monkeypatch: pytest.MonkeyPatch
):
    for n in range(3, 9):
        (project / f"flow{n}.py").write_text(WORKFLOW.format(n=n))
    monkeypatch.setattr(affinity, "BATCH", 3)
    report = _check(None, jobs=1)
    assert checked.count("worker.py") == 1
    assert len([c for c in checked if c.startswith("flow")]) == 9
    assert "orchestrators.py:5: ADK-W002" in report  # registered in a batch without worker.py


def test_a_registration_change_is_seen_in_the_module_it_registered(project: Path, tmp_path: Path):
    cache = Cache(tmp_path / "cache")
    assert "orchestrators.py:5: ADK-W002" in _check(cache)
    (project / "worker.py").write_text(WORKER.replace("w.add_orchestrator(nightly)\n", ""))
    after = _check(cache)
    assert "orchestrators.py" not in after
    assert after == _check(None)


def test_an_added_file_invalidates_what_may_now_import_it(project: Path, tmp_path: Path):
    (project / "flow0.py").write_text(WORKFLOW.format(n=0).replace("helpers", "later"))
    cache = Cache(tmp_path / "cache")
    assert "flow0.py:9" not in _check(cache)  # `later` is not there yet: nothing to follow
    (project / "later.py").write_text(HELPER)
    after = _check(cache)
    assert "flow0.py:9: ADK-W005" in after
    assert after == _check(None)


@pytest.mark.parametrize("damage", ["truncated", "corrupt", "other key", "not an object"])
def test_a_damaged_index_is_dropped_and_rebuilt(project: Path, tmp_path: Path, damage: str):
    cache = Cache(tmp_path / "cache")
    expected = _check(cache)
    (index,) = (tmp_path / "cache" / f"v{SCHEMA}").glob("*.json")
    text = index.read_text()
    damaged = {
        "truncated": text[: len(text) // 2],
        "corrupt": "\x00\xff" + text,
        "other key": json.dumps({**json.loads(text), "key": "elsewhere"}),
        "not an object": "[1, 2, 3]",
    }[damage]
    index.write_text(damaged)
    assert _check(cache) == expected
    assert json.loads(index.read_text())["schema"] == SCHEMA  # rebuilt
    assert _check(cache) == expected


def test_a_newer_cache_is_left_alone_and_an_older_one_dropped(project: Path, tmp_path: Path):
    root = tmp_path / "cache"
    newer = root / f"v{SCHEMA + 1}"
    newer.mkdir(parents=True)
    (newer / "index.json").write_text('{"schema": 99, "findings": "not yours"}')
    older = root / f"v{SCHEMA - 1}"
    older.mkdir()
    (older / "stale.json").write_text("{}")
    expected = _check(None)
    assert _check(Cache(root)) == expected
    assert (newer / "index.json").read_text() == '{"schema": 99, "findings": "not yours"}'
    assert not older.exists()
    assert (root / ".gitignore").read_text().splitlines()[-1] == "*"
    assert (
        (root / "CACHEDIR.TAG")
        .read_text()
        .startswith("Signature: 8a477f597d28d172789f06886806bc55")
    )


def test_an_entry_of_another_schema_is_never_read(project: Path, tmp_path: Path):
    cache = Cache(tmp_path / "cache")
    expected = _check(cache)
    (index,) = (tmp_path / "cache" / f"v{SCHEMA}").glob("*.json")
    data = json.loads(index.read_text())
    data["schema"] = SCHEMA + 1
    for record in data["records"].values():
        record["findings"] = []  # were it read, the findings would vanish
    index.write_text(json.dumps(data))
    assert _check(cache) == expected


def test_concurrent_runs_on_one_cache_all_report_the_same(project: Path, tmp_path: Path):
    expected = _check(None)
    script = (
        "import sys\n"
        "from replaylint.api import run\n"
        "from replaylint.index.cache import Cache\n"
        "from replaylint.project.config import Resolver\n"
        "from replaylint.reporters import REPORTERS\n"
        "from replaylint.report.selection import Selection, report_from\n"
        "r = Resolver()\n"
        "o = run(['.'], resolver=r, cache=Cache(sys.argv[1]))\n"
        "rep = report_from(o, Selection(r))\n"
        "sys.stdout.write(REPORTERS['text'](rep) + REPORTERS['json'](rep))\n"
    )
    cache_dir = str(tmp_path / "shared")
    outputs = []
    for _ in range(2):  # a cold race, then a warm one
        runs = [
            subprocess.Popen(
                [sys.executable, "-c", script, cache_dir], stdout=subprocess.PIPE, text=True
            )
            for _ in range(4)
        ]
        outputs += [process.communicate()[0] for process in runs]
    assert outputs == [expected] * 8
    assert not [p for p in Path(cache_dir).rglob("*.tmp")]  # no half-written entry left


def test_parallel_batches_report_exactly_what_a_serial_run_does(
    project: Path, monkeypatch: pytest.MonkeyPatch
):
    for n in range(3, 9):
        (project / f"flow{n}.py").write_text(WORKFLOW.format(n=n))
    monkeypatch.setattr(affinity, "BATCH", 3)  # several batches (the forked workers inherit it)
    serial = _check(None, jobs=1)
    assert _check(None, jobs=2) == serial
    assert serial.count(": ADK-W005 ") == 9  # one per workflow, in the text report
    assert "orchestrators.py:5: ADK-W002" in serial  # what its registrar registers, everywhere


def test_named_files_see_their_dependents_through_the_cache(project: Path, tmp_path: Path):
    cache = Cache(tmp_path / "cache")
    _check(cache)
    (project / "helpers.py").write_text(HELPER.replace("uniform(0, 1)", "random()"))
    named = _check(cache, paths=("helpers.py",))
    assert named == _check(None, paths=("helpers.py",))
    assert "flow2.py:9: ADK-W005" in named
    assert "marked.py" not in named  # does not reach helpers.py


def test_the_default_location_is_the_project_root(project: Path, monkeypatch):
    from replaylint.index.cache import default_root

    (project / "sub").mkdir()
    monkeypatch.chdir(project / "sub")
    monkeypatch.delenv("REPLAYLINT_CACHE_DIR", raising=False)
    assert default_root() == project / ".replaylint_cache"
    monkeypatch.setenv("REPLAYLINT_CACHE_DIR", str(project / "elsewhere"))
    assert default_root() == project / "elsewhere"


def test_an_unwritable_cache_is_not_an_error(project: Path, tmp_path: Path):
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the folder would go")
    assert _check(Cache(blocked / "cache")) == _check(None)
    assert os.path.isfile(blocked)


def test_reading_a_large_tree_over_processes_decides_as_one_process_does(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from replaylint.index import scanning

    (project / "unreadable.py").mkdir()  # a folder named like a module is skipped, not read
    for n in range(3, 6):
        (project / f"flow{n}.py").write_text(WORKFLOW.format(n=n))
    serial = _check(None, jobs=1)
    monkeypatch.setattr(scanning, "PARALLEL_FILES", 2)  # the forked readers inherit it
    assert _check(None, jobs=2) == serial
    cache = Cache(tmp_path / "cache")
    assert _check(cache, jobs=2) == serial
    assert _check(cache, jobs=2) == serial  # warm: what the readers learnt was remembered


def test_a_followed_package_is_part_of_the_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from replaylint.index.project_index import settings_key
    from replaylint.project.config import Config

    package = tmp_path / "site" / "acme_sdk"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("def now():\n    return 1\n")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    followed = Config(follow=("acme_sdk",))
    before = settings_key(followed)
    assert settings_key(followed) == before
    os.utime(package / "__init__.py", ns=(1, 1))  # an upgrade rewrites its files
    assert settings_key(followed) != before
    assert settings_key(Config()) == settings_key(Config())


def test_a_warm_report_still_knows_what_its_fixes_need(tmp_path: Path, monkeypatch) -> None:
    from replaylint.fixes import plan

    monkeypatch.chdir(tmp_path)
    (tmp_path / "flow.py").write_text(
        "import time\nfrom temporalio import workflow\n\n\n@workflow.defn\nclass Flow:\n"
        "    @workflow.run\n    async def run(self) -> float:\n        return time.time()\n"
    )
    cache = Cache(tmp_path / "cache")

    def fixed() -> str:
        resolver = Resolver()
        report = report_from(run(["."], resolver=resolver, cache=cache), Selection(resolver))
        return plan(report, unsafe=False)["flow.py"].new

    cold = fixed()
    assert "return workflow.time()" in cold
    assert fixed() == cold  # from the cache: the finding's FixRef came back with it
