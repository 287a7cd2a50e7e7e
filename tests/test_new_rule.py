"""scripts/new_rule.py: a new rule's code, metadata, module, registration, page and fixtures."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "new_rule.py"


def _copy(tmp_path: Path) -> Path:
    copy = tmp_path / "repo"
    shutil.copytree(ROOT / "src", copy / "src", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "rules", copy / "rules")
    (copy / "tests" / "rules").mkdir(parents=True)
    return copy


def _scaffold(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, str(SCRIPT), *args, "--root", str(root)]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def _registry(root: Path) -> dict:
    probe = (
        "import json\n"
        "from replaylint.core.codes import RULES, WALK_CODES, Code\n"
        "from replaylint.rules import ALL_RULES\n"
        "print(json.dumps({'codes': [c.value for c in WALK_CODES],\n"
        "  'rules': [[r.code.value, type(r).__module__, type(r).__name__] for r in ALL_RULES],\n"
        "  'meta': {c.value: [m.slug, m.kind, m.category] for c, m in RULES.items()}}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(root / "src"), "PATH": "/usr/bin:/bin"},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_pattern_rule_is_registered_in_code_order_with_its_page_and_fixtures(
    tmp_path: Path,
) -> None:
    root = _copy(tmp_path)
    done = _scaffold(
        root,
        "ADK-W012",
        "host-timer-in-workflow",
        "--kind",
        "pattern",
        "--finding",
        "a timer of the host is started on the workflow path ({call})",
        "--remedy",
        "use the framework's durable timer",
    )
    assert done.returncode == 0, done.stderr
    registry = _registry(root)
    assert registry["codes"].index("ADK-W012") == registry["codes"].index("ADK-W011") + 1
    assert [r[0] for r in registry["rules"]] == registry["codes"]
    assert ["ADK-W012", "replaylint.rules.host_timer_in_workflow", "HostTimerInWorkflow"] in [
        r for r in registry["rules"]
    ]
    assert registry["meta"]["ADK-W012"] == ["host-timer-in-workflow", "pattern", ""]
    page = (root / "rules" / "ADK-W012.md").read_text(encoding="utf-8")
    assert page.startswith("# host-timer-in-workflow (ADK-W012)\n")
    assert "# expect: ADK-W012" in (root / "tests/rules/ADK-W012/direct.py").read_text()
    assert "expect" not in (root / "tests/rules/ADK-W012/clean.py").read_text()


def test_a_catalog_rule_carries_its_category(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    done = _scaffold(
        root,
        "ADK-W012",
        "host-signal-in-workflow",
        "--kind",
        "catalog",
        "--category",
        "signals",
        "--finding",
        "a signal handler of the process is installed on the workflow path ({call})",
        "--remedy",
        "handle it in the worker, not in the workflow",
    )
    assert done.returncode == 0, done.stderr
    assert _registry(root)["meta"]["ADK-W012"] == ["host-signal-in-workflow", "catalog", "signals"]


def test_an_existing_code_is_refused_in_one_line(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    done = _scaffold(
        root,
        "ADK-W003",
        "other-clock",
        "--kind",
        "pattern",
        "--finding",
        "x ({call})",
        "--remedy",
        "y",
    )
    assert done.returncode == 2
    assert done.stderr == "new_rule: ADK-W003 or other-clock is already a rule\n"
