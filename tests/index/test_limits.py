"""What a container allows a run: CPUs and memory read from cgroup v1 and v2 files (fake trees
here), the worker count they give, and the module too large for the memory there is, reported
as ADK-E001 before anything is parsed."""

from __future__ import annotations

from pathlib import Path

import pytest

from replaylint import guard
from replaylint.index import batches, limits, pools

V2 = "0::/ci/job\n"
V1 = "5:cpu,cpuacct:/docker/abc\n4:memory:/docker/abc\n0::/\n"


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


@pytest.fixture
def v2(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "cgroup"
    _write(
        root,
        {
            "cgroup.controllers": "cpu memory\n",
            "memory.max": "max\n",
            "ci/memory.max": "2147483648\n",
            "ci/job/memory.max": "max\n",
            "ci/job/cpu.max": "150000 100000\n",
            "ci/job/memory.events": "low 0\nhigh 0\nmax 3\noom 2\noom_kill 2\n",
        },
    )
    proc = tmp_path / "proc_cgroup"
    proc.write_text(V2)
    return root, proc


def test_v2_limits_are_the_tightest_along_the_hierarchy(v2: tuple[Path, Path]) -> None:
    root, proc = v2
    assert limits.memory_limit(root, proc) == 2 * 1024**3  # the parent's limit applies
    assert limits.cpu_quota(root, proc) == 2  # 1.5 CPUs: two processes keep them busy
    assert limits.oom_kills(root, proc) == 2


def test_v1_limits_and_the_container_view_of_its_own_root(tmp_path: Path) -> None:
    root = tmp_path / "cgroup"
    # Inside the container the host's path (/docker/abc) is not mounted: the root stands for it.
    _write(
        root,
        {
            "memory/memory.limit_in_bytes": "536870912\n",
            "memory/memory.oom_control": "oom_kill_disable 0\nunder_oom 0\noom_kill 5\n",
            "cpu,cpuacct/cpu.cfs_quota_us": "100000\n",
            "cpu,cpuacct/cpu.cfs_period_us": "100000\n",
        },
    )
    proc = tmp_path / "proc_cgroup"
    proc.write_text(V1)
    assert limits.memory_limit(root, proc) == 512 * 1024**2
    assert limits.cpu_quota(root, proc) == 1
    assert limits.oom_kills(root, proc) == 5


def test_no_limit_reads_as_none(tmp_path: Path) -> None:
    root = tmp_path / "cgroup"
    _write(
        root,
        {
            "memory/memory.limit_in_bytes": "9223372036854771712\n",
            "cpu,cpuacct/cpu.cfs_quota_us": "-1\n",
            "cpu,cpuacct/cpu.cfs_period_us": "100000\n",
        },
    )
    proc = tmp_path / "proc_cgroup"
    proc.write_text(V1)
    assert limits.memory_limit(root, proc) is None
    assert limits.cpu_quota(root, proc) is None
    assert limits.cpu_quota(tmp_path / "none", tmp_path / "missing") is None


def test_the_worker_count_respects_the_memory_limit() -> None:
    assert pools.processes_for(8, 20, 100_000, 1_000_000, None) == 8
    assert pools.processes_for(8, 3, 100_000, 1_000_000, None) == 3
    one_worker = pools.MAIN_BASE + pools.need(1_000_000, 2_000_000)
    assert pools.processes_for(8, 20, 1_000_000, 2_000_000, one_worker * 2) == 2
    assert pools.processes_for(8, 20, 1_000_000, 2_000_000, one_worker // 2) == 1  # at least


def test_a_module_too_large_for_the_memory_limit_is_e001_before_it_is_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, checked: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    limit = pools.MAIN_BASE + pools.need(200_000, 200_000)
    monkeypatch.setattr(batches, "memory_limit", lambda *_: limit)
    flow = "import time\n__adk_workflow__ = True\nT = time.time()\n"
    (tmp_path / "huge.py").write_text(flow + "# padding\n" * 30_000)
    (tmp_path / "small.py").write_text(flow)
    report = guard(".")
    assert [(f.path, f.code.value) for f in report.findings] == [
        ("huge.py", "ADK-E001"),
        ("small.py", "ADK-W003"),
    ]
    assert report.findings[0].call.startswith("memory: checking its 300,")
    assert "more than the memory limit of" in report.findings[0].call
    assert checked == ["small.py"]


def test_a_module_too_large_for_the_address_space_limit_is_e001() -> None:
    room = pools.CHECK_STACK + pools.need(100_000, 100_000) - pools.WORKER_BASE
    assert pools.too_large(100_000, None, room) is None
    reason = pools.too_large(200_000, None, room)
    assert reason is not None and reason.startswith("memory: checking its 200,000 bytes")
    assert "address-space limit (ulimit -v)" in reason
