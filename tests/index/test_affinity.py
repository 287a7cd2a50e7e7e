"""Affinity batches: candidates that read a common local module share a batch, every candidate
is in exactly one, and the limits (candidates and bytes per batch) hold."""

from __future__ import annotations

from pathlib import Path

import pytest

from replaylint.index import affinity
from replaylint.project.config import Config


def _write(root: Path, files: dict[str, str]) -> list[tuple[str, str, bytes]]:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return [
        (str(root / name), name, (root / name).read_bytes())
        for name in sorted(files)
        if not name.endswith("__init__.py") and "helpers" not in name
    ]


def _with_shared_helpers(root: Path, files: dict[str, str]) -> list[tuple[str, str, bytes]]:
    """`files` beside a package `shared` whose `helpers` module some of them import."""
    shared = {
        "shared/__init__.py": "",
        "shared/helpers.py": "import time\n\ndef tick():\n    return time.time()\n",
    }
    return _write(root, {**files, **shared})


def _names(batches: list[list[tuple[str, str, bytes]]]) -> list[list[str]]:
    return [[display for _, display, _ in batch] for batch in batches]


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    return tmp_path


def test_candidates_reading_one_helper_share_a_batch(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(affinity, "BATCH", 2)
    candidates = _with_shared_helpers(
        tree,
        {
            "a_flow.py": "from shared.helpers import tick\n",
            "b_flow.py": "import os\n",
            "c_flow.py": "from shared import helpers\n",
        },
    )
    # In path order a and b would share the first batch; a and c read shared/helpers.py.
    assert _names(affinity.batches(candidates, Config())) == [
        ["a_flow.py", "c_flow.py"],
        ["b_flow.py"],
    ]


def test_relative_imports_and_a_candidate_imported_by_another(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(affinity, "BATCH", 2)
    candidates = _write(
        tree,
        {
            "app/__init__.py": "",
            "app/a_worker.py": "from .z_flow import Flow\n",
            "app/m_other.py": "x = 1\n",
            "app/z_flow.py": "class Flow: ...\n",
        },
    )
    batches = _names(affinity.batches(candidates, Config()))
    assert batches == [["app/a_worker.py", "app/z_flow.py"], ["app/m_other.py"]]


def test_a_group_larger_than_a_batch_is_cut_and_nothing_is_lost(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(affinity, "BATCH", 3)
    files = {f"f{n}.py": "import hub\n" for n in range(7)}
    files["hub.py"] = "VALUE = 1\n"
    candidates = _write(tree, files)
    batches = affinity.batches(candidates, Config())
    assert [len(b) for b in batches] == [3, 3, 2]  # hub.py is a candidate too: one group of 8
    flat = [c for batch in batches for c in batch]
    assert sorted(flat) == sorted(candidates)


def test_the_byte_budget_keeps_large_modules_apart(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(affinity, "BUDGET", 1000)
    candidates = _write(
        tree,
        {
            "big.py": "x = 1\n" * 300,  # 1,800 bytes: a batch of its own, over the budget
            "small1.py": "y = 2\n",
            "small2.py": "z = 3\n",
        },
    )
    assert _names(affinity.batches(candidates, Config())) == [
        ["big.py"],
        ["small1.py", "small2.py"],
    ]


def test_parts_keep_each_group_apart_and_cut_only_a_large_one(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(affinity, "BATCH", 2)
    candidates = _with_shared_helpers(
        tree,
        {
            "a_worker.py": "from shared.helpers import tick\n",
            "b_script.py": "import os\n",
            "c_worker.py": "from shared import helpers\n",
            "d_worker.py": "from shared import helpers\n",
            "e_script.py": "import sys\n",
        },
    )
    # Batches pack the lone scripts together; parts never put two groups in one.
    assert _names(affinity.batches(candidates, Config())) == [
        ["a_worker.py", "c_worker.py"],
        ["d_worker.py", "b_script.py"],
        ["e_script.py"],
    ]
    assert _names(affinity.parts(candidates, Config())) == [
        ["a_worker.py", "c_worker.py"],
        ["d_worker.py"],
        ["b_script.py"],
        ["e_script.py"],
    ]
