"""Shared fixtures for the runtime tests: a fixed start instant and the project root on sys.path."""

from __future__ import annotations

import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HISTORIES = ROOT / "tests" / "histories"

# The example workflows are imported as `examples.workflows.*`, as histories name them.
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

STARTED = datetime(2024, 3, 1, 12, 0, tzinfo=timezone.utc)


@pytest.fixture
def started() -> datetime:
    return STARTED


@pytest.fixture
def calls() -> list:
    """A log the test activities append to, to prove what executed."""
    return []
