"""Inputs at the edges: deep generated code, expressions CPython refuses, long helper chains."""

from __future__ import annotations

from pathlib import Path

import pytest

from replaylint import guard
from replaylint.codes import Code


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def test_deep_elif_chain_and_long_operator_chain_are_checked(tmp_path: Path) -> None:
    branches = "".join(f"    elif kind == {i}:\n        return {i}\n" for i in range(1, 700))
    (tmp_path / "dispatch.py").write_text(
        "import time\n__adk_workflow__ = True\n\n\ndef route(kind):\n    if kind == 0:\n        return 0\n"
        + branches
        + "    return time.time()\n"
    )
    (tmp_path / "sums.py").write_text(
        "import uuid\n__adk_workflow__ = True\nTOTAL = "
        + " + ".join(["1"] * 600)
        + "\nKEY = uuid.uuid4()\n"
    )
    report = guard(".")
    assert [(f.path, f.line, f.code) for f in report.findings] == [
        ("dispatch.py", 1406, Code.W003),
        ("sums.py", 4, Code.W002),
    ]


def test_expression_python_refuses_is_e001_and_others_still_checked(tmp_path: Path) -> None:
    (tmp_path / "a_huge.py").write_text(
        "__adk_workflow__ = True\nx = " + " + ".join(["1"] * 20000) + "\n"
    )
    (tmp_path / "b_ok.py").write_text("import time\n__adk_workflow__ = True\nT = time.time()\n")
    report = guard(".")
    assert [(f.path, f.line, f.code) for f in report.findings] == [
        ("a_huge.py", 1, Code.E001),
        ("b_ok.py", 3, Code.W003),
    ]
    assert report.findings[0].call == "too deeply nested for Python to compile"


def test_long_helper_chain_is_linear_and_capped(tmp_path: Path) -> None:
    helpers = "".join(f"def h{i}():\n    return h{i - 1}()\n\n\n" for i in range(1, 1500))
    (tmp_path / "chain.py").write_text(
        "import time\n__adk_workflow__ = True\n\n\ndef h0():\n    return time.time()\n\n\n"
        + helpers
    )
    report = guard(".")
    deepest = [f for f in report.findings if f.call == "h1498"]
    assert len(report.findings) == 1 + 1499
    [finding] = deepest
    assert len(finding.chain) == 12
    assert finding.chain[-1].call == "time.time" and finding.chain[-1].line == 6
    assert finding.chain[0].call == "h1497"
