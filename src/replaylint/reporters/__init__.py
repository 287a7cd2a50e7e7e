"""Reporters: pure functions from a report (findings.Report) to text, keyed by format name.

Each format's module is imported when it is first used: a run that prints text never pays for
the XML or SARIF writers (the command line's start-up is part of every pre-commit run)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping

from replaylint.core.findings import Report

__all__ = ["COLORED", "REPORTERS", "render", "statistics"]


class _Formats(Mapping[str, Callable[..., str]]):
    """Format name -> its module's `render`, imported on first use."""

    def __init__(self, modules: dict[str, str]) -> None:
        self._modules = modules

    def __getitem__(self, name: str) -> Callable[..., str]:
        module = importlib.import_module(f"replaylint.reporters.{self._modules[name]}")
        render: Callable[..., str] = module.render
        return render

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __len__(self) -> int:
        return len(self._modules)


REPORTERS: Mapping[str, Callable[[Report], str]] = _Formats(
    {
        "text": "text",
        "concise": "concise",
        "full": "full",
        "json": "json",
        "json-lines": "json_lines",
        "sarif": "sarif",
        "github": "github",
        "gitlab": "gitlab",
        "junit": "junit",
    }
)

# The formats meant for a terminal, which take `color=`; the others are read by programs.
COLORED: Mapping[str, Callable[..., str]] = _Formats(
    {"text": "text", "concise": "concise", "full": "full"}
)


def render(name: str, report: Report, *, color: bool = False, summary: bool = True) -> str:
    """The report in format `name` (a key of REPORTERS); `color` adds ANSI styles to the text
    formats and `summary=False` leaves out their summary (-q); the other formats ignore both."""
    if name not in REPORTERS:
        raise ValueError(f"unknown output format {name!r}; choose from {', '.join(REPORTERS)}")
    if name in COLORED:
        return COLORED[name](report, color=color, summary=summary)
    return REPORTERS[name](report)


def statistics(report: Report) -> str:
    """`--statistics`: the count of findings per code (see counts.py)."""
    from replaylint.reporters.counts import statistics as counted

    return counted(report)
