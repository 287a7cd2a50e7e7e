"""Where a report goes: stdout (coloured on a terminal) or `--output-file`, whole or as its
statistics, and the progress bar on stderr while a long run goes on."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from replaylint.cli.options import CheckOptions
    from replaylint.cli.progress import ProgressBar
    from replaylint.report.replay_report import ReplayReport


def write_report(report: ReplayReport, options: CheckOptions) -> str | None:
    """The report (or its statistics) to stdout or --output-file; a problem writing it comes
    back as one line. With -q, the text formats leave out their summary; the machine formats
    are printed whole."""
    from replaylint import reporters
    from replaylint.cli.terminal import color_wanted

    output_format, output_file = options.output_format, options.output_file
    color = output_format in reporters.COLORED and color_wanted(
        sys.stdout, os.environ, to_file=output_file is not None
    )
    if options.statistics:
        text = reporters.statistics(report)
    elif output_format in reporters.COLORED:
        text = reporters.render(output_format, report, color=color, summary=not options.quiet)
    else:
        text = reporters.render(output_format, report)
    if output_file is None:
        # click strips escape sequences when stdout is no terminal; FORCE_COLOR keeps them.
        echo(text, nl=False, color=True if color else None)
        return None
    try:
        target = Path(output_file)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    except OSError as error:
        return f"--output-file {output_file}: {error.strerror or error}"
    return None


def echo(text: str, *, err: bool = False, nl: bool = True, color: bool | None = None) -> None:
    """click.echo, and the same text kept for a re-run to print again (index/recording.py)."""
    from replaylint.index import recording

    click.echo(text, err=err, nl=nl, color=color)
    recording.said(err, f"{text}\n" if nl else text)


def progress_bar(quiet: bool) -> ProgressBar | None:
    from replaylint.cli.progress import ProgressBar
    from replaylint.cli.terminal import progress_wanted

    return ProgressBar(sys.stderr) if progress_wanted(sys.stderr, os.environ, quiet=quiet) else None
