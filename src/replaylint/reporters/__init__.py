"""Reporters: pure functions from a ReplayReport to text."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from replaylint.api import ReplayReport


def _text(report: "ReplayReport") -> str:
    from replaylint.reporters.text import render

    return render(report)


def _json(report: "ReplayReport") -> str:
    from replaylint.reporters.json import render

    return render(report)


REPORTERS: dict[str, Callable[["ReplayReport"], str]] = {"text": _text, "json": _json}
