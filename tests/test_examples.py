"""The shipped examples: the replay-safe ones are clean, the unsafe ones show the usual mistakes."""

from __future__ import annotations

from pathlib import Path

import pytest

from replaylint import guard

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def test_replay_safe_examples_are_clean() -> None:
    report = guard("examples/workflows")
    assert report.findings == ()
    assert report.exit_code == 0
    assert report.workflow_modules >= 3


def test_unsafe_examples_show_real_findings() -> None:
    report = guard("examples/unsafe")
    assert report.exit_code == 1
    assert [(f.path, f.line, f.code.value, f.call) for f in report.findings] == [
        ("examples/unsafe/agent_pipeline.py", 24, "ADK-W001", "self.client.messages.create"),
        ("examples/unsafe/agent_pipeline.py", 32, "ADK-W003", "time.monotonic"),
        ("examples/unsafe/agent_pipeline.py", 33, "ADK-W005", "lookup_customer"),
        ("examples/unsafe/agent_pipeline.py", 35, "ADK-W005", "self._ask"),
        ("examples/unsafe/agent_pipeline.py", 36, "ADK-W005", "self._ask"),
        ("examples/unsafe/agent_pipeline.py", 37, "ADK-W003", "time.monotonic"),
        ("examples/unsafe/payment.py", 15, "ADK-W002", "uuid.uuid4"),
        ("examples/unsafe/payment.py", 16, "ADK-W003", "datetime.now"),
        ("examples/unsafe/payment.py", 17, "ADK-W004", "requests.post"),
        ("examples/unsafe/payment.py", 25, "ADK-W002", "RETRY_JITTER"),
        ("examples/unsafe/payment.py", 30, "ADK-W005", "charge"),
        ("examples/unsafe/payment.py", 33, "ADK-W005", "backoff"),
    ]
    [lookup] = [f for f in report.findings if f.call == "lookup_customer"]
    assert [(link.path, link.line, link.call) for link in lookup.chain] == [
        ("examples/unsafe/tools.py", 9, "httpx.get")
    ]


def test_readme_quotes_the_real_output() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert guard("examples/unsafe").summary() in readme
