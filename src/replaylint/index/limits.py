"""What the machine lets a run use, as a container sees it: the CPUs (affinity and a cgroup's
`cpu.max` quota), the memory (a cgroup's `memory.max`, v1 `memory.limit_in_bytes`, the
machine's own), and how many processes the out-of-memory killer has ended so far.

Every reader answers None (or 0) when it cannot tell: no cgroup, an unreadable file, another
platform. Nothing here raises; a wrong guess costs speed, never a result, since a worker that
dies anyway is retried (survival.py).
"""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")
PROC_CGROUP = Path("/proc/self/cgroup")
PROC_VMSTAT = Path("/proc/vmstat")
_UNLIMITED_V1 = 1 << 62  # v1 writes "no limit" as a page-rounded 2**63 - 1


def cpu_count() -> int:
    """CPUs this process may run on: its affinity, less any cgroup CPU quota."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    quota = cpu_quota()
    if quota is not None:
        cpus = min(cpus, quota)
    return max(1, cpus)


def cpu_quota(root: Path = CGROUP_ROOT, proc: Path = PROC_CGROUP) -> int | None:
    """Whole CPUs a cgroup quota allows (rounded up), the tightest along the hierarchy."""
    found: list[float] = []
    for folder in _folders(root, proc, "cpu"):
        text = _read(folder / "cpu.max")
        if text is not None:  # v2: "max 100000" or "<quota> <period>"
            parts = text.split()
            if len(parts) == 2 and parts[0] != "max":
                found.append(_ratio(parts[0], parts[1]))
            continue
        quota, period = _read(folder / "cpu.cfs_quota_us"), _read(folder / "cpu.cfs_period_us")
        if quota is not None and period is not None and not quota.startswith("-"):
            found.append(_ratio(quota, period))
    usable = [f for f in found if f > 0]
    return max(1, math.ceil(min(usable))) if usable else None


def memory_limit(root: Path = CGROUP_ROOT, proc: Path = PROC_CGROUP) -> int | None:
    """Bytes this process and its children may use together: the tightest of the cgroup limits
    along its hierarchy and the machine's memory; None when neither can be read."""
    found: list[int] = []
    for folder in _folders(root, proc, "memory"):
        for name in ("memory.max", "memory.limit_in_bytes"):
            text = _read(folder / name)
            if text is not None and text.isdigit() and int(text) < _UNLIMITED_V1:
                found.append(int(text))
    if root == CGROUP_ROOT:
        found.extend(_physical())
    return min(found) if found else None


def address_space_room() -> int | None:
    """Bytes of address space this process (and each worker, which inherits the limit and
    what this process has mapped) may still map under `ulimit -v`; None when unlimited."""
    limit = address_space_limit()
    if limit is None:
        return None
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            used = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError, AttributeError):
        used = 0
    return max(0, limit - used)


def address_space_limit() -> int | None:
    """The `ulimit -v` (RLIMIT_AS) of this process, or None."""
    try:
        import resource
    except ImportError:  # not on Windows
        return None
    try:
        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    except (OSError, ValueError, AttributeError):
        return None
    return None if soft in (resource.RLIM_INFINITY, -1) or soft <= 0 else soft


def oom_kills(root: Path = CGROUP_ROOT, proc: Path = PROC_CGROUP) -> int:
    """Processes ended by the out-of-memory killer so far, in this process's cgroup and on the
    whole machine added together: a count that grows while a worker dies says why it died."""
    total = 0
    for folder in _folders(root, proc, "memory")[:1]:  # the innermost: it counts its children
        for name in ("memory.events", "memory.oom_control"):
            total += _counter(_read(folder / name), "oom_kill")
    if root == CGROUP_ROOT:
        total += _counter(_read(PROC_VMSTAT), "oom_kill")
    return total


def _folders(root: Path, proc: Path, controller: str) -> list[Path]:
    """The cgroup folders that hold `controller`'s settings for this process, innermost first
    (a limit on an ancestor applies too). Inside a container the path /proc names may not be
    mounted; the mount's own root then stands for it."""
    if sys.platform != "linux" and root == CGROUP_ROOT:
        return []
    text = _read(proc)
    if text is None:
        return []
    folders: list[Path] = []
    for line in text.splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        _, controllers, relative = parts
        base: Path | None
        if controllers == "":  # v2: one unified hierarchy (under unified/ when hybrid)
            base = root if (root / "cgroup.controllers").exists() else root / "unified"
        elif controller in controllers.split(","):
            base = _v1_mount(root, controller)
        else:
            continue
        if base is None:
            continue
        inner = base / relative.lstrip("/")
        if not inner.is_dir():
            inner = base
        walk = [inner, *[p for p in inner.parents if p == base or base in p.parents]]
        folders.extend(w for w in walk if w not in folders)
    return folders


def _v1_mount(root: Path, controller: str) -> Path | None:
    for name in (controller, f"{controller},cpuacct", f"cpuacct,{controller}"):
        if (root / name).is_dir():
            return root / name
    return None


def _physical() -> list[int]:
    try:
        return [os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")]
    except (AttributeError, OSError, ValueError):
        return []


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="ascii", errors="replace").strip()
    except OSError:
        return None


def _ratio(quota: str, period: str) -> float:
    try:
        return int(quota) / int(period)
    except (ValueError, ZeroDivisionError):
        return 0.0


def _counter(text: str | None, name: str) -> int:
    for line in (text or "").splitlines():
        key, _, value = line.partition(" ")
        if key == name and value.strip().isdigit():
            return int(value)
    return 0
