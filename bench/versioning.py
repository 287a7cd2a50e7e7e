"""`check --base` against a cold check on a generated repository of 200 Temporal workflow
modules (each with a helper module it imports), medians of several runs, side by side.

    .venv/bin/python bench/versioning.py [--modules 200] [--runs 5] [--json FILE]

The base commit holds every module; the working tree then changes a tenth of them (an
activity inserted, one swapped, a gate added) or, in the second scenario, every one of them.
Both commands run with `--no-cache`, on every core, in alternating order after one untimed
warm-up; the ratio is `check --base HEAD` over `check`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent

WORKFLOW = '''"""Order flow {n}."""

from datetime import timedelta

from temporalio import activity, workflow

from flows.helpers_{n} import prepare_{n}

T = timedelta(seconds=30)


@activity.defn(name="charge_{n}")
async def charge(order: dict) -> str:
    return str(order)


@activity.defn(name="reserve_{n}")
async def reserve(order: dict) -> str:
    return str(order)


@activity.defn(name="ship_{n}")
async def ship(order: dict) -> str:
    return str(order)


@workflow.defn(name="OrderFlow{n}")
class OrderFlow{n}:
    def __init__(self) -> None:
        self.approved = False

    @workflow.signal
    async def approve(self) -> None:
        self.approved = True

    @workflow.run
    async def run(self, order: dict) -> str:
        await prepare_{n}(order)
{body}
        for line in order.get("lines", []):
            await workflow.execute_activity(reserve, line, start_to_close_timeout=T)
        if order.get("express"):
            await workflow.sleep(60)
        else:
            await workflow.wait_condition(lambda: self.approved, timeout=timedelta(days=1))
        return await workflow.execute_activity(ship, order, start_to_close_timeout=T)
'''

HELPER = '''"""Helpers of flow {n}."""

from datetime import timedelta

from temporalio import workflow


async def prepare_{n}(order: dict) -> None:
    await workflow.execute_activity("validate_{n}", order, start_to_close_timeout=timedelta(seconds=5))
    await workflow.execute_activity("price_{n}", order, start_to_close_timeout=timedelta(seconds=5))
'''

BASE = "        await workflow.execute_activity(charge, order, start_to_close_timeout=T)"
CHANGES = (
    "        await workflow.execute_activity(reserve, order, start_to_close_timeout=T)\n" + BASE,
    BASE.replace("charge", "ship"),
    "        if workflow.patched('audit'):\n"
    "            await workflow.execute_activity('audit', order, start_to_close_timeout=T)\n"
    + BASE,
)


def _write(root: Path, modules: int, changed: set[int]) -> None:
    (root / "flows").mkdir(parents=True, exist_ok=True)
    (root / "flows" / "__init__.py").write_text("")
    for n in range(modules):
        body = CHANGES[n % len(CHANGES)] if n in changed else BASE
        (root / "flows" / f"flow_{n}.py").write_text(WORKFLOW.format(n=n, body=body))
        (root / "flows" / f"helpers_{n}.py").write_text(HELPER.format(n=n))


def _git(root: Path, *args: str) -> None:
    identity = ["-c", "user.name=bench", "-c", "user.email=bench@replaylint.invalid"]
    subprocess.run(["git", *identity, *args], cwd=root, check=True, capture_output=True)


def _time(command: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def scenario(modules: int, changed: set[int], runs: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="replaylint-bench-") as folder:
        root = Path(folder)
        _write(root, modules, set())
        _git(root, "init", "-q")
        _git(root, "add", "-A")
        _git(root, "commit", "-q", "-m", "base")
        _write(root, modules, changed)
        check = [str(BIN / "replaylint"), "check", "--no-cache", "-q", "."]
        based = [*check[:-1], "--base", "HEAD", "."]
        found = subprocess.run(based, cwd=root, capture_output=True, text=True).stdout
        assert found.count("ADK-V001") == sum(1 for n in changed if n % len(CHANGES) != 2), found
        cold, versioned = [], []
        for _ in range(runs):
            cold.append(_time(check, root))
            versioned.append(_time(based, root))
    return {
        "check": statistics.median(cold),
        "check --base": statistics.median(versioned),
        "ratio": statistics.median(versioned) / statistics.median(cold),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--modules", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", default=str(Path(__file__).with_name("versioning.json")))
    args = parser.parse_args()
    results = {
        "a tenth of the workflows changed": scenario(
            args.modules, set(range(0, args.modules, 10)), args.runs
        ),
        "every workflow changed": scenario(args.modules, set(range(args.modules)), args.runs),
    }
    print(f"{'scenario':36}  {'check s':>8}  {'--base s':>8}  {'ratio':>5}  target")
    for name, row in results.items():
        verdict = "PASS" if row["ratio"] <= 2.0 else "OVER"
        print(
            f"{name:36}  {row['check']:8.2f}  {row['check --base']:8.2f}  "
            f"{row['ratio']:5.2f}  <= 2.0 {verdict}"
        )
    Path(args.json).write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
