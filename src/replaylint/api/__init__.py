"""The Python API: guard(paths) and guard_source(text, source=...) return a ReplayReport."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from replaylint.api.needles import MARKER_NEEDLES, needles_for
from replaylint.api.run import Progress, named_files, run
from replaylint.project.config import Config, Resolver
from replaylint.report.replay_report import ReplayReport
from replaylint.report.selection import Selection, report_from

if TYPE_CHECKING:
    from replaylint.engine.project import Project

__all__ = [
    "MARKER_NEEDLES",
    "Progress",
    "ReplayReport",
    "guard",
    "guard_source",
    "needles_for",
    "run",
]


def guard(
    paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]] = ".",
    *,
    select: Sequence[str] | None = None,
    ignore: Sequence[str] | None = None,
    project: Project | None = None,
    config: Config | None = None,
    dependents: bool = True,
) -> ReplayReport:
    """Check files and directories; the CI step returns report.exit_code and prints report.summary().

    Files named one by one also bring in the workflow modules of their project that reach them
    (`dependents=False`: only the files themselves).

    Each file's settings come from the nearest `[tool.replaylint]` above it, as on the command
    line, unless `config` is given for all of them (pass `Config()` for the defaults).
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    resolver = Resolver(explicit=config)
    named = [os.fspath(p) for p in paths]
    outcome = run(named, project=project, resolver=resolver, dependents=dependents)
    selection = Selection(resolver, select or (), ignore or (), named=named_files(named))
    return report_from(outcome, selection)


def guard_source(
    text: str | bytes,
    source: str = "<stdin>",
    *,
    select: Sequence[str] | None = None,
    ignore: Sequence[str] | None = None,
    project: Project | None = None,
    config: Config | None = None,
) -> ReplayReport:
    """Check one module given as text, named `source` (a path: local imports resolve beside it,
    and settings come from the nearest `[tool.replaylint]` above it unless `config` is given)."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    resolver = Resolver(explicit=config)
    outcome = run([], stdin=(source, data), project=project, resolver=resolver)
    return report_from(outcome, Selection(resolver, select or (), ignore or ()))
