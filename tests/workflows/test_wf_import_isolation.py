"""The runtime is importable without the linter: no libcst, no click, no other replaylint module."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = (
    "import json, sys\n"
    "import {module}\n"
    "print(json.dumps({{'libcst': 'libcst' in sys.modules, 'click': 'click' in sys.modules,\n"
    "  'replaylint': sorted(m for m in sys.modules if m.startswith('replaylint'))}}))\n"
)


def probe(module: str) -> dict:
    completed = subprocess.run(
        [sys.executable, "-c", PROBE.format(module=module)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    return json.loads(completed.stdout)


def test_importing_the_runtime_pulls_in_neither_libcst_nor_click() -> None:
    loaded = probe("replaylint.workflows")
    assert loaded["libcst"] is False
    assert loaded["click"] is False


def test_importing_the_runtime_loads_only_the_runtime_package() -> None:
    loaded = probe("replaylint.workflows")
    outside = [
        m
        for m in loaded["replaylint"]
        if m != "replaylint" and not m.startswith("replaylint.workflows")
    ]
    assert outside == []


def test_the_replay_command_logic_is_as_light_as_the_runtime() -> None:
    loaded = probe("replaylint.harness.replay")
    assert (loaded["libcst"], loaded["click"]) == (False, False)
    outside = [
        m
        for m in loaded["replaylint"]
        if m not in ("replaylint", "replaylint.harness", "replaylint.harness.replay")
        and not m.startswith("replaylint.workflows")
    ]
    assert outside == []


def test_the_example_workflows_import_no_linter_code() -> None:
    loaded = probe(
        "examples.workflows.agent_pipeline, examples.workflows.payment, "
        "examples.workflows.fulfilment, examples.workflows.freight"
    )
    assert (loaded["libcst"], loaded["click"]) == (False, False)
