"""Reporters: pure functions from a report (findings.Report) to text, keyed by format name."""

from __future__ import annotations

from collections.abc import Callable

from replaylint.findings import Report
from replaylint.reporters import json, text

REPORTERS: dict[str, Callable[[Report], str]] = {"text": text.render, "json": json.render}
